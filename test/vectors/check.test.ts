// vectors check: every shipped file passes; a corrupted expected value is caught and reported with
// the field, the first differing position and no secret.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { checkVector } from '../../src/vectors/check.ts';
import { parseVectorFile } from '../../src/vectors/load.ts';
import { firstDifference } from '../../src/vectors/diff.ts';
import type { Vector } from '../../src/vectors/types.ts';

const dir = new URL('../../vectors/', import.meta.url);
const shipped = readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'schema.json');
const load = (name: string): Vector[] => parseVectorFile(readFileSync(new URL(name, dir), 'utf8'), name).vectors;

describe('vectors check', () => {
  for (const name of shipped) {
    it(`passes every vector of vectors/${name}`, () => {
      const failed = load(name).map(checkVector).filter((r) => !r.passed);
      assert.deepEqual(failed, []);
    });
  }

  const generated = load('generated.json');
  const flip = (s: string, at: number): string => s.slice(0, at) + (s[at] === 'A' ? 'B' : 'A') + s.slice(at + 1);

  for (const field of ['controlInput', 'control', 'baseString', 'signature', 'authorization'] as const) {
    it(`fails when one character of expected.${field} changes`, () => {
      const v = generated.find((x) => x.expected[field] !== undefined && (field !== 'signature' || x.scheme === 'oauth-rsa-sha256'))!;
      const original = v.expected[field]!;
      const broken: Vector = { ...v, expected: { ...v.expected, [field]: flip(original, 20) } };
      const result = checkVector(broken);
      assert.equal(result.passed, false);
      assert.deepEqual(result.mismatches.map((m) => m.field), [field]);
      for (const m of result.mismatches) assert.ok(!`${m.expected}${m.actual}`.includes(v.credentials.merchantControlKey ?? '\u0000'), 'no control key in the report');
    });
  }

  it('reports a vector it cannot compute instead of crashing', () => {
    const v = generated.find((x) => x.scheme === 'control')!;
    const result = checkVector({ ...v, request: { ...v.request, params: [] } });
    assert.equal(result.passed, false);
    assert.match(result.error ?? '', /is missing/);
  });

  it('finds the first differing position of two base strings', () => {
    assert.equal(firstDifference('abc', 'abc'), null);
    const d = firstDifference('POST&x%3D1%26y', 'POST&x%3D2%26y', 4)!;
    assert.equal(d.position, 9);
    assert.equal(d.expected, '…x%3D1%26…');
    assert.equal(d.caret.length, 5);
  });
});
