/**
 * The browser's node:crypto: the few functions the signing code imports from it (hash, createHash, createHmac,
 * sign, verify, publicDecrypt, constants, createPrivateKey, createPublicKey, timingSafeEqual, randomBytes),
 * synchronous as the signing code is. The page's bundle puts this module where `node:crypto` is imported
 * (scripts/build-debugger.mjs), so the page runs the CLI's own signing and diagnosis code: no second signer.
 * Hashes and HMAC are @noble/hashes; RSA keys and PKCS#1 v1.5 are node-forge. test/debugger/browser-crypto.test.ts
 * holds it to node:crypto and to published vectors, and to the list of names src/ imports from node:crypto.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { md5, sha1 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { Buffer } from 'buffer';
import type forgeTypes from 'node-forge';
import forgeRuntime from 'node-forge/lib/forge.js';
import 'node-forge/lib/asn1.js';
import 'node-forge/lib/pem.js';
import 'node-forge/lib/rsa.js';

const forge = forgeRuntime as typeof forgeTypes;
/** forge's raw RSA operations (no padding added or removed), which its type declarations leave out. */
interface RawRsa {
  encrypt(block: string, key: forgeTypes.pki.rsa.PrivateKey, padding: false): string;
  decrypt(block: string, key: forgeTypes.pki.rsa.PublicKey, publicOperation: true, padding: false): string;
}
const raw = forge.pki.rsa as unknown as RawRsa;
type Hash = 'sha1' | 'sha256';
type Encoding = 'hex' | 'base64';
// MD5 for diagnose's md5-digest mistake only: no signature of the API uses it.
const HASHES = { sha1, sha256, md5 } as const;

/** RFC 8017 §9.2, note 1: the DER DigestInfo before the digest, for the hashes RSA-SHA256 and its mistakes use. */
const DIGEST_INFO_PREFIX: Record<Hash, string> = {
  sha1: '3021300906052b0e03021a05000414',
  sha256: '3031300d060960864801650304020105000420',
};

function hashOf(name: string): (typeof HASHES)[keyof typeof HASHES] {
  if (name !== 'sha1' && name !== 'sha256' && name !== 'md5') throw new Error(`the page's crypto has no hash ${name}`);
  return HASHES[name];
}

const bytes = (data: string | Uint8Array): Uint8Array =>
  typeof data === 'string' ? new TextEncoder().encode(data) : data;

class Digest {
  private readonly parts: Uint8Array[] = [];
  constructor(private readonly finish: (message: Uint8Array) => Uint8Array) {}
  update(data: string | Uint8Array): this {
    this.parts.push(bytes(data));
    return this;
  }
  digest(): Buffer;
  digest(encoding: Encoding): string;
  digest(encoding?: Encoding): Buffer | string {
    const whole = Buffer.concat(this.parts.map((p) => Buffer.from(p)));
    const out = Buffer.from(this.finish(whole));
    return encoding === undefined ? out : out.toString(encoding);
  }
}

/** node's one-shot digest (Node 20.12+), which the control's SHA-1 takes where it exists. */
export function hash(name: string, data: string | Uint8Array, encoding: Encoding = 'hex'): string {
  return createHash(name).update(data).digest(encoding);
}

export function createHash(name: string): Digest {
  const hash = hashOf(name);
  return new Digest((m) => hash(m));
}

export function createHmac(name: string, key: string | Uint8Array): Digest {
  const hash = hashOf(name);
  return new Digest((m) => hmac(hash, bytes(key), m));
}

/** The shape of node's KeyObject that keys.ts reads: type, key type, modulus length. */
export class KeyObject {
  readonly asymmetricKeyType = 'rsa';
  readonly asymmetricKeyDetails: { readonly modulusLength: number };
  constructor(
    readonly type: 'private' | 'public',
    readonly rsa: forgeTypes.pki.rsa.PrivateKey | forgeTypes.pki.rsa.PublicKey,
  ) {
    this.asymmetricKeyDetails = { modulusLength: rsa.n.bitLength() };
  }
}

