// The test merchant's credentials (public, test-only: vectors/keys/), for the explore tests.
import { readFileSync } from 'node:fs';
import { TEST_MERCHANT_PRIVATE_KEY_FILE } from '../../src/gateway/merchants.ts';
import type { Credentials } from '../../src/signing/request.ts';

export const TEST_CREDENTIALS: Credentials = {
  login: 'generated-test-merchant',
  controlKey: 'generated-test-key',
  privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
};
