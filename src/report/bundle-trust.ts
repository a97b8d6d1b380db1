/**
 * Whom `bundle verify` believes. A signature proves only that someone holding a key signed; the key
 * in the bundle's own header proves nothing, since whoever edits a bundle can re-sign it with a key
 * of their own. So, as minisign does (it verifies only against a public key the user names), a
 * bundle's origin is accepted only when the key that signed it is one the user named: a PEM public
 * key (--public-key) or a line of a trusted-keys file, which holds PEM public keys and fingerprints
 * (the SHA-256 that `payconform keygen` prints), with `#` comments.
 */
import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import { fieldError } from '../errors.ts';

export interface TrustedKeys {
  /** Keys given whole: a signature is checked with the user's own copy. */
  readonly keys: readonly KeyObject[];
  /** Fingerprints of every trusted key, those given only as a fingerprint included. */
  readonly fingerprints: ReadonlySet<string>;
}

// Here, not beside the signature: trust is a set of fingerprints, and the signer only names its own.
/** The key's id as keygen prints it: SHA-256 of the public key's DER (SPKI), base64. */
export function keyFingerprint(key: KeyObject): string {
  const der = (key.type === 'public' ? key : createPublicKey(key)).export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('base64');
}

export const NO_TRUSTED_KEYS: TrustedKeys = { keys: [], fingerprints: new Set() };

/** SHA-256 of a DER public key in base64: 43 characters and one `=`. */
const FINGERPRINT = /^[A-Za-z0-9+/]{43}=$/;
const PEM_BLOCK = /-----BEGIN ([A-Z ]+)-----[\s\S]*?-----END \1-----/g;

/** A public key from PEM text (a private key's public half too). */
export function publicKeyOf(pem: string, field: string): KeyObject {
  try {
    return createPublicKey(pem);
  } catch {
    throw fieldError('ERR_BUNDLE', field, 'is not a PEM public (or private) key');
  }
}

/** The keys of a trusted-keys file: PEM blocks, fingerprint lines, comments; anything else is a mistake. */
export function parseTrustedKeys(text: string, field: string): TrustedKeys {
  const keys = [...text.matchAll(PEM_BLOCK)].map((m) => publicKeyOf(m[0], field));
  const fingerprints = new Set(keys.map(keyFingerprint));
  text
    .replace(PEM_BLOCK, (block) => '\n'.repeat(block.split('\n').length - 1))
    .split('\n')
    .forEach((raw, i) => {
      const line = raw.trim();
      if (line === '' || line.startsWith('#')) return;
      const fingerprint = line.replace(/^SHA-256\s+/i, '');
      if (!FINGERPRINT.test(fingerprint))
        throw fieldError(
          'ERR_BUNDLE',
          field,
          `line ${i + 1} is neither a PEM public key, a SHA-256 fingerprint (as keygen prints it) nor a # comment`,
        );
      fingerprints.add(fingerprint);
    });
  return { keys, fingerprints };
}

/** One key the user gave whole. */
export function trustKey(key: KeyObject): TrustedKeys {
  return { keys: [key], fingerprints: new Set([keyFingerprint(key)]) };
}

/** One set of trusted keys from several sources. */
export function trustAll(sets: readonly TrustedKeys[]): TrustedKeys {
  return { keys: sets.flatMap((s) => s.keys), fingerprints: new Set(sets.flatMap((s) => [...s.fingerprints])) };
}
