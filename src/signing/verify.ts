/**
 * The comparison at the heart of verification: does the control or OAuth signature sent match the
 * one recomputed from the request? Secrets are compared in constant time (crypto.timingSafeEqual);
 * lengths are not secret and are compared first. What was sent must already have its shape judged:
 * the rule book does that (rules/control.ts, rules/oauth.ts), and `payconform verify` runs the book
 * (rules/verify.ts); this module only recomputes and compares.
 */
import { timingSafeEqual } from 'node:crypto';
import { getParam, type ParsedAuthorization } from './authorization-header.ts';
import { CONTROL_KEY_PLACEHOLDER, controlConcatenation, controlOf } from './control.ts';
import { hmacSha1Signature, hmacSigningKey } from './hmac-sha1.ts';
import { loadPublicKey } from './keys.ts';
import { oauthBaseString } from './oauth.ts';
import { endpointOf, HOW, requireCredential, type Credentials, type KnownFacts, type RequestInput } from './request.ts';
import { rsaSha256Verify } from './rsa-sha256.ts';

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

/** What `verify` was given besides the request: a control value or an Authorization header. */
export interface GivenSignature {
  /** The control value sent; when absent, the request's `control` form field. */
  readonly control?: string | undefined;
  readonly authorization?: string | undefined;
}

/** A signature as sent, its shape already judged: one control value, or a parsed header and its oauth_signature. */
export type SentSignature =
  { readonly control: string } | { readonly header: ParsedAuthorization; readonly signature: string };

/** Whether the sent value matches, and what it covers (safe to print: the key is a placeholder). */
export interface Comparison {
  readonly valid: boolean;
  readonly controlInput?: string;
  readonly baseString?: string;
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a); // UTF-8, Buffer.from's default
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Recomputes the signature of the request's endpoint and compares it with the one sent. An OAuth
 * signature is checked under the method the endpoint requires: one made with another method never matches.
 */
export function compareSignature(
  request: RequestInput,
  credentials: Credentials,
  sent: SentSignature,
  known: KnownFacts = {},
): Comparison {
  const { endpoint, endpointId } = endpointOf(request, known);
  const { auth } = endpoint;
  if (auth.kind === 'control' && 'control' in sent) {
    const controlKey = requireCredential(credentials.controlKey, 'control key', HOW.controlKey);
    const { amountCents } = known;
    const ctx = {
      operation: endpoint.operation,
      endpointId,
      login: credentials.login,
      params: request.params,
      amountCents,
    };
    const concatenation = controlConcatenation(auth.fields, ctx);
    return {
      valid: constantTimeEqual(sent.control, controlOf(concatenation, controlKey)),
      controlInput: concatenation + CONTROL_KEY_PLACEHOLDER,
    };
  }
  if (!('header' in sent) || (auth.kind !== 'oauth-hmac-sha1' && auth.kind !== 'oauth-rsa-sha256'))
    return { valid: false };
  const required = auth.kind === 'oauth-hmac-sha1' ? 'HMAC-SHA1' : 'RSA-SHA256';
  const { baseString } = oauthBaseString(
    { method: request.method ?? 'POST', url: request.url, params: request.params },
    sent.header.pairs,
  );
  if (getParam(sent.header, 'oauth_signature_method') !== required) return { valid: false, baseString };
  if (required === 'HMAC-SHA1') {
    const secret = requireCredential(credentials.controlKey, 'control key', HOW.controlKey);
    const expected = hmacSha1Signature(hmacSigningKey(secret, credentials.tokenSecret), baseString);
    return { valid: constantTimeEqual(sent.signature, expected), baseString };
  }
  const pem = credentials.publicKeyPem ?? requireCredential(credentials.privateKeyPem, 'public key', HOW.publicKey);
  return { valid: rsaSha256Verify(loadPublicKey(pem), baseString, sent.signature), baseString };
}
