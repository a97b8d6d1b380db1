/**
 * RSA-SHA256 (api-spec.md Scheme B: RSASSA-PKCS1-v1_5 with SHA-256 over the UTF-8 base string,
 * RFC 5849 §3.4.3 with SHA-256 in place of SHA-1). node:crypto is the fast path; node-forge is an
 * independent reference implementation that the tests hold it to, byte for byte.
 */
import { sign, verify, type KeyObject } from 'node:crypto';
import { createRequire } from 'node:module';
import type Forge from 'node-forge';

// node-forge takes ~100 ms to load; only the cross-checks need it, so it loads on first use.
let forge: typeof Forge | undefined;
const loadForge = (): typeof Forge => (forge ??= createRequire(import.meta.url)('node-forge') as typeof Forge);

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

/** Reference implementation with node-forge (about 50× slower): for cross-checks, never hot paths. */
// Buffer.from(string) is the string's UTF-8 bytes.
export function rsaSha256SignatureForge(privateKeyPem: string, baseString: string): string {
  const f = loadForge();
  const key = f.pki.privateKeyFromPem(privateKeyPem);
  const digest = f.md.sha256.create();
  digest.update(baseString, 'utf8');
  return f.util.encode64(key.sign(digest));
}
