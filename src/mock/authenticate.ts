/**
 * Authentication as the mock gateway performs it, for real: the control formula of the catalogue
 * with the merchant's key, or the OAuth header with the merchant's control key (HMAC-SHA1) or
 * registered public key (RSA-SHA256), plus the timestamp window and nonce replay rules the spec
 * leaves open (docs/assumptions.md A-22). Each failure has its own code.
 */
import type { Endpoint } from '../catalogue/index.ts';
import { isPayconformError } from '../errors.ts';
import { getParam, parseAuthorizationHeader, type ParsedAuthorization } from '../signing/authorization-header.ts';
import { controlWithMistake } from '../signing/diagnose/apply.ts';
import { hmacSha1Signature, hmacSigningKey } from '../signing/hmac-sha1.ts';
import { oauthBaseString } from '../signing/oauth.ts';
import type { RequestInput } from '../signing/request.ts';
import { constantTimeEqual, verifyRequest } from '../signing/verify.ts';
import type { Defect } from './defects.ts';
import type { Merchant } from './merchants.ts';
import { MockError } from './mock-error.ts';
import type { NonceStore } from './nonces.ts';

export interface AuthSettings {
  readonly merchants: readonly Merchant[];
  /** Accepted clock skew of oauth_timestamp, in seconds either way. */
  readonly windowSeconds: number;
  readonly now: () => number;
  readonly nonces: NonceStore;
  /** A deliberate defect (src/mock/defects.ts); undefined for the real mock. */
  readonly defect?: Defect | undefined;
}

/** The merchant owning an endpoint id (or a group id where the endpoint accepts one). */
export function ownerOf(endpoint: Endpoint, endpointId: string, merchants: readonly Merchant[]): Merchant {
  const byId = merchants.find((m) => m.endpointIds.includes(endpointId));
  if (byId) return byId;
  const byGroup = merchants.find((m) => m.endpointGroupIds.includes(endpointId));
  if (byGroup && !endpoint.acceptsEndpointGroup) {
    throw new MockError(400, 'ENDPOINT_GROUP_NOT_ALLOWED', `endpointId: ${endpoint.operation} does not accept an endpoint group id`, 'endpointId');
  }
  if (byGroup) return byGroup;
  throw new MockError(400, 'ENDPOINT_UNKNOWN', `endpointId: ${endpointId} is not an endpoint of any merchant`, 'endpointId');
}

function credentialsOf(m: Merchant) {
  return { login: m.login, controlKey: m.merchantControlKey, publicKeyPem: m.publicKeyPem };
}

/** Runs verifyRequest, turning a request the formula cannot be computed for into a field error. */
function verdictOf(request: RequestInput, merchant: Merchant, given: { control?: string; authorization?: string }, defect: Defect | undefined) {
  try {
    return verifyRequest(request, credentialsOf(merchant), given);
  } catch (err) {
    if (!isPayconformError(err)) throw err;
    // skip-field-validation: a missing formula field counts as empty; the signature, made with it, then fails.
    if (defect === 'skip-field-validation') return { valid: false };
    const code = err.code === 'ERR_MISSING_FIELD' ? 'FIELD_MISSING' : 'FIELD_INVALID';
    throw new MockError(400, code, err.message, err.field);
  }
}

export function authenticate(endpoint: Endpoint, endpointId: string, request: RequestInput, authorization: string | undefined, settings: AuthSettings): Merchant {
  // No scheme to check, but the endpoint id still names the merchant whose data it reaches.
  if (endpoint.auth.kind === 'unstated') return ownerOf(endpoint, endpointId, settings.merchants);
  if (endpoint.auth.kind === 'control') {
    if (settings.defect === 'accept-any-control') return ownerOf(endpoint, endpointId, settings.merchants);
    return authenticateControl(endpoint, endpointId, request, settings);
  }
  if (settings.defect === 'accept-any-oauth-signature') return ownerOf(endpoint, endpointId, settings.merchants);
  return authenticateOAuth(endpoint, endpointId, request, authorization, settings);
}

function authenticateControl(endpoint: Endpoint, endpointId: string, request: RequestInput, settings: AuthSettings): Merchant {
  const merchant = ownerOf(endpoint, endpointId, settings.merchants);
  const control = request.params.filter(([n]) => n === 'control');
  if (control.length === 0) throw new MockError(400, 'CONTROL_MISSING', 'control: missing', 'control');
  if (control.length > 1 || !/^[0-9a-f]{40}$/.test(control[0]![1])) {
    throw new MockError(400, 'CONTROL_MALFORMED', 'control: must appear once, as 40 lowercase hex digits (SHA-1)', 'control');
  }
  // control-decimal-amount: where the formula has an amount, the key is hashed after the decimal amount.
  const decimal = settings.defect === 'control-decimal-amount' ? controlWithMistake('decimal-amount', endpoint.operation, endpointId, request, credentialsOf(merchant)) : undefined;
  const valid = decimal !== undefined ? constantTimeEqual(control[0]![1], decimal) : verdictOf(request, merchant, { control: control[0]![1] }, settings.defect).valid;
  if (!valid) {
    const leak = settings.defect === 'leak-control-key' ? ` (SHA-1 of the formula's fields, then ${merchant.merchantControlKey})` : '';
    throw new MockError(400, 'CONTROL_INVALID', `control: does not match ${endpoint.operation}'s formula${leak}`, 'control');
  }
  return merchant;
}

