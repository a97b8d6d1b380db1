/**
 * Independent reference computations for the property tests. None of these calls into src/: they
 * work on UTF-8 bytes (Buffer) and node:crypto directly, or on node-forge for RSA, so a property
 * comparing src/ against one of them is never the same code checked against itself.
 */
import { createHash, createHmac } from 'node:crypto';
import { createRequire } from 'node:module';
import type Forge from 'node-forge';

/** RFC 3986 §2.3 unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~", spelled out byte by byte. */
const UNRESERVED_BYTES: ReadonlySet<number> = new Set([
  ...range(0x41, 0x5a), // A-Z
  ...range(0x61, 0x7a), // a-z
  ...range(0x30, 0x39), // 0-9
  0x2d, // -
  0x2e, // .
  0x5f, // _
  0x7e, // ~
]);

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/** The 66 unreserved characters as a string. */
export const UNRESERVED = String.fromCharCode(...UNRESERVED_BYTES);

export function isUnreservedChar(c: string): boolean {
  return c.length === 1 && UNRESERVED_BYTES.has(c.charCodeAt(0));
}

/** `%XX` (uppercase hex) for one byte. */
export function pctByte(byte: number): string {
  return `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
}

/** RFC 3986 / RFC 5849 §3.6 encoding computed from the UTF-8 bytes, without encodeURIComponent. */
export function rfc3986(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    out += UNRESERVED_BYTES.has(byte) ? String.fromCharCode(byte) : pctByte(byte);
  }
  return out;
}

/** Byte order of the UTF-8 forms. */
export function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** RFC 5849 §3.4.1.3.2: encode, sort by name then value in byte order, join. */
export function normalizedParamsOracle(pairs: readonly (readonly [string, string])[]): string {
  return pairs
    .map(([n, v]) => [rfc3986(n), rfc3986(v)] as const)
    .sort((a, b) => compareBytes(a[0], b[0]) || compareBytes(a[1], b[1]))
    .map(([n, v]) => `${n}=${v}`)
    .join('&');
}

/** RFC 5849 §3.4.1.1 for an already normalised URL. */
export function baseStringOracle(
  method: string,
  normalizedUrl: string,
  pairs: readonly (readonly [string, string])[],
): string {
  return [method.toUpperCase(), rfc3986(normalizedUrl), rfc3986(normalizedParamsOracle(pairs))].join('&');
}

/** RFC 5849 §3.4.2 with node:crypto directly: key = enc(consumer secret) & enc(token secret). */
export function hmacSha1Oracle(consumerSecret: string, baseString: string, tokenSecret = ''): string {
  const key = `${rfc3986(consumerSecret)}&${rfc3986(tokenSecret)}`;
  return createHmac('sha1', key).update(Buffer.from(baseString, 'utf8')).digest('base64');
}

/** The base64 `signature` with one bit flipped (bit index taken modulo the signature's length). */
export function flipBit(signatureBase64: string, bit: number): string {
  const bytes = Buffer.from(signatureBase64, 'base64');
  const at = bit % (bytes.length * 8);
  bytes[at >> 3] = bytes[at >> 3]! ^ (1 << (at & 7));
  return bytes.toString('base64');
}

/** Cents from digit strings by Horner's rule over every digit: whole digits, then exactly two decimals. */
export function centsOracle(whole: string, fraction: string): string {
  let cents = 0n;
  for (const d of whole + fraction + '0'.repeat(2 - fraction.length))
    cents = cents * 10n + BigInt(d.charCodeAt(0) - 48);
  return cents.toString();
}

/** Cents of a valid amount text such as `12.5`, `.07` or `300`. */
export function centsOfText(amount: string): string {
  const [whole = '', fraction = ''] = amount.split('.');
  return centsOracle(whole, fraction);
}

/** api-spec.md Scheme A with node:crypto directly: lowercase hex SHA-1 of the UTF-8 concatenation, key last. */
export function controlOracle(values: readonly string[], controlKey: string): string {
  return createHash('sha1')
    .update(Buffer.from(values.join('') + controlKey, 'utf8'))
    .digest('hex');
}

// node-forge takes ~100 ms to load; only the RSA cross-checks need it, so it loads on first use.
let forge: typeof Forge | undefined;
const loadForge = (): typeof Forge => (forge ??= createRequire(import.meta.url)('node-forge') as typeof Forge);

/**
 * RSA-SHA256 (RSASSA-PKCS1-v1_5 over the UTF-8 base string) with node-forge, an implementation
 * independent of node:crypto; about 50× slower, so for cross-checks and the benchmark's scale only.
 */
export function rsaSha256SignatureForge(privateKeyPem: string, baseString: string): string {
  const f = loadForge();
  const key = f.pki.privateKeyFromPem(privateKeyPem);
  const digest = f.md.sha256.create();
  digest.update(baseString, 'utf8');
  return f.util.encode64(key.sign(digest));
}
