/** The `Authorization: OAuth …` header (RFC 5849 §3.5.1, api-spec.md Scheme B rules 2-3). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { buildAuthorizationHeader, parseAuthorizationHeader, type Pair } from '../../src/signing/index.ts';
import { oauthName, realm, unicodeString } from '../arbitraries.ts';
import { compareBytes, rfc3986 } from '../oracles.ts';
import { fcParams, seed } from '../seed.ts';

/** Distinct oauth_* names with any values: unicode, reserved characters, base64's + / =. */
const oauthPairs: fc.Arbitrary<Pair[]> = fc.uniqueArray(
  fc.tuple(oauthName, fc.oneof(unicodeString({ maxLength: 20 }), fc.base64String({ maxLength: 40 }))),
  { selector: (p) => p[0], minLength: 1, maxLength: 7 },
);

const byName = (ps: readonly Pair[]): Pair[] => [...ps].sort((a, b) => compareBytes(a[0], b[0]));

describe(`Authorization header (seed ${seed})`, () => {
  it('build → parse round-trips (values with unicode and reserved characters, optional realm); build is canonical', () => {
    fc.assert(
      fc.property(oauthPairs, fc.option(realm, { nil: undefined }), (ps, r) => {
        const header = buildAuthorizationHeader(ps, r);
        // vector-format.md: `OAuth `, realm when given, then name="enc(value)" sorted by name, joined by `, `.
        const items = [
          ...(r === undefined ? [] : [`realm="${r}"`]),
          ...byName(ps).map(([n, v]) => `${n}="${rfc3986(v)}"`),
        ];
        assert.equal(header, `OAuth ${items.join(', ')}`);
        const parsed = parseAuthorizationHeader(header);
        assert.equal(parsed.realm, r);
        assert.deepEqual(
          byName(parsed.pairs),
          byName(ps).map(([n, v]) => [n, v]),
        );
      }),
      fcParams(300),
    );
  });

  it('parse accepts the items in any order, with or without spaces after the commas', () => {
    const header = oauthPairs.chain((ps) =>
      fc.record({
        pairs: fc.constant(ps),
        realm: fc.option(realm, { nil: undefined }),
        order: fc.shuffledSubarray(ps, { minLength: ps.length, maxLength: ps.length }),
        realmAt: fc.nat({ max: ps.length }),
        separators: fc.array(fc.constantFrom(',', ', ', ',  ', ',\t', ' , '), {
          minLength: ps.length,
          maxLength: ps.length,
        }),
      }),
    );
    fc.assert(
      fc.property(header, (h) => {
        // Written by hand with the byte-level encoder, not by buildAuthorizationHeader.
        const items = h.order.map(([n, v]) => `${n}="${rfc3986(v)}"`);
        if (h.realm !== undefined) items.splice(h.realmAt, 0, `realm="${h.realm}"`);
        const text = `OAuth ${items.map((item, i) => (i === 0 ? item : h.separators[i - 1] + item)).join('')}`;
        const parsed = parseAuthorizationHeader(text);
        assert.equal(parsed.realm, h.realm);
        assert.deepEqual(
          parsed.pairs,
          h.order.map(([n, v]) => [n, v]),
          text,
        );
      }),
      fcParams(300),
    );
  });
});
