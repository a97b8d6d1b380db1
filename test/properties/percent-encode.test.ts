/** RFC 3986 §2.3 / RFC 5849 §3.6 percent-encoding, against a byte-level oracle. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { percentDecode, percentEncode } from '../../src/signing/index.ts';
import { binaryString, codePoint } from '../arbitraries.ts';
import { isUnreservedChar, pctByte, rfc3986 } from '../oracles.ts';
import { fcParams, seed } from '../seed.ts';

/** What one character must encode to, from its UTF-8 bytes. */
function expectedFor(c: string): string {
  return isUnreservedChar(c) ? c : [...Buffer.from(c, 'utf8')].map(pctByte).join('');
}

describe(`percent-encoding (seed ${seed})`, () => {
  it('round-trips through decodeURIComponent for well-formed unicode', () => {
    fc.assert(
      fc.property(binaryString({ maxLength: 40 }), (s) => {
        assert.equal(decodeURIComponent(percentEncode(s)), s);
      }),
      fcParams(300),
    );
  });

  it('keeps exactly the unreserved characters and encodes every other one as its UTF-8 bytes, %XX uppercase', () => {
    fc.assert(
      fc.property(fc.oneof(codePoint, fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), (c) => {
        const encoded = percentEncode(c);
        assert.equal(encoded === c, isUnreservedChar(c), `unreserved iff kept: ${JSON.stringify(c)} → ${encoded}`);
        assert.equal(encoded, expectedFor(c));
      }),
      fcParams(500),
    );
    // Every ASCII character, once each, so no unlucky seed can miss one of the 128.
    for (let code = 0; code < 0x80; code++) {
      const c = String.fromCharCode(code);
      assert.equal(percentEncode(c), expectedFor(c), `ASCII 0x${code.toString(16)}`);
    }
  });

  it('encodes whole strings character by character (matches the UTF-8 byte oracle)', () => {
    fc.assert(
      fc.property(binaryString({ maxLength: 40 }), (s) => {
        assert.equal(percentEncode(s), rfc3986(s));
      }),
      fcParams(300),
    );
  });

  it('produces only unreserved characters and %XX with two uppercase hex digits', () => {
    fc.assert(
      fc.property(binaryString({ maxLength: 40 }), (s) => {
        const encoded = percentEncode(s);
        assert.match(encoded, /^[A-Za-z0-9\-._~%]*$/);
        for (let i = encoded.indexOf('%'); i !== -1; i = encoded.indexOf('%', i + 1)) {
          assert.match(encoded.slice(i + 1, i + 3), /^[0-9A-F]{2}$/, `escape at ${i} in ${encoded}`);
        }
      }),
      fcParams(300),
    );
  });

  it('percentDecode(percentEncode(x)) === x', () => {
    fc.assert(
      fc.property(binaryString({ maxLength: 40 }), (s) => {
        assert.equal(percentDecode(percentEncode(s)), s);
      }),
      fcParams(300),
    );
  });
});
