/**
 * The values a vector's request gives under the reference signer. Control vectors go through the
 * catalogue row of their operation; OAuth vectors may also be generic RFC 5849 requests (anchors)
 * whose URL is no catalogue endpoint.
 */
import { endpointByOperation, findPath, matchPath, type SigningEndpoint } from '../catalogue/index.ts';
import { computeControl } from '../signing/control.ts';
import { describeKey, loadPrivateKey, loadPublicKey } from '../signing/keys.ts';
import { normalizeUrl } from '../signing/normalize-url.ts';
import { signOAuth, type OAuthKey } from '../signing/oauth.ts';
import { rsaSha256Signature, rsaSha256Verify } from '../signing/rsa-sha256.ts';
import type { SignResult } from '../signing/sign.ts';
import type { Vector } from './types.ts';

/** A stand-in catalogue row for an OAuth vector whose URL is not a catalogue endpoint. */
function genericEndpoint(pathname: string, scheme: 'oauth-hmac-sha1' | 'oauth-rsa-sha256'): SigningEndpoint {
  return {
    operation: 'RFC5849', path: pathname, requestSchema: null, responseSchema: null,
    auth: { kind: scheme }, acceptsEndpointGroup: false, source: 'signing-example',
    // Stryker disable next-line StringLiteral: the Endpoint type needs a version; nothing reads it for a vector
    version: 'v2',
  };
}

export interface ComputeOptions {
  /**
   * An RSA signature the vector expects. PKCS#1 v1.5 is deterministic, so if it verifies with the
   * key's public half it is exactly the signature signing would give: verifying costs ~1/20 of signing.
   */
  readonly rsaSignatureHint?: string | undefined;
}

export function computeVector(v: Vector, options: ComputeOptions = {}): SignResult {
  const pathname = normalizeUrl(v.request.url).pathname;
  const c = v.credentials;
  if (v.scheme === 'control') {
    const endpoint = endpointByOperation(v.operation ?? '');
    const { endpointId, prefix } = matchPath(pathname);
    if (endpoint.auth.kind !== 'control') throw new Error(`${endpoint.operation} is not a control endpoint`);
    const ctx = { operation: endpoint.operation, endpointId, login: c.login, params: v.request.params };
    return { endpoint, endpointId, prefix, scheme: 'control', control: computeControl(endpoint.auth.fields, ctx, c.merchantControlKey ?? '') };
  }
  const match = findPath(pathname);
  const endpoint = match?.endpoint ?? genericEndpoint(pathname, v.scheme);
  const oauth = v.oauth ?? { nonce: '', timestamp: '' };
  const protocol = {
    consumerKey: c.login ?? '',
    nonce: oauth.nonce,
    timestamp: oauth.timestamp,
    version: oauth.version === null ? undefined : (oauth.version ?? '1.0'),
    token: c.token,
  };
  const request = { method: v.request.method, url: v.request.url, params: v.request.params };
  let key: OAuthKey;
  let keyDescription: string;
  let signBaseString: ((b: string) => string) | undefined;
  if (v.scheme === 'oauth-hmac-sha1') {
    key = { method: 'HMAC-SHA1', consumerSecret: c.merchantControlKey ?? '', tokenSecret: c.tokenSecret };
    keyDescription = `enc(<merchant_control_key>)&${c.tokenSecret === undefined ? '' : '<enc(token_secret)>'}`;
  } else {
    // Stryker disable next-line StringLiteral: any non-PEM stand-in for a missing key gives the same ERR_KEY error
    const privateKey = loadPrivateKey(c.privateKeyPem ?? '');
    key = { method: 'RSA-SHA256', privateKey };
    keyDescription = `<PRIVATE_KEY> (${describeKey(privateKey)})`;
    const hint = options.rsaSignatureHint;
    // Stryker disable next-line ConditionalExpression,BlockStatement: speed only; without the hint the same (deterministic) signature is made by signing
    if (hint !== undefined) {
      // Stryker disable next-line StringLiteral: unreachable fallback, loadPrivateKey above has already rejected a missing key
      const publicKey = loadPublicKey(c.privateKeyPem ?? '');
      signBaseString = (b) => (rsaSha256Verify(publicKey, b, hint) ? hint : rsaSha256Signature(privateKey, b));
    }
  }
  const computed = signOAuth(request, protocol, key, oauth.realm, signBaseString);
  return {
    endpoint, endpointId: match?.endpointId ?? '', prefix: match?.prefix ?? '',
    scheme: v.scheme, oauth: computed, keyDescription,
  };
}
