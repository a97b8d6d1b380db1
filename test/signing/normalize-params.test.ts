// RFC 5849 §3.4.1.3.2: sort by encoded name, then by encoded value where names are equal (byte order).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compareEncodedPairs, normalizeParams } from '../../src/signing/normalize-params.ts';

describe('compareEncodedPairs', () => {
  it('orders by name first, whatever the values', () => {
    assert.equal(compareEncodedPairs(['a', 'z'], ['b', 'a']), -1);
    assert.equal(compareEncodedPairs(['b', 'a'], ['a', 'z']), 1);
    // Byte order: "Z" (0x5A) < "a" (0x61), "%" (0x25) < "0" (0x30).
    assert.equal(compareEncodedPairs(['Z', '1'], ['a', '1']), -1);
    assert.equal(compareEncodedPairs(['%41', '1'], ['0', '1']), -1);
  });

  it('orders by value where names are equal, and gives 0 for equal pairs', () => {
    assert.equal(compareEncodedPairs(['a', '1'], ['a', '2']), -1);
    assert.equal(compareEncodedPairs(['a', '2'], ['a', '1']), 1);
    assert.equal(compareEncodedPairs(['a', '2%20q'], ['a', 'a']), -1);
    assert.equal(compareEncodedPairs(['a', '1'], ['a', '1']), 0);
    assert.equal(compareEncodedPairs(['', ''], ['', '']), 0);
  });
});

describe('normalizeParams', () => {
  it('no parameters: nothing sorted, an empty string', () => {
    assert.deepEqual(normalizeParams([]), { sorted: [], normalized: '' });
  });

  it('sorts a long list by name, then by value (names z99 … z00, each with values b and a)', () => {
    const pairs: Array<[string, string]> = [];
    for (let i = 99; i >= 0; i--)
      pairs.push([`z${String(i).padStart(2, '0')}`, 'b'], [`z${String(i).padStart(2, '0')}`, 'a']);
    const expected: string[] = [];
    for (let i = 0; i <= 99; i++) expected.push(`z${String(i).padStart(2, '0')}=a`, `z${String(i).padStart(2, '0')}=b`);
    assert.equal(normalizeParams(pairs).normalized, expected.join('&'));
  });
});
