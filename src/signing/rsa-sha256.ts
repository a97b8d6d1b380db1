/**
 * RSA-SHA256 (api-spec.md Scheme B: RSASSA-PKCS1-v1_5 with SHA-256 over the UTF-8 base string,
 * RFC 5849 §3.4.3 with SHA-256 in place of SHA-1), with node:crypto. The tests hold it to an
 * independent implementation, node-forge, byte for byte (test/oracles.ts).
 */
import { sign, verify, type KeyObject } from 'node:crypto';

// Buffer.from(string) is the string's UTF-8 bytes.
export function rsaSha256Signature(privateKey: KeyObject, baseString: string): string {
  return sign('sha256', Buffer.from(baseString), privateKey).toString('base64');
}

export function rsaSha256Verify(publicKey: KeyObject, baseString: string, signatureBase64: string): boolean {
  const signature = Buffer.from(signatureBase64, 'base64');
  // Buffer.from ignores bad characters; only canonical base64 counts as the signature sent.
  if (signature.toString('base64') !== signatureBase64) return false;
  return verify('sha256', Buffer.from(baseString), publicKey, signature);
}
