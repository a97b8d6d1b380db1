/**
 * Verification of a `control` field and of an OAuth Authorization header. Secrets are compared in
 * constant time (crypto.timingSafeEqual); lengths are not secret and are compared first.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Endpoint } from '../catalogue/index.ts';
import { isPayconformError } from '../errors.ts';
import { getParam, parseAuthorizationHeader, type ParsedAuthorization } from './authorization-header.ts';
import { computeControl, isControlShaped } from './control.ts';
import { hmacSha1Signature, hmacSigningKey } from './hmac-sha1.ts';
import { loadPublicKey } from './keys.ts';
import { oauthBaseString } from './oauth.ts';
import { endpointOf, HOW, requireCredential, type Credentials, type RequestInput } from './request.ts';
import { rsaSha256Verify } from './rsa-sha256.ts';
import { signableScheme } from './sign.ts';

export type VerifyReason =
  'valid' | 'missing' | 'malformed' | 'wrong-signature-method' | 'wrong-consumer-key' | 'wrong-version' | 'mismatch';

export interface Verdict {
  readonly valid: boolean;
  readonly reason: VerifyReason;
  /** One line for people; never contains a secret. */
  readonly message: string;
  readonly operation: string;
  readonly scheme: string;
  /** What the signature covers, recomputed from the request (safe to print). */
  readonly controlInput?: string;
  readonly baseString?: string;
}

export interface GivenSignature {
  /** The control value sent; when absent, the request's `control` form field. */
  readonly control?: string | undefined;
  readonly authorization?: string | undefined;
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a); // UTF-8, Buffer.from's default
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function verifyRequest(request: RequestInput, credentials: Credentials, given: GivenSignature): Verdict {
  const { endpoint, endpointId } = endpointOf(request);
  const scheme = signableScheme(endpoint);
  const base = { operation: endpoint.operation, scheme };
  const verdict = (reason: VerifyReason, message: string, extra: Partial<Verdict> = {}): Verdict => ({
    valid: reason === 'valid',
    reason,
    message,
    ...base,
    ...extra,
  });

  if (endpoint.auth.kind === 'control') {
    const sent = given.control ?? request.params.find(([name]) => name === 'control')?.[1];
    if (sent === undefined) return verdict('missing', 'control: missing (no --control and no control form field)');
    if (!isControlShaped(sent)) return verdict('malformed', 'control: must be 40 lowercase hex digits (SHA-1)');
    const controlKey = requireCredential(credentials.controlKey, 'control key', HOW.controlKey);
    const ctx = { operation: endpoint.operation, endpointId, login: credentials.login, params: request.params };
    const expected = computeControl(endpoint.auth.fields, ctx, controlKey);
    const controlInput = expected.controlInput;
    return constantTimeEqual(sent, expected.control)
      ? verdict('valid', 'control is valid', { controlInput })
      : verdict('mismatch', 'control does not match SHA-1 of the formula', { controlInput });
  }

  if (given.authorization === undefined) return verdict('missing', 'authorization: missing (no --authorization given)');
  let parsed: ParsedAuthorization;
  try {
    parsed = parseAuthorizationHeader(given.authorization);
  } catch (err) {
    if (isPayconformError(err)) return verdict('malformed', err.message);
    throw err;
  }
  return verifyOAuth(endpoint, request, credentials, parsed, verdict);
}

function verifyOAuth(
  endpoint: Endpoint,
  request: RequestInput,
  credentials: Credentials,
  parsed: ParsedAuthorization,
  verdict: (reason: VerifyReason, message: string, extra?: Partial<Verdict>) => Verdict,
): Verdict {
  const required = endpoint.auth.kind === 'oauth-hmac-sha1' ? 'HMAC-SHA1' : 'RSA-SHA256';
  const signature = getParam(parsed, 'oauth_signature');
  if (signature === undefined) return verdict('missing', 'authorization: oauth_signature is missing');
  for (const name of ['oauth_consumer_key', 'oauth_nonce', 'oauth_timestamp', 'oauth_signature_method']) {
    if (getParam(parsed, name) === undefined) return verdict('malformed', `authorization: ${name} is missing`);
  }
  const method = getParam(parsed, 'oauth_signature_method');
  if (method !== required) {
    return verdict(
      'wrong-signature-method',
      `authorization: oauth_signature_method is ${method}; ${endpoint.operation} requires ${required}`,
    );
  }
  const version = getParam(parsed, 'oauth_version');
  if (version !== undefined && version !== '1.0')
    return verdict('wrong-version', `authorization: oauth_version must be 1.0 (got ${version})`);
  const consumerKey = getParam(parsed, 'oauth_consumer_key');
  if (credentials.login !== undefined && consumerKey !== credentials.login) {
    return verdict('wrong-consumer-key', 'authorization: oauth_consumer_key is not the merchant login');
  }
  const { baseString } = oauthBaseString(
    { method: request.method ?? 'POST', url: request.url, params: request.params },
    parsed.pairs,
  );
  let ok: boolean;
  if (required === 'HMAC-SHA1') {
    const key = hmacSigningKey(
      requireCredential(credentials.controlKey, 'control key', HOW.controlKey),
      credentials.tokenSecret,
    );
    ok = constantTimeEqual(signature, hmacSha1Signature(key, baseString));
  } else {
    const pem = credentials.publicKeyPem ?? requireCredential(credentials.privateKeyPem, 'public key', HOW.publicKey);
    ok = rsaSha256Verify(loadPublicKey(pem), baseString, signature);
  }
  return ok
    ? verdict('valid', `${required} signature is valid`, { baseString })
    : verdict('mismatch', `${required} signature does not match the base string`, { baseString });
}
