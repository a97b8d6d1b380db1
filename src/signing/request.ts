/** The request and credential shapes shared by sign, verify and explain. */
import { matchPath, type PathMatch } from '../catalogue/index.ts';
import { PayconformError } from '../errors.ts';
import type { Pair } from './form-body.ts';
import { normalizeUrl } from './normalize-url.ts';

export interface RequestInput {
  /** POST for every endpoint of the spec; other methods only for RFC 5849 examples. */
  readonly method?: string;
  /** Full URL: origin, any prefix before /api/, the path with its endpointId, optional query. */
  readonly url: string;
  /** Form-body pairs in send order; names may repeat. */
  readonly params: readonly Pair[];
}

/**
 * What a caller has already derived from the request, handed beside it so the signer does not derive it
 * again (the mock's rules, the client): not part of the request, and not of the public API.
 */
export interface KnownFacts {
  /** The URL's catalogue match. */
  readonly match?: PathMatch | undefined;
  /** The amount field in cents. */
  readonly amountCents?: string | undefined;
}

export interface Credentials {
  readonly login?: string | undefined;
  /** Merchant control key: control formulas and the HMAC-SHA1 consumer secret. */
  readonly controlKey?: string | undefined;
  /** RSA-SHA256 signing (PKCS#8 or PKCS#1 PEM). */
  readonly privateKeyPem?: string | undefined;
  /** RSA-SHA256 verification (SPKI or PKCS#1 PEM); derived from privateKeyPem when absent. */
  readonly publicKeyPem?: string | undefined;
  /** RFC 5849 token credentials: not used by the spec's API, accepted for the RFC's own examples. */
  readonly token?: string | undefined;
  readonly tokenSecret?: string | undefined;
}

export function resolveEndpoint(url: string): PathMatch {
  return matchPath(normalizeUrl(url).pathname);
}

/** The request's catalogue match: the one known already, or one made from its URL. */
export function endpointOf(request: RequestInput, known: KnownFacts = {}): PathMatch {
  return known.match ?? resolveEndpoint(request.url);
}

export function requireCredential(value: string | undefined, field: string, how: string): string {
  if (value === undefined || value === '') {
    throw new PayconformError('ERR_CREDENTIALS', `${field}: missing (${how})`, { field, rule: 'required' });
  }
  return value;
}

export const HOW = {
  login: 'give --login or set PAYCONFORM_LOGIN',
  controlKey: 'give --control-key-file or set PAYCONFORM_CONTROL_KEY',
  privateKey: 'give --private-key-file or set PAYCONFORM_PRIVATE_KEY_FILE',
  publicKey: 'give --public-key-file or --private-key-file',
} as const;
