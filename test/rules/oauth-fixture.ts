// The OAuth rule tests' requests: the test merchant (endpoint 1001) and a second one, a protocol header
// written by hand with a stub signature (these rules judge its shape), and a clock 999 ms into a whole
// second, since the rules read it in whole seconds.
import { testMerchant } from '../../src/gateway/merchants.ts';
import { NonceStore } from '../../src/rules/nonces.ts';
import { RequestUnderTest } from '../../src/rules/request.ts';

export type P = [string, string];
export const merchant = testMerchant();
export const other = { ...merchant, login: 'other-merchant', endpointIds: ['3001'], endpointGroupIds: [] };
export const NOW_S = 1_700_000_000;
export const PROTOCOL: P[] = [
  ['oauth_consumer_key', merchant.login],
  ['oauth_nonce', 'n-1'],
  ['oauth_signature_method', 'HMAC-SHA1'],
  ['oauth_timestamp', String(NOW_S)],
  ['oauth_signature', 'stub'],
];
export const header = (pairs: readonly P[]): string => `OAuth ${pairs.map(([n, v]) => `${n}="${v}"`).join(', ')}`;
/** PROTOCOL with one parameter's value replaced. */
export const set = (name: string, value: string): P[] => PROTOCOL.map(([n, v]): P => [n, n === name ? value : v]);

/** A POST to `url` with this Authorization header (or none) and body, judged with both merchants known. */
export const oauthRequest = (
  url: string,
  authorization: string | undefined,
  { body = 'amount=1.00', nonces = new NonceStore(300) }: { body?: string; nonces?: NonceStore } = {},
): RequestUnderTest =>
  new RequestUnderTest(
    { method: 'POST', url, headers: { authorization }, body: Buffer.from(body) },
    {
      merchants: [merchant, other],
      windowSeconds: 300,
      now: () => NOW_S * 1000 + 999,
      nonces,
      maxBodyBytes: 1e6,
      explain: false,
    },
  );