function derOf(pem: string): forgeTypes.asn1.Asn1 {
  const [block] = forge.pem.decode(pem);
  if (block === undefined) throw new Error('no PEM block');
  return forge.asn1.fromDer(block.body);
}

export function createPrivateKey(input: { key: string; format: 'pem' }): KeyObject {
  return new KeyObject('private', forge.pki.privateKeyFromAsn1(derOf(input.key)));
}

export function createPublicKey(input: { key: string; format: 'pem' } | KeyObject): KeyObject {
  if (input instanceof KeyObject) return new KeyObject('public', forge.pki.setRsaPublicKey(input.rsa.n, input.rsa.e));
  return new KeyObject('public', forge.pki.publicKeyFromAsn1(derOf(input.key)));
}

/** EMSA-PKCS1-v1_5 (RFC 8017 §9.2) of a message for a key of `k` bytes, as a binary string. */
function encodedMessage(hash: Hash, data: Uint8Array, k: number): string {
  const t = Buffer.from(DIGEST_INFO_PREFIX[hash] + Buffer.from(hashOf(hash)(data)).toString('hex'), 'hex');
  return `\x00\x01${'\xff'.repeat(k - t.length - 3)}\x00${t.toString('binary')}`;
}

const keyBytes = (key: KeyObject): number => Math.ceil(key.asymmetricKeyDetails.modulusLength / 8);

export function sign(hash: string, data: Uint8Array, key: KeyObject): Buffer {
  const em = encodedMessage(hash as Hash, data, keyBytes(key));
  // The padding is already in `em`: `false` is forge's raw private-key operation, adding none of its own.
  const rsa = key.rsa as forgeTypes.pki.rsa.PrivateKey;
  return Buffer.from(raw.encrypt(em, rsa, false), 'binary');
}

export function verify(hash: string, data: Uint8Array, key: KeyObject, signature: Uint8Array): boolean {
  const k = keyBytes(key);
  if (signature.length !== k) return false;
  const expected = encodedMessage(hash as Hash, data, k);
  try {
    // The public-key operation, unpadded; the whole block is compared, as a strict verifier does.
    // A private key holds the public one (n, e), and the public operation uses nothing else.
    const rsa = key.rsa as forgeTypes.pki.rsa.PublicKey;
    const block = raw.decrypt(Buffer.from(signature).toString('binary'), rsa, true, false);
    return block === expected;
  } catch {
    return false;
  }
}

/** The one padding the page knows: PKCS#1 v1.5 (node's value). */
export const constants = { RSA_PKCS1_PADDING: 1 } as const;

/**
 * The signed block a PKCS#1 v1.5 signature holds (RFC 8017 §8.2.2: the public operation, then the type-1 padding
 * 00 01 FF…FF 00 removed), as node's publicDecrypt with RSA_PKCS1_PADDING gives it; throws where there is none.
 */
export function publicDecrypt(options: { key: KeyObject; padding: number }, data: Uint8Array): Buffer {
  if (options.padding !== constants.RSA_PKCS1_PADDING) throw new Error("the page's crypto pads PKCS#1 v1.5 only");
  const k = keyBytes(options.key);
  if (data.length !== k) throw new Error('publicDecrypt: the data is not as long as the key');
  const rsa = options.key.rsa as forgeTypes.pki.rsa.PublicKey;
  const block = raw.decrypt(Buffer.from(data).toString('binary'), rsa, true, false);
  const end = block.indexOf('\x00', 2);
  if (!block.startsWith('\x00\x01') || end < 10 || !/^\xff*$/.test(block.slice(2, end)))
    throw new Error('publicDecrypt: no PKCS#1 v1.5 signature block');
  return Buffer.from(block.slice(end + 1), 'binary');
}

export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) throw new RangeError('Input buffers must have the same byte length');
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

export function randomBytes(size: number): Buffer {
  return Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(size)));
}

/** Key generation is the CLI's (`payconform keygen`); the page never makes keys. */
export function generateKeyPairSync(): never {
  throw new Error('keygen: not in the debugger page; run payconform keygen');
}
