/**
 * The oauth_* protocol parameters, RFC 5849 §3.1 and api-spec.md Scheme B rule 2:
 * consumer key = merchant login, nonce, signature method, timestamp, version 1.0.
 */
import { randomBytes } from 'node:crypto';
import type { Pair } from './form-body.ts';

export type SignatureMethod = 'HMAC-SHA1' | 'RSA-SHA256';

export interface ProtocolParams {
  readonly consumerKey: string;
  readonly nonce: string;
  readonly timestamp: string;
  readonly signatureMethod: SignatureMethod;
  /** RFC 5849 allows omitting it; the spec requires `1.0`. */
  readonly version?: string;
  /** Only for the RFC 5849 examples: the spec's API uses no token. */
  readonly token?: string;
}

/** The protocol parameters as pairs, oauth_signature not included. */
export function protocolPairs(p: ProtocolParams): Pair[] {
  const pairs: Pair[] = [
    ['oauth_consumer_key', p.consumerKey],
    ['oauth_nonce', p.nonce],
    ['oauth_signature_method', p.signatureMethod],
    ['oauth_timestamp', p.timestamp],
  ];
  if (p.token !== undefined) pairs.push(['oauth_token', p.token]);
  if (p.version !== undefined) pairs.push(['oauth_version', p.version]);
  return pairs;
}

/** 128 random bits as 32 hex digits: unique per request and nothing to percent-encode. */
export function newNonce(): string {
  return randomBytes(16).toString('hex');
}

export function currentTimestamp(now = Date.now()): string {
  return String(Math.floor(now / 1000));
}
