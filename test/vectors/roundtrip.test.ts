// Random valid requests written as vectors, validated and checked back; then one expected character
// changed, which check must catch in exactly that field.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { expectedValues } from '../../src/signing/sign.ts';
import { checkVector } from '../../src/vectors/check.ts';
import { computeVector } from '../../src/vectors/compute.ts';
import { parseVectorFile } from '../../src/vectors/load.ts';
import { VECTOR_FORMAT, type Vector } from '../../src/vectors/types.ts';
import { amount, endpointId, nonce, pairs, secret } from '../arbitraries.ts';
import { fcParams, seed } from '../seed.ts';

const pem = readFileSync(new URL('../../vectors/keys/test-only-merchant-rsa-2048.pem', import.meta.url), 'utf8');

const vectorArb: fc.Arbitrary<Vector> = fc.oneof(
  fc
    .record({
      id: endpointId,
      params: pairs(),
      key: secret,
      nonce,
      ts: fc.integer({ min: 0, max: 2 ** 31 }),
      rsa: fc.boolean(),
    })
    .map((r): Vector => ({
      id: `oauth-${r.id}`,
      scheme: r.rsa ? 'oauth-rsa-sha256' : 'oauth-hmac-sha1',
      request: {
        method: 'POST',
        url: `https://h.example/paynet/api/${r.rsa ? 'v4' : 'v2'}/payout/${r.id}`,
        params: r.params,
      },
      credentials: r.rsa ? { login: 'm', privateKeyPem: pem } : { login: 'm', merchantControlKey: r.key },
      oauth: { nonce: r.nonce, timestamp: String(r.ts) },
      expected: {},
    })),
  fc
    .record({ id: endpointId, amount, key: secret, order: fc.string({ minLength: 1, maxLength: 10 }) })
    .map((r): Vector => ({
      id: `sale-${r.id}`,
      scheme: 'control',
      operation: 'SALE',
      request: {
        method: 'POST',
        url: `https://h.example/api/v2/sale/${r.id}`,
        params: [
          ['client_orderid', r.order],
          ['amount', r.amount],
          ['email', 'e@x'],
        ],
      },
      credentials: { merchantControlKey: r.key },
      expected: {},
    })),
);

const withExpected = (v: Vector): Vector => ({ ...v, expected: expectedValues(computeVector(v)) });

describe(`vectors round trip (seed ${seed})`, () => {
  it('a vector written from a random request validates and checks back', () => {
    fc.assert(
      fc.property(vectorArb, (raw) => {
        const text = JSON.stringify({ format: VECTOR_FORMAT, vectors: [withExpected(raw)] });
        const [v] = parseVectorFile(text, 'random.json').vectors;
        assert.deepEqual(checkVector(v!), { id: v!.id, passed: true, mismatches: [] });
      }),
      fcParams(60),
    );
  });

  it('changing one character of one expected field fails check in that field', () => {
    fc.assert(
      fc.property(vectorArb, fc.nat(), fc.nat(), (raw, pick, at) => {
        const v = withExpected(raw);
        const fields = Object.keys(v.expected) as Array<keyof typeof v.expected>;
        const field = fields[pick % fields.length]!;
        const value = String(v.expected[field]);
        const i = at % value.length;
        const broken = {
          ...v,
          expected: { ...v.expected, [field]: value.slice(0, i) + (value[i] === 'x' ? 'y' : 'x') + value.slice(i + 1) },
        };
        const result = checkVector(broken);
        assert.equal(result.passed, false);
        assert.ok(
          result.mismatches.some((m) => m.field === field),
          `${field} not reported`,
        );
      }),
      fcParams(60),
    );
  });
});
