/**
 * The steps of the signature the spec gives for a pasted request, with the nonce, timestamp and realm the
 * partner sent: `explain`'s steps. RSA-SHA256 with only a public key cannot sign, so its steps stop at the
 * base string and show the signature sent, which the diagnosis verifies.
 */
import { fieldError } from '../errors.ts';
import { getParam, parseAuthorizationHeader, type ParsedAuthorization } from '../signing/authorization-header.ts';
import { callbackControl } from '../signing/callback.ts';
import { explain, explainCallback, type Explanation } from '../signing/explain.ts';
import { describeKey, loadPublicKey } from '../signing/keys.ts';
import { signOAuth } from '../signing/oauth.ts';
import { HOW, requireCredential, resolveEndpoint, type Credentials } from '../signing/request.ts';
import { signableScheme, signRequest } from '../signing/sign.ts';
import type { ReadRequest } from './request-text.ts';

export interface SentOAuth {
  readonly header: ParsedAuthorization;
  readonly nonce: string;
  readonly timestamp: string;
  readonly realm: string | undefined;
}

/** The partner's Authorization header, and the nonce, timestamp and realm the correct signature reuses. */
export function sentOAuth(read: ReadRequest): SentOAuth {
  if (read.authorization === undefined)
    throw fieldError('ERR_AUTH_HEADER', 'authorization', 'missing: no Authorization header to take the nonce from');
  const header = parseAuthorizationHeader(read.authorization);
  return {
    header,
    nonce: getParam(header, 'oauth_nonce') ?? '',
    timestamp: getParam(header, 'oauth_timestamp') ?? '',
    realm: header.realm,
  };
}

export function explainCase(read: ReadRequest, credentials: Credentials, callback: boolean): Explanation {
  const { request } = read;
  if (callback) {
    const key = requireCredential(credentials.controlKey, 'control key', HOW.controlKey);
    return explainCallback(callbackControl(request.params, key));
  }
  const match = resolveEndpoint(request.url);
  const scheme = signableScheme(match.endpoint);
  if (scheme === 'control') return explain(signRequest(request, credentials));
  const { header, ...sent } = sentOAuth(read);
  if (scheme === 'oauth-hmac-sha1' || credentials.privateKeyPem !== undefined)
    return explain(signRequest(request, credentials, sent));
  const publicKey = loadPublicKey(requireCredential(credentials.publicKeyPem, 'public key', HOW.publicKey));
  const protocol = {
    consumerKey: requireCredential(credentials.login, 'login', HOW.login),
    nonce: sent.nonce,
    timestamp: sent.timestamp,
    version: '1.0',
  };
  // signOAuth's seam hands back the signature sent: the public key only ever verifies it (in diagnose).
  const oauth = signOAuth(
    { method: request.method ?? 'POST', url: request.url, params: request.params },
    protocol,
    { method: 'RSA-SHA256', privateKey: publicKey },
    sent.realm,
    () => getParam(header, 'oauth_signature') ?? '',
  );
  const explanation = explain({
    endpoint: match.endpoint,
    endpointId: match.endpointId,
    prefix: match.prefix,
    scheme: 'oauth-rsa-sha256',
    oauth,
    keyDescription: `public key (${describeKey(publicKey)}): verifies the signature sent; the private key makes one`,
  });
  const steps = explanation.steps.map((s) =>
    s.step === 'signature' ? { ...s, title: 'Signature sent, Base64 (verified with the public key)' } : s,
  );
  return { ...explanation, steps };
}
