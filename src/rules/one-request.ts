/**
 * A request given after the fact (verify, diagnose) as the rules' request value: the URL matched once by the
 * caller (none for an OAuth 1.0a request outside the catalogue), the form as given with the control given apart
 * in its place, the header given, and the credentials as the one merchant that owns the endpoint id. No clock
 * and no nonce store: those rules judge a request as it arrives, which these commands do not.
 */
import type { PathMatch } from '../catalogue/index.ts';
import type { Pair } from '../signing/form-body.ts';
import type { Credentials, RequestInput } from '../signing/request.ts';
import type { GivenSignature } from '../signing/verify.ts';
import type { Merchant } from './merchant.ts';
import { NonceStore } from './nonces.ts';
import { RequestUnderTest } from './request.ts';

export function requestOf(
  request: RequestInput,
  credentials: Credentials,
  given: GivenSignature,
  match: PathMatch | undefined,
): RequestUnderTest {
  const params: Pair[] =
    given.control === undefined
      ? [...request.params]
      : [...request.params.filter(([name]) => name !== 'control'), ['control', given.control]];
  const merchant: Merchant = {
    login: credentials.login ?? '',
    merchantControlKey: credentials.controlKey ?? '',
    publicKeyPem: credentials.publicKeyPem ?? credentials.privateKeyPem,
    endpointIds: match === undefined || match.group === true ? [] : [match.endpointId],
    endpointGroupIds: match?.group === true ? [match.endpointId] : [],
  };
  return new RequestUnderTest(
    { method: request.method ?? 'POST', url: request.url, headers: { authorization: given.authorization } },
    {
      merchants: [merchant],
      windowSeconds: 0,
      now: Date.now,
      nonces: new NonceStore(0),
      maxBodyBytes: Number.POSITIVE_INFINITY,
      explain: false,
    },
    { match, params }, // without a match the URL's own (none outside the catalogue)
  );
}
