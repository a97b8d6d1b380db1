// RFC 5849 §3.6 percent-encoding: errors name the field and the rule (ERR_ENCODING).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { percentDecode, percentEncode } from '../../src/signing/percent-encode.ts';

const encodingError = (field: string, rule: RegExp) => (err: Error & { code?: string; field?: string }) => {
  assert.equal(err.code, 'ERR_ENCODING');
  assert.equal(err.field, field);
  assert.ok(err.message.startsWith(`${field}: `), err.message);
  assert.match(err.message, rule);
  return true;
};

describe('percentEncode', () => {
  it('rejects a lone UTF-16 surrogate (no UTF-8 form), naming the field', () => {
    assert.throws(
      () => percentEncode('ab\uD800', 'oauth_nonce'),
      encodingError('oauth_nonce', /lone UTF-16 surrogate/),
    );
    assert.throws(() => percentEncode('\uDC00x'), encodingError('value', /surrogate.*UTF-8/));
  });

  it('returns a string for a non-string from an untyped caller', () => {
    assert.strictEqual(percentEncode(42 as unknown as string), '42');
    assert.strictEqual(percentEncode(true as unknown as string), 'true');
  });

  it('encodes a multi-character string of unreserved characters as itself, and one reserved character as %XX', () => {
    assert.equal(percentEncode('Az09-._~'), 'Az09-._~');
    assert.equal(percentEncode("a!'()*b"), 'a%21%27%28%29%2Ab');
  });

  it("encodes each of the characters encodeURIComponent keeps (! ' ( ) *) also when it is the only one", () => {
    const expected: Array<[string, string]> = [
      ['!', '%21'],
      ["'", '%27'],
      ['(', '%28'],
      [')', '%29'],
      ['*', '%2A'],
    ];
    for (const [c, escaped] of expected) assert.equal(percentEncode(`x ${c}`), `x%20${escaped}`, c);
  });
});

describe('percentDecode', () => {
  it('rejects a malformed escape, naming the field (default "value")', () => {
    assert.throws(() => percentDecode('%ZZ'), encodingError('value', /malformed percent-escape/));
    assert.throws(() => percentDecode('%C3', 'email'), encodingError('email', /not UTF-8/));
  });
});
