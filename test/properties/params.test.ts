/** Parameter normalisation (RFC 5849 §3.4.1.3.2) and the signature base string (§3.4.1.1). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { normalizeParams, normalizeUrl, signatureBaseString } from '../../src/signing/index.ts';
import {
  hostName,
  manyPairs,
  pairs,
  pairsWithRepeatedNames,
  paramValue,
  randomCase,
  urlPath,
  withShuffle,
} from '../arbitraries.ts';
import { compareBytes, normalizedParamsOracle } from '../oracles.ts';
import { fcParams, seed } from '../seed.ts';

describe(`parameter normalisation and base string (seed ${seed})`, () => {
  it('normalizeParams does not depend on the order of the input pairs', () => {
    fc.assert(
      fc.property(
        withShuffle(fc.oneof({ arbitrary: pairs({ maxLength: 10 }), weight: 4 }, { arbitrary: manyPairs, weight: 1 })),
        ([original, shuffled]) => {
          assert.equal(normalizeParams(shuffled).normalized, normalizeParams(original).normalized);
          assert.deepEqual(normalizeParams(shuffled).sorted, normalizeParams(original).sorted);
        },
      ),
      fcParams(200),
    );
  });

  it('pairs with the same name come out sorted by encoded value', () => {
    fc.assert(
      fc.property(pairsWithRepeatedNames, (ps) => {
        const { sorted } = normalizeParams(ps);
        assert.equal(sorted.length, ps.length);
        for (let i = 1; i < sorted.length; i++) {
          const [prevName, prevValue] = sorted[i - 1]!;
          const [name, value] = sorted[i]!;
          assert.ok(compareBytes(prevName, name) <= 0, `names out of order: ${prevName} then ${name}`);
          if (prevName === name)
            assert.ok(compareBytes(prevValue, value) <= 0, `${name}: ${prevValue} before ${value}`);
        }
      }),
      fcParams(200),
    );
  });

  it('sorts in byte order (uppercase before lowercase), as a Buffer.compare oracle does', () => {
    assert.equal(
      normalizeParams([
        ['a', '1'],
        ['B', '2'],
      ]).normalized,
      'B=2&a=1',
    );
    fc.assert(
      fc.property(
        fc.oneof({ arbitrary: pairs({ maxLength: 10 }), weight: 4 }, { arbitrary: manyPairs, weight: 1 }),
        (ps) => {
          assert.equal(normalizeParams(ps).normalized, normalizedParamsOracle(ps));
        },
      ),
      fcParams(300),
    );
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Z][A-Za-z]{0,5}$/),
        fc.stringMatching(/^[a-z][A-Za-z]{0,5}$/),
        paramValue,
        paramValue,
        (upper, lower, v1, v2) => {
          const { sorted } = normalizeParams([
            [lower, v1],
            [upper, v2],
          ]);
          assert.equal(sorted[0]![0], upper);
          assert.equal(sorted[1]![0], lower);
        },
      ),
      fcParams(100),
    );
  });

  it('the base string is METHOD&enc(url)&enc(params): exactly two top-level & and it starts with POST&', () => {
    const url = fc
      .tuple(fc.constantFrom('http', 'https'), hostName, urlPath)
      .chain(([s, h, p]) => fc.tuple(randomCase(s), randomCase(h)).map(([sc, hc]) => `${sc}://${hc}${p}`));
    fc.assert(
      fc.property(randomCase('post'), url, pairs({ maxLength: 10 }), (method, input, ps) => {
        const normalizedUrl = normalizeUrl(input).normalized;
        const normalized = normalizeParams(ps).normalized;
        const base = signatureBaseString(method, normalizedUrl, normalized);
        const parts = base.split('&');
        assert.equal(parts.length, 3, base);
        assert.ok(base.startsWith('POST&'), base);
        assert.equal(decodeURIComponent(parts[1]!), normalizedUrl);
        assert.equal(decodeURIComponent(parts[2]!), normalized);
      }),
      fcParams(200),
    );
  });
});
