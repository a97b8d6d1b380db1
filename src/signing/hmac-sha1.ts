/**
 * HMAC-SHA1, RFC 5849 §3.4.2: key = enc(consumer secret) & enc(token secret). The spec's payout
 * uses the merchant control key as consumer secret and no token, so the key is `enc(key)&`.
 */
import { createHmac } from 'node:crypto';
import { percentEncode } from './percent-encode.ts';

export function hmacSigningKey(consumerSecret: string, tokenSecret = ''): string {
  return `${percentEncode(consumerSecret, 'control key')}&${percentEncode(tokenSecret, 'token secret')}`;
}

/** Base64 HMAC-SHA1 of the base string (§3.4.2, "digest" then base64). */
export function hmacSha1Signature(signingKey: string, baseString: string): string {
  return createHmac('sha1', signingKey).update(baseString).digest('base64'); // a string is hashed as UTF-8
}
