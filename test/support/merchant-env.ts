/**
 * The environment of a suite run as the TEST-ONLY merchant (src/gateway/merchants.ts) against the mock on a
 * port: its credentials, statuses polled at once, and CI output (no colours, no progress drawing).
 */
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';

/** `group`: with the merchant's endpoint group too (PAYCONFORM_ENDPOINT_GROUP_ID), as a complete run needs. */
export function testMerchantEnv({ group = false } = {}): Record<string, string> {
  const merchant = testMerchant();
  return {
    CI: 'true',
    PAYCONFORM_POLL_INTERVAL_MS: '0',
    PAYCONFORM_ENDPOINT_ID: merchant.endpointIds[0]!,
    ...(group ? { PAYCONFORM_ENDPOINT_GROUP_ID: merchant.endpointGroupIds[0]! } : {}),
    PAYCONFORM_LOGIN: merchant.login,
    PAYCONFORM_CONTROL_KEY: merchant.merchantControlKey,
    PAYCONFORM_PRIVATE_KEY_FILE: TEST_MERCHANT_PRIVATE_KEY_FILE,
  };
}