function authenticateOAuth(endpoint: Endpoint, endpointId: string, request: RequestInput, authorization: string | undefined, settings: AuthSettings): Merchant {
  if (authorization === undefined) throw new MockError(400, 'AUTH_HEADER_MISSING', 'authorization: an OAuth Authorization header is required', 'authorization');
  let parsed: ParsedAuthorization;
  try {
    parsed = parseAuthorizationHeader(authorization);
  } catch (err) {
    if (isPayconformError(err)) throw new MockError(400, 'AUTH_HEADER_MALFORMED', err.message, 'authorization');
    throw err;
  }
  for (const name of ['oauth_consumer_key', 'oauth_nonce', 'oauth_signature_method', 'oauth_timestamp', 'oauth_signature']) {
    if (getParam(parsed, name) === undefined) throw new MockError(400, 'AUTH_HEADER_MALFORMED', `authorization: ${name} is missing`, 'authorization');
  }
  // oauth_* repeated in the body (as in the spec's HMAC example) must say what the header says.
  for (const [name, value] of request.params) {
    if (name.startsWith('oauth_') && getParam(parsed, name) !== value) {
      throw new MockError(400, 'OAUTH_PARAM_CONFLICT', `${name}: in the form body it must repeat the Authorization header's value, or be left out`, name);
    }
  }
  const consumerKey = getParam(parsed, 'oauth_consumer_key')!;
  const merchant = settings.merchants.find((m) => m.login === consumerKey);
  if (!merchant) throw new MockError(400, 'CONSUMER_KEY_UNKNOWN', 'authorization: oauth_consumer_key is not a known merchant login', 'oauth_consumer_key');
  if (ownerOf(endpoint, endpointId, settings.merchants) !== merchant) {
    throw new MockError(400, 'ENDPOINT_UNKNOWN', `endpointId: ${endpointId} is not an endpoint of this merchant`, 'endpointId');
  }
  const required = endpoint.auth.kind === 'oauth-hmac-sha1' ? 'HMAC-SHA1' : 'RSA-SHA256';
  const method = getParam(parsed, 'oauth_signature_method');
  if (method === 'HMAC-SHA1' && required === 'RSA-SHA256' && settings.defect === 'accept-hmac-for-rsa') return acceptHmac(request, parsed, merchant);
  if (method !== required) throw new MockError(400, 'SIGNATURE_METHOD_WRONG', `authorization: ${endpoint.operation} requires oauth_signature_method ${required}`, 'oauth_signature_method');
  const version = getParam(parsed, 'oauth_version');
  if (version !== undefined && version !== '1.0') throw new MockError(400, 'OAUTH_VERSION_WRONG', 'authorization: oauth_version must be 1.0', 'oauth_version');
  const timestamp = Number(getParam(parsed, 'oauth_timestamp'));
  const now = Math.floor(settings.now() / 1000);
  if (settings.defect !== 'ignore-timestamp-window' && (!Number.isInteger(timestamp) || Math.abs(now - timestamp) > settings.windowSeconds)) {
    throw new MockError(400, 'TIMESTAMP_OUT_OF_WINDOW', `authorization: oauth_timestamp must be within ${settings.windowSeconds} s of the server's clock`, 'oauth_timestamp');
  }
  const verdict = verdictOf(request, merchant, { authorization }, settings.defect);
  if (!verdict.valid) throw new MockError(400, 'SIGNATURE_INVALID', `authorization: ${required} signature does not match the request`, 'oauth_signature');
  // Recorded only once the signature is valid, so nobody can burn another merchant's nonces.
  if (!settings.nonces.remember(consumerKey, getParam(parsed, 'oauth_nonce')!, timestamp, now) && settings.defect !== 'accept-replayed-nonce') {
    throw new MockError(400, 'NONCE_REPLAYED', 'authorization: oauth_nonce was already used within the timestamp window', 'oauth_nonce');
  }
  return merchant;
}

/** The `accept-hmac-for-rsa` defect: an HMAC-SHA1 signature checked as if the endpoint allowed it. */
function acceptHmac(request: RequestInput, parsed: ParsedAuthorization, merchant: Merchant): Merchant {
  const { baseString } = oauthBaseString({ method: 'POST', url: request.url, params: request.params }, parsed.pairs);
  const expected = hmacSha1Signature(hmacSigningKey(merchant.merchantControlKey), baseString);
  if (!constantTimeEqual(getParam(parsed, 'oauth_signature')!, expected)) throw new MockError(400, 'SIGNATURE_INVALID', `authorization: HMAC-SHA1 signature does not match the request`, 'oauth_signature');
  return merchant;
}
