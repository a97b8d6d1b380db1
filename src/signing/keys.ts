/**
 * RSA key loading for RSA-SHA256 (api-spec.md: PEM, at least 2048 bits). Accepts PKCS#8 (PEM label
 * "PRIVATE KEY") and PKCS#1 (label "RSA PRIVATE KEY") private keys, SPKI and PKCS#1 public keys.
 * Parsed keys are cached by PEM text: parsing costs about 2.5× a signature. Errors describe the key
 * (type, size), never its content.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { fieldError } from '../errors.ts';

export const MIN_RSA_BITS = 2048;
const CACHE_LIMIT = 256;
const privateCache = new Map<string, KeyObject>();
const publicCache = new Map<string, KeyObject>();

function remember(cache: Map<string, KeyObject>, pem: string, key: KeyObject): KeyObject {
  // A full cache is not empty, so its first key, the oldest, is there to evict.
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(pem, key);
  return key;
}

function pemLabel(pem: string): string | null {
  return /-----BEGIN ([A-Z0-9 ]+)-----/.exec(pem)?.[1] ?? null;
}

function checkRsaStrength(key: KeyObject, field: string): KeyObject {
  if (key.asymmetricKeyType !== 'rsa') {
    // createPrivateKey/createPublicKey only return asymmetric keys, whose asymmetricKeyType is always set.
    throw fieldError('ERR_KEY', field, `must be an RSA key (got ${key.asymmetricKeyType} key)`);
  }
  const bits = modulusBits(key);
  if (bits < MIN_RSA_BITS) {
    throw fieldError('ERR_KEY', field, `RSA key is ${bits} bits; at least ${MIN_RSA_BITS} are required`);
  }
  return key;
}

/** Parses a private key PEM, rejecting public, encrypted, malformed, non-RSA and short keys. */
export function loadPrivateKey(pem: string, field = 'private key'): KeyObject {
  const cached = privateCache.get(pem);
  if (cached) return cached;
  const label = pemLabel(pem);
  if (label === null) throw fieldError('ERR_KEY', field, 'is not PEM (no -----BEGIN ...----- line)');
  if (label.includes('PUBLIC KEY'))
    throw fieldError('ERR_KEY', field, `is a public key (${label}); a private key is needed to sign`);
  if (label.includes('ENCRYPTED') || /Proc-Type:\s*4,ENCRYPTED/.test(pem)) {
    throw fieldError('ERR_KEY', field, 'is encrypted; decrypt it first (openssl pkey -in key.pem -out plain.pem)');
  }
  if (label !== 'PRIVATE KEY' && label !== 'RSA PRIVATE KEY') {
    throw fieldError(
      'ERR_KEY',
      field,
      `has PEM label "${label}"; expected PRIVATE KEY (PKCS#8) or RSA PRIVATE KEY (PKCS#1)`,
    );
  }
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: 'pem' });
  } catch (cause) {
    throw fieldError('ERR_KEY', field, `is a malformed ${label} PEM`, cause);
  }
  return remember(privateCache, pem, checkRsaStrength(key, field));
}

/** Parses a public key PEM (SPKI or PKCS#1), or derives the public key from a private key PEM. */
export function loadPublicKey(pem: string, field = 'public key'): KeyObject {
  const cached = publicCache.get(pem);
  if (cached) return cached;
  const label = pemLabel(pem);
  if (label === null) throw fieldError('ERR_KEY', field, 'is not PEM (no -----BEGIN ...----- line)');
  if (!label.includes('PUBLIC KEY')) return remember(publicCache, pem, createPublicKey(loadPrivateKey(pem, field)));
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pem, format: 'pem' });
  } catch (cause) {
    throw fieldError('ERR_KEY', field, `is a malformed ${label} PEM`, cause);
  }
  return remember(publicCache, pem, checkRsaStrength(key, field));
}

/** For a key from loadPrivateKey or loadPublicKey, which are RSA keys and so have a modulus length. */
export function describeKey(key: KeyObject): string {
  return `${modulusBits(key)}-bit RSA ${key.type} key`;
}

/** The modulus length node sets for every RSA key; its absence would be node's bug, not the user's input. */
function modulusBits(key: KeyObject): number {
  const bits = key.asymmetricKeyDetails?.modulusLength;
  if (bits === undefined) throw new Error(`internal: an RSA ${key.type} key without a modulus length`);
  return bits;
}

export const KEY_SIZES = [2048, 3072, 4096] as const;
export type KeySize = (typeof KEY_SIZES)[number];

/** A new RSA key pair: PKCS#8 private key and SPKI public key, both PEM. */
export function generateRsaKeyPair(bits: KeySize = 2048): { privateKeyPem: string; publicKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: bits,
    publicExponent: 0x10001,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return { privateKeyPem: privateKey, publicKeyPem: publicKey };
}
