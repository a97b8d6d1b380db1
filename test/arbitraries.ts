/**
 * Reusable fast-check arbitraries for the signing properties. Strings are well-formed UTF-16 (no lone
 * surrogates: those have no UTF-8 form and percentEncode rejects them on purpose) and lean towards the
 * characters canonicalisation gets wrong: the RFC 3986 reserved set, the five characters
 * encodeURIComponent keeps (! ' ( ) *), `%`, `+`, space, controls, and 2-, 3- and 4-byte UTF-8.
 */
import fc from 'fast-check';
import type { Pair } from '../src/signing/index.ts';
import { UNRESERVED } from './oracles.ts';

const fromCodePoint = (cp: number): string => String.fromCodePoint(cp);
const isSurrogate = (cp: number): boolean => cp >= 0xd800 && cp <= 0xdfff;

/** gen-delims, sub-delims, `%`, space and the characters encodeURIComponent keeps but RFC 3986 encodes. */
export const TRICKY_ASCII = [...":/?#[]@!$&'()*+,;=% \"<>\\^`{|}\t\n\r"];

/** One of the 66 unreserved characters. */
export const unreservedChar: fc.Arbitrary<string> = fc.constantFrom(...UNRESERVED);

/** One code point, any UTF-8 length, weighted towards ASCII and the tricky characters. */
export const codePoint: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: unreservedChar, weight: 4 },
  { arbitrary: fc.constantFrom(...TRICKY_ASCII), weight: 4 },
  { arbitrary: fc.integer({ min: 0, max: 0x7f }).map(fromCodePoint), weight: 2 }, // 1 byte, controls included
  { arbitrary: fc.integer({ min: 0x80, max: 0x7ff }).map(fromCodePoint), weight: 1 }, // 2 bytes
  { arbitrary: fc.integer({ min: 0x800, max: 0xffff }).filter((cp) => !isSurrogate(cp)).map(fromCodePoint), weight: 1 }, // 3 bytes
  { arbitrary: fc.integer({ min: 0x10000, max: 0x10ffff }).map(fromCodePoint), weight: 1 }, // 4 bytes (a surrogate pair)
  { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), weight: 1 },
);

/** Well-formed unicode strings: fast-check's full-range `binary` unit, or the weighted code points above. */
export function unicodeString(constraints: { minLength?: number; maxLength?: number } = {}): fc.Arbitrary<string> {
  const { minLength = 0, maxLength = 24 } = constraints;
  return fc.oneof(
    fc.string({ unit: 'binary', minLength, maxLength }),
    fc.string({ unit: codePoint, minLength, maxLength }),
  );
}

/** A form-body parameter name that never collides with the oauth_* protocol parameters. */
export const paramName: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: unreservedChar, minLength: 1, maxLength: 8 }),
  unicodeString({ maxLength: 8 }),
).filter((name) => !name.startsWith('oauth_'));

export const paramValue: fc.Arbitrary<string> = unicodeString({ maxLength: 16 });

export const pair: fc.Arbitrary<Pair> = fc.tuple(paramName, paramValue);

/** Ordered pairs; names may repeat. */
export function pairs(constraints: { minLength?: number; maxLength?: number } = {}): fc.Arbitrary<Pair[]> {
  return fc.array(pair, { minLength: constraints.minLength ?? 0, maxLength: constraints.maxLength ?? 8 });
}

/** Pairs whose names come from a small pool, so the same name appears several times. */
export const pairsWithRepeatedNames: fc.Arbitrary<Pair[]> = fc.array(
  fc.tuple(fc.constantFrom('a', 'A', 'a b', 'a%', 'é', 'amount', 'Z'), paramValue),
  { minLength: 2, maxLength: 12 },
);

/** Pairs with distinct names (for APIs that take an object). */
export function uniqueNamePairs(constraints: { minLength?: number; maxLength?: number } = {}): fc.Arbitrary<Pair[]> {
  return fc.uniqueArray(pair, { selector: (p) => p[0], minLength: constraints.minLength ?? 0, maxLength: constraints.maxLength ?? 8 });
}

/** An array together with a permutation of it. */
export function withShuffle<T>(arb: fc.Arbitrary<T[]>): fc.Arbitrary<[T[], T[]]> {
  return arb.chain((items) =>
    fc.tuple(fc.constant(items), fc.shuffledSubarray(items, { minLength: items.length, maxLength: items.length })),
  );
}

/** A path segment made of unreserved characters other than `.` (so no dot segments). */
export const pathSegment: fc.Arbitrary<string> = fc.string({
  unit: fc.constantFrom(...UNRESERVED.replace('.', '')),
  minLength: 1,
  maxLength: 8,
});

/** An absolute path such as `/a/b-c/~d`; `/` when there are no segments. */
export const urlPath: fc.Arbitrary<string> = fc.array(pathSegment, { maxLength: 4 }).map((s) => `/${s.join('/')}`);

/** A DNS host name in lowercase; labels start with a letter so WHATWG URL never reads an IPv4 number. */
export const hostName: fc.Arbitrary<string> = fc
  .array(fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/), { minLength: 1, maxLength: 3 })
  .map((labels) => labels.join('.'));

/** Randomly upper-cases some letters of `s`. */
export function randomCase(s: string): fc.Arbitrary<string> {
  return fc.array(fc.boolean(), { minLength: s.length, maxLength: s.length })
    .map((flags) => [...s].map((c, i) => (flags[i] ? c.toUpperCase() : c)).join(''));
}

/** A catalogue endpointId: positive int64 in decimal. */
export const endpointId: fc.Arbitrary<string> = fc.bigInt({ min: 1n, max: 2n ** 63n - 1n }).map(String);

/** Merchant login / consumer key: non-empty. */
export const login: fc.Arbitrary<string> = unicodeString({ minLength: 1, maxLength: 12 });

/** Secrets (control key, consumer secret): non-empty, any characters. */
export const secret: fc.Arbitrary<string> = unicodeString({ minLength: 1, maxLength: 40 });

export const nonce: fc.Arbitrary<string> = unicodeString({ minLength: 1, maxLength: 32 });

/** Whole seconds as digits (leading zeros allowed: the string is what gets signed). */
export const timestamp: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 0, max: 2 ** 32 }).map(String),
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 12 }),
);

export const digits = (minLength: number, maxLength: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength, maxLength });

/** A valid amount string: up to 15 integer digits and 0-2 decimals, at least one digit in all. */
export const amount: fc.Arbitrary<string> = fc
  .tuple(digits(0, 15), fc.option(digits(1, 2), { nil: undefined }))
  .filter(([whole, fraction]) => whole !== '' || fraction !== undefined)
  .map(([whole, fraction]) => (fraction === undefined ? whole : `${whole}.${fraction}`));

/** An oauth_* parameter name as the header grammar allows it. */
export const oauthName: fc.Arbitrary<string> = fc.stringMatching(/^[A-Za-z0-9_]{1,12}$/).map((s) => `oauth_${s}`);

/** A realm that buildAuthorizationHeader accepts: no quote, backslash or line break. */
export const realm: fc.Arbitrary<string> = unicodeString({ maxLength: 16 }).filter((r) => !/["\\\r\n]/.test(r));
