/**
 * Which gateway the suite runs against, from PAYCONFORM_* variables only (secrets never come from
 * arguments, so they cannot end up in a shell history or a report's command line). Without
 * PAYCONFORM_BASE_URL the suite starts the embedded mock with its TEST-ONLY merchant.
 */
import { readFileSync } from 'node:fs';
import { PayconformError } from '../errors.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../mock/merchants.ts';
import type { Credentials } from '../signing/request.ts';

export interface Target {
  /** {base_url}; undefined: start the embedded mock. */
  readonly baseUrl: string | undefined;
  readonly endpointId: string;
  readonly credentials: Credentials;
  /** A real gateway: only test cards, amounts at most maxAmount, no mock-only magic. */
  readonly live: boolean;
  readonly maxAmountCents: bigint;
  readonly pollIntervalMs: number;
  readonly pollDeadlineMs: number;
}

/** The variables a run against a real gateway needs, in the order they are checked. */
export const TARGET_VARIABLES = ['PAYCONFORM_ENDPOINT_ID', 'PAYCONFORM_LOGIN', 'PAYCONFORM_CONTROL_KEY', 'PAYCONFORM_PRIVATE_KEY_FILE'] as const;

function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  if (!/^[0-9]+$/.test(text)) throw new PayconformError('ERR_USAGE', `${name}: must be a whole number of milliseconds`, { field: name, rule: 'integer' });
  return Number(text);
}

export function targetFromEnv(env: NodeJS.ProcessEnv = process.env): Target {
  const baseUrl = env.PAYCONFORM_BASE_URL || undefined;
  const polling = { pollIntervalMs: wholeNumber(env, 'PAYCONFORM_POLL_INTERVAL_MS', baseUrl ? 500 : 0), pollDeadlineMs: wholeNumber(env, 'PAYCONFORM_POLL_DEADLINE_MS', baseUrl ? 120_000 : 5_000) };
  const maxAmount = env.PAYCONFORM_MAX_AMOUNT || '10.00';
  if (!/^[0-9]+(\.[0-9]{1,2})?$/.test(maxAmount)) throw new PayconformError('ERR_USAGE', 'PAYCONFORM_MAX_AMOUNT: must be a decimal amount such as 10.00', { field: 'PAYCONFORM_MAX_AMOUNT', rule: 'decimal' });
  const [whole, fraction = ''] = maxAmount.split('.');
  const maxAmountCents = BigInt(whole!) * 100n + BigInt(fraction.padEnd(2, '0') || '0');
  if (baseUrl === undefined) {
    const m = testMerchant();
    return {
      baseUrl, endpointId: m.endpointIds[0]!, live: false, maxAmountCents, ...polling,
      credentials: { login: m.login, controlKey: m.merchantControlKey, privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8') },
    };
  }
  const missing = TARGET_VARIABLES.find((name) => !env[name]);
  if (missing) throw new PayconformError('ERR_CREDENTIALS', `${missing}: missing (a run against ${new URL(baseUrl).origin} takes its credentials from the PAYCONFORM_* variables)`, { field: missing, rule: 'required' });
  let privateKeyPem: string;
  try {
    privateKeyPem = readFileSync(env.PAYCONFORM_PRIVATE_KEY_FILE!, 'utf8');
  } catch (err) {
    throw new PayconformError('ERR_IO', `PAYCONFORM_PRIVATE_KEY_FILE: cannot read (${(err as NodeJS.ErrnoException).code ?? 'error'})`, { field: 'PAYCONFORM_PRIVATE_KEY_FILE', rule: 'readable' });
  }
  return {
    baseUrl, endpointId: env.PAYCONFORM_ENDPOINT_ID!, live: env.PAYCONFORM_LIVE === '1', maxAmountCents, ...polling,
    credentials: { login: env.PAYCONFORM_LOGIN, controlKey: env.PAYCONFORM_CONTROL_KEY, privateKeyPem },
  };
}
