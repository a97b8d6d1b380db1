/**
 * decodeForm reads every hostile body (the mock's, inspect's, the debugger's): generated bodies, malformed escapes and
 * bytes that are not UTF-8, against decoders that share no code with it. Where the body is well-formed the answer is
 * WHATWG URLSearchParams'; where it is not, URLSearchParams reads U+FFFD or a literal `%` but decodeForm's contract
 * (RFC 5849 §3.4.1.3.1, docs/assumptions.md A-10) refuses it, and the refusal is checked against a strict decoder of
 * its own here: percent-decoding to bytes, then TextDecoder with `fatal`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { asciiEscapesDecoded, decodeForm } from '../../src/signing/form-body.ts';
import { codePoint } from '../arbitraries.ts';
import { fcParams, seed } from '../seed.ts';

const hexDigit = fc.constantFrom(...'0123456789abcdefABCDEF');
/** The characters on either side of the hex ranges (`/` `:` before and after the digits, `@` `G` `` ` `` `g`). */
const nearHex = fc.constantFrom(...'/:@G`gzZ%+&= é');

/** `%XX` of one byte, either case: every byte 00-FF, so a lone lead or continuation byte is here too. */
const byteEscape = fc
  .tuple(fc.integer({ min: 0, max: 255 }), fc.boolean())
  .map(([byte, upper]) => `%${byte.toString(16).padStart(2, '0')}`[upper ? 'toUpperCase' : 'toLowerCase']());

/** The escapes of one code point's UTF-8 bytes, or all of them but the last (a truncated sequence). */
const utf8Escapes = fc.tuple(codePoint, fc.boolean()).map(([c, truncated]) => {
  const bytes = [...Buffer.from(c, 'utf8')];
  const kept = truncated && bytes.length > 1 ? bytes.slice(0, -1) : bytes;
  return kept.map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
});

/** Escapes that are not well-formed, or whose bytes are not UTF-8 (overlong, surrogate, beyond U+10FFFF, F8/FE/FF). */
const badEscape = fc.oneof(
  fc.constantFrom('%', '%4', '%zz', '%E9', '%C0%AF', '%E0%80%AF', '%ED%A0%80', '%F4%90%80%80', '%F8%88%80%80%80'),
  fc.tuple(nearHex, fc.oneof(hexDigit, nearHex)).map(([a, b]) => `%${a}${b}`),
  fc.tuple(hexDigit, nearHex).map(([a, b]) => `%${a}${b}`),
);

/** Raw text without `%`: every other character, `+` `=` `&` and space among them, and 2-4 byte UTF-8. */
const rawChar = codePoint.filter((c) => c !== '%');
/** Names that repeat, and the structure of a form. */
const structure = fc.constantFrom('&', '=', '&&', '+', 'a', 'b', 'a=', '=a');

const wellFormedToken = fc.oneof(
  { arbitrary: rawChar, weight: 2 },
  { arbitrary: structure, weight: 2 },
  { arbitrary: byteEscape.filter(isAsciiEscape), weight: 1 },
  { arbitrary: utf8Escapes.filter(isComplete), weight: 1 },
);
const anyToken = fc.oneof(
  { arbitrary: rawChar, weight: 3 },
  { arbitrary: structure, weight: 3 },
  { arbitrary: byteEscape, weight: 1 },
  { arbitrary: utf8Escapes, weight: 1 },
  { arbitrary: badEscape, weight: 1 },
);
const body = (token: fc.Arbitrary<string>) => fc.array(token, { maxLength: 24, size: 'medium' }).map((t) => t.join(''));

function isAsciiEscape(escape: string): boolean {
  return parseInt(escape.slice(1), 16) < 0x80;
}

function isComplete(escapes: string): boolean {
  return strictDecode(escapes) !== undefined;
}

/**
 * One name or value as the contract reads it, without decodeURIComponent: `+` a space, every `%` must start two hex
 * digits, and the bytes must be UTF-8 (TextDecoder's fatal mode refuses overlongs, surrogates, truncated sequences and
 * lone continuation bytes); undefined where it is refused. A BOM is kept as U+FEFF, as URLSearchParams keeps it.
 */
