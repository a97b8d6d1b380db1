/**
 * The values a vector's request gives under the reference signer. Control vectors go through the
 * catalogue row of their operation; OAuth vectors may also be generic RFC 5849 requests (anchors)
 * whose URL is no catalogue endpoint.
 */
import { endpointByOperation, findPath, matchPath, type SigningEndpoint } from '../catalogue/index.ts';
import { computeControl, type ControlComputation } from '../signing/control.ts';
import { describeKey, loadPrivateKey, loadPublicKey } from '../signing/keys.ts';
import { normalizeUrl } from '../signing/normalize-url.ts';
import { signOAuth, type OAuthKey } from '../signing/oauth.ts';
import { rsaSha256Signature, rsaSha256Verify } from '../signing/rsa-sha256.ts';
import { requireCredential } from '../signing/request.ts';
import { callbackControl } from '../signing/callback.ts';
import { explain, explainCallback, type Explanation } from '../signing/explain.ts';
import { expectedValues, type ExpectedValues, type SignResult } from '../signing/sign.ts';
import type { Vector } from './types.ts';

/**
 * A stand-in catalogue row for an OAuth vector whose URL is not a catalogue endpoint, with the API
 * version that signs with its scheme (RSA-SHA256: v4, A-5; HMAC-SHA1: the v2 payout).
 */
function genericEndpoint(pathname: string, scheme: 'oauth-hmac-sha1' | 'oauth-rsa-sha256'): SigningEndpoint {
  return {
    operation: 'RFC5849',
    path: pathname,
    requestSchema: null,
    responseSchema: null,
    auth: { kind: scheme },
    endpointGroup: { accepted: false, page: null },
    source: 'signing-example',
    version: scheme === 'oauth-rsa-sha256' ? 'v4' : 'v2',
  };
}

/** A callback vector's control; the loader refuses a callback without the key, so '' is never signed with. */
const controlOfCallback = (v: Vector): ControlComputation =>
  callbackControl(v.request.params, v.credentials.merchantControlKey ?? '');

/** The vector format's expected values of a vector: a callback's control, or its request's signature. */
export function computeExpected(v: Vector): ExpectedValues {
  if (v.message === 'callback') {
    const { controlInput, control } = controlOfCallback(v);
    return { controlInput, control };
  }
  return expectedValues(computeVector(v));
}

/** Every step of a vector's signature (vectors explain, partner packs). */
export function explainVector(v: Vector): Explanation {
  return v.message === 'callback' ? explainCallback(controlOfCallback(v)) : explain(computeVector(v));
}

export function computeVector(v: Vector): SignResult {
  const pathname = normalizeUrl(v.request.url).pathname;
  const c = v.credentials;
  if (v.scheme === 'control') {
    const endpoint = endpointByOperation(v.operation ?? '');
    const { endpointId, prefix } = matchPath(pathname);
    if (endpoint.auth.kind !== 'control') throw new Error(`${endpoint.operation} is not a control endpoint`);
    const ctx = { operation: endpoint.operation, endpointId, login: c.login, params: v.request.params };
    return {
      endpoint,
      endpointId,
      prefix,
      scheme: 'control',
      control: computeControl(endpoint.auth.fields, ctx, c.merchantControlKey ?? ''),
    };
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
    const pem = requireCredential(
      c.privateKeyPem,
      'credentials.privateKeyPem',
      'an RSA-SHA256 vector is signed with ' + 'its private key',
    );
    const privateKey = loadPrivateKey(pem);
    key = { method: 'RSA-SHA256', privateKey };
    keyDescription = `<PRIVATE_KEY> (${describeKey(privateKey)})`;
    // PKCS#1 v1.5 is deterministic: an expected signature that verifies is the one signing would
    // give, at 1/20 of the cost (vectors check).
    const hint = v.expected.signature;
    signBaseString = (b) =>
      // Stryker disable next-line ConditionalExpression: a shortcut, same result (docs/mutation.md)
      hint !== undefined && rsaSha256Verify(loadPublicKey(pem), b, hint) ? hint : rsaSha256Signature(privateKey, b);
  }
  const computed = signOAuth(request, protocol, key, oauth.realm, signBaseString);
  return {
    endpoint,
    endpointId: match?.endpointId ?? '',
    prefix: match?.prefix ?? '',
    scheme: v.scheme,
    oauth: computed,
    keyDescription,
  };
}
