/**
 * Reusable fast-check arbitraries for the signing properties. Strings are well-formed UTF-16 (no lone
 * surrogates: those have no UTF-8 form and percentEncode rejects them on purpose) and lean towards the
 * characters canonicalisation gets wrong: the RFC 3986 reserved set, the five characters
 * encodeURIComponent keeps (! ' ( ) *), `%`, `+`, space, controls, and 2-, 3- and 4-byte UTF-8.
 *
 * Cost note: fc.string({ unit: 'binary' }) spends about 1.1 s per process on its first use (fast-check
 * builds a reverse map of all 1,112,064 code points for its shrinking slices). `codePoint` below covers
 * the same range with plain integers, so most files use it; `binaryString` is the fast-check unit itself,
 * used where it matters most (percent-encode.test.ts).
 */
import fc from 'fast-check';
import type { Pair } from '../src/signing/index.ts';
import { UNRESERVED } from './oracles.ts';

const fromCodePoint = (cp: number): string => String.fromCodePoint(cp);
const isSurrogate = (cp: number): boolean => cp >= 0xd800 && cp <= 0xdfff;

/** gen-delims, sub-delims, `%`, space and the characters encodeURIComponent keeps but RFC 3986 encodes. */
export const TRICKY_ASCII = [...':/?#[]@!$&\'()*+,;=% "<>\\^`{|}\t\n\r'];

/** One of the 66 unreserved characters. */
export const unreservedChar: fc.Arbitrary<string> = fc.constantFrom(...UNRESERVED);

/** One code point, any UTF-8 length, weighted towards ASCII and the tricky characters. */
export const codePoint: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: unreservedChar, weight: 4 },
  { arbitrary: fc.constantFrom(...TRICKY_ASCII), weight: 4 },
  { arbitrary: fc.integer({ min: 0, max: 0x7f }).map(fromCodePoint), weight: 2 }, // 1 byte, controls included
  { arbitrary: fc.integer({ min: 0x80, max: 0x7ff }).map(fromCodePoint), weight: 1 }, // 2 bytes
  {
    arbitrary: fc
      .integer({ min: 0x800, max: 0xffff })
      .filter((cp) => !isSurrogate(cp))
      .map(fromCodePoint),
    weight: 1,
  }, // 3 bytes
  { arbitrary: fc.integer({ min: 0x10000, max: 0x10ffff }).map(fromCodePoint), weight: 1 }, // 4 bytes (a surrogate pair)
  // Uniform over all of U+0000..U+10FFFF except the surrogates, like fast-check's `binary` unit.
  {
    arbitrary: fc.integer({ min: 0, max: 0x10ffff - 0x800 }).map((i) => fromCodePoint(i < 0xd800 ? i : i + 0x800)),
    weight: 2,
  },
);

/** Well-formed unicode strings of the weighted code points above. */
export function unicodeString(constraints: { minLength?: number; maxLength?: number } = {}): fc.Arbitrary<string> {
  const { minLength = 0, maxLength = 24 } = constraints;
  return fc.string({ unit: codePoint, minLength, maxLength });
}

/** Well-formed unicode strings from fast-check's own full-range unit, mixed with `unicodeString` (see the cost note). */
export function binaryString(constraints: { minLength?: number; maxLength?: number } = {}): fc.Arbitrary<string> {
  const { minLength = 0, maxLength = 24 } = constraints;
  return fc.oneof(fc.string({ unit: 'binary', minLength, maxLength }), unicodeString({ minLength, maxLength }));
}

/** A form-body parameter name that never collides with the oauth_* protocol parameters. */
export const paramName: fc.Arbitrary<string> = fc
  .oneof(fc.string({ unit: unreservedChar, minLength: 1, maxLength: 8 }), unicodeString({ maxLength: 8 }))
  .filter((name) => !name.startsWith('oauth_'));

export const paramValue: fc.Arbitrary<string> = unicodeString({ maxLength: 16 });

export const pair: fc.Arbitrary<Pair> = fc.tuple(paramName, paramValue);

/** Ordered pairs; names may repeat. */
export function pairs(constraints: { minLength?: number; maxLength?: number } = {}): fc.Arbitrary<Pair[]> {
  return fc.array(pair, { minLength: constraints.minLength ?? 0, maxLength: constraints.maxLength ?? 8 });
}

/**
 * Long parameter lists (40 to 150 pairs, repeated names included), so code that switches strategy
 * with the list's length (normalizeParams sorts up to 64 pairs by insertion, longer ones with
 * Array#sort) is exercised on both sides of the switch. `size: 'max'` lets lengths reach maxLength.
 */
export const manyPairs: fc.Arbitrary<Pair[]> = fc.array(
  fc.oneof(pair, fc.tuple(fc.constantFrom('a', 'A', 'b', '~'), paramValue)),
  { minLength: 40, maxLength: 150, size: 'max' },
);

/** Pairs whose names come from a small pool, so the same name appears several times. */
export const pairsWithRepeatedNames: fc.Arbitrary<Pair[]> = fc.array(
  fc.tuple(fc.constantFrom('a', 'A', 'a b', 'a%', 'é', 'amount', 'Z'), paramValue),
  { minLength: 2, maxLength: 12 },
);

/** Pairs with distinct names (for APIs that take an object). */
export function uniqueNamePairs(constraints: { minLength?: number; maxLength?: number } = {}): fc.Arbitrary<Pair[]> {
  return fc.uniqueArray(pair, {
    selector: (p) => p[0],
    minLength: constraints.minLength ?? 0,
    maxLength: constraints.maxLength ?? 8,
  });
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
  return fc
    .array(fc.boolean(), { minLength: s.length, maxLength: s.length })
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

/**
 * Decimal digit strings. `size: 'max'` matters: fast-check's default size caps generated lengths at
 * 10, so without it a 15-digit amount (past 2^53 once in cents) would never be tried.
 */
export const digits = (minLength: number, maxLength: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength, maxLength, size: 'max' });

/** A valid amount string: up to 15 integer digits and 0-2 decimals, at least one digit in all. */
export const amount: fc.Arbitrary<string> = fc
  .tuple(digits(0, 15), fc.option(digits(1, 2), { nil: undefined }))
  .filter(([whole, fraction]) => whole !== '' || fraction !== undefined)
  .map(([whole, fraction]) => (fraction === undefined ? whole : `${whole}.${fraction}`));

/** An oauth_* parameter name as the header grammar allows it. */
export const oauthName: fc.Arbitrary<string> = fc.stringMatching(/^[A-Za-z0-9_]{1,12}$/).map((s) => `oauth_${s}`);

/** A realm that buildAuthorizationHeader accepts: no quote, backslash or line break. */
export const realm: fc.Arbitrary<string> = unicodeString({ maxLength: 16 }).filter((r) => !/["\\\r\n]/.test(r));