function strictDecode(component: string): string | undefined {
  const spaced = component.split('+').join(' ');
  if (/%(?![0-9A-Fa-f]{2})/.test(spaced)) return undefined;
  const pieces = spaced.split(/(%[0-9A-Fa-f]{2})/);
  const bytes = Buffer.concat(
    pieces.map((piece, i) => (i % 2 === 1 ? Buffer.of(parseInt(piece.slice(1), 16)) : Buffer.from(piece, 'utf8'))),
  );
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** A well-formed start, so that the first refused parameter is often not the first. */
const badAfterGoodBody = fc
  .tuple(body(wellFormedToken), badEscape, body(anyToken))
  .map(([good, bad, rest]) => good + bad + rest);

/** The pairs of a body, or the 1-based number of its first segment (empty ones counted) that is refused. */
function expectedForm(text: string): { pairs: [string, string][] } | { refused: number } {
  const pairs: [string, string][] = [];
  for (const [i, segment] of text.split('&').entries()) {
    if (segment === '') continue;
    const eq = segment.indexOf('=');
    const name = strictDecode(eq === -1 ? segment : segment.slice(0, eq));
    const value = strictDecode(eq === -1 ? '' : segment.slice(eq + 1));
    if (name === undefined || value === undefined) return { refused: i + 1 };
    pairs.push([name, value]);
  }
  return { pairs };
}

/**
 * WHATWG's application/x-www-form-urlencoded parser. Its constructor drops a leading `?` (a query string's) before
 * parsing; a `&` in front, an empty segment the parser skips, keeps a body's `?`.
 */
const urlSearchParams = (text: string): [string, string][] => [...new URLSearchParams(`&${text}`)];

const field = fc.constantFrom(undefined, 'body', 'query', 'form');

describe(`decodeForm against independent decoders (seed ${seed})`, () => {
  it('a well-formed body reads as URLSearchParams and the strict decoder read it', () => {
    fc.assert(
      fc.property(body(wellFormedToken), (text) => {
        const expected = expectedForm(text);
        assert.ok('pairs' in expected, `the generator made a refused body: ${JSON.stringify(text)}`);
        assert.deepEqual(decodeForm(text), expected.pairs, JSON.stringify(text));
        assert.deepEqual(decodeForm(text), urlSearchParams(text), JSON.stringify(text));
      }),
      fcParams(400),
    );
  });

  it('any body: the same pairs, or a refusal naming the field and the first bad parameter (URLSearchParams reads on)', () => {
    fc.assert(
      fc.property(fc.oneof(body(anyToken), badAfterGoodBody), field, (text, given) => {
        const expected = expectedForm(text);
        const decode = () => (given === undefined ? decodeForm(text) : decodeForm(text, given));
        if ('pairs' in expected) {
          assert.deepEqual(decode(), expected.pairs, JSON.stringify(text));
          assert.deepEqual(decode(), urlSearchParams(text), JSON.stringify(text));
          return;
        }
        assert.throws(decode, (err: Error & { code?: string; field?: string }) => {
          assert.equal(err.code, 'ERR_ENCODING', JSON.stringify(text));
          assert.equal(err.field, `${given ?? 'body'} (parameter ${expected.refused})`, JSON.stringify(text));
          assert.match(err.message, /has a malformed percent-escape or bytes that are not UTF-8$/);
          return true;
        });
      }),
      fcParams(600),
    );
  });
});

describe(`asciiEscapesDecoded, the ASCII-only fast path (seed ${seed})`, () => {
  // Its contract: the text decoded where every escape is %00-%7F (either case), else undefined so that the caller
  // decodes the UTF-8 or refuses. Both results are checked, so a fast path that gives up too often is seen too.
  it('decodes exactly the texts whose every escape is an ASCII byte, and gives up on every other', () => {
    const asciiPiece = fc.oneof(rawChar, byteEscape.filter(isAsciiEscape));
    const piece = fc.oneof(rawChar, byteEscape, utf8Escapes, badEscape);
    const pieces = fc.oneof(fc.array(asciiPiece, { maxLength: 10 }), fc.array(piece, { maxLength: 10 }));
    fc.assert(
      // The text holds at least one `%`, as the caller's `first` promises.
      fc.property(pieces, fc.oneof(byteEscape.filter(isAsciiEscape), byteEscape, badEscape), (start, escape) => {
        const text = [...start, escape].join('');
        const allAscii = /^(?:[^%]|%[0-7][0-9A-Fa-f])*$/.test(text);
        const expected = allAscii
          ? text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
          : undefined;
        assert.equal(asciiEscapesDecoded(text, text.indexOf('%')), expected, JSON.stringify(text));
      }),
      fcParams(600),
    );
  });
});
