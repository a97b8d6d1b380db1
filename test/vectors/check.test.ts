// vectors check: every shipped file passes; a corrupted expected value is caught and reported with
// the field, the first differing position and no secret.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { checkVector } from '../../src/vectors/check.ts';
import { parseVectorFile } from '../../src/vectors/load.ts';
import { firstDifference } from '../../src/signing/first-difference.ts';
import type { Vector } from '../../src/vectors/types.ts';

const dir = new URL('../../vectors/', import.meta.url);
const shipped = readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'schema.json');
const load = (name: string): Vector[] => parseVectorFile(readFileSync(new URL(name, dir), 'utf8'), name).vectors;

describe('vectors check', () => {
  for (const name of shipped) {
    it(`passes every vector of vectors/${name}`, () => {
      const failed = load(name)
        .map(checkVector)
        .filter((r) => !r.passed);
      assert.deepEqual(failed, []);
    });
  }

  const generated = load('generated.json');
  const flip = (s: string, at: number): string => s.slice(0, at) + (s[at] === 'A' ? 'B' : 'A') + s.slice(at + 1);

  for (const field of ['controlInput', 'control', 'baseString', 'signature', 'authorization'] as const) {
    it(`fails when one character of expected.${field} changes`, () => {
      const v = generated.find(
        (x) => x.expected[field] !== undefined && (field !== 'signature' || x.scheme === 'oauth-rsa-sha256'),
      )!;
      const original = v.expected[field]!;
      const broken: Vector = { ...v, expected: { ...v.expected, [field]: flip(original, 20) } };
      const result = checkVector(broken);
      assert.equal(result.passed, false);
      assert.deepEqual(
        result.mismatches.map((m) => m.field),
        [field],
      );
      for (const m of result.mismatches)
        assert.ok(
          !`${m.expected}${m.actual}`.includes(v.credentials.merchantControlKey ?? '\u0000'),
          'no control key in the report',
        );
    });
  }

  it('reports a vector it cannot compute instead of crashing', () => {
    const v = generated.find((x) => x.scheme === 'control')!;
    const result = checkVector({ ...v, request: { ...v.request, params: [] } });
    assert.equal(result.passed, false);
    assert.match(result.error ?? '', /is missing/);
  });

  it('reports a vector it cannot compute with no mismatches, and lets an internal error through', () => {
    const v = generated.find((x) => x.scheme === 'control')!;
    const result = checkVector({ ...v, request: { ...v.request, params: [] } });
    assert.equal(result.id, v.id);
    assert.deepEqual(result.mismatches, []);
    // A control vector whose operation is not a control endpoint (validation rejects it) is a bug, not a vector failure.
    assert.throws(() => checkVector({ ...v, operation: 'PAYOUT' }), /PAYOUT is not a control endpoint/);
  });

  // SALE: control = SHA-1(endpointId + client_orderid + cents + email + key) (api-spec.md, Scheme A).
  const PLACEHOLDER = '<merchant_control_key>';
  const sale = (key: string | undefined, expected: Vector['expected']): Vector => ({
    id: 'sale',
    scheme: 'control',
    operation: 'SALE',
    request: {
      method: 'POST',
      url: 'https://h.example/api/v2/sale/1234',
      params: [
        ['client_orderid', 'A-1'],
        ['amount', '2.50'],
        ['email', 'a@b.example'],
      ],
    },
    credentials: key === undefined ? {} : { merchantControlKey: key },
    expected,
  });
  const prefix = '1234A-1250a@b.example';

  it('compares a real controlInput with the key the vector has (none: nothing appended)', () => {
    assert.equal(
      checkVector(sale(undefined, { controlInput: prefix, control: createHash('sha1').update(prefix).digest('hex') }))
        .passed,
      true,
    );
    assert.equal(checkVector(sale('K', { controlInput: `${prefix}K` })).passed, true);
    assert.equal(checkVector(sale('K', { controlInput: `${prefix}${PLACEHOLDER}` })).passed, true);
  });

  it('shows a wrong controlInput with the key replaced by its placeholder, and only the key', () => {
    const wrongPrefix = '1234A-1025a@b.example';
    assert.deepEqual(checkVector(sale('K', { controlInput: `${wrongPrefix}K` })).mismatches, [
      { field: 'controlInput', expected: `${wrongPrefix}${PLACEHOLDER}`, actual: `${prefix}${PLACEHOLDER}` },
    ]);
    // Not ending in the key: shown as written.
    assert.deepEqual(checkVector(sale('K', { controlInput: `${prefix}OTHER` })).mismatches, [
      { field: 'controlInput', expected: `${prefix}OTHER`, actual: `${prefix}${PLACEHOLDER}` },
    ]);
    // No key at all: nothing to hide.
    assert.deepEqual(checkVector(sale(undefined, { controlInput: wrongPrefix })).mismatches, [
      { field: 'controlInput', expected: wrongPrefix, actual: `${prefix}${PLACEHOLDER}` },
    ]);
  });

  it('reports an expected field the scheme does not produce as computed empty', () => {
    assert.deepEqual(checkVector(sale('K', { baseString: 'POST&x&y' })).mismatches, [
      { field: 'baseString', expected: 'POST&x&y', actual: '' },
    ]);
    const oauth = generated.find((x) => x.scheme === 'oauth-hmac-sha1')!;
    assert.deepEqual(checkVector({ ...oauth, expected: { controlInput: 'abc' } }).mismatches, [
      { field: 'controlInput', expected: 'abc', actual: '' },
    ]);
  });

  describe('verification vectors', () => {
    const diagnoses = load('diagnoses.json');
    const byId = (id: string): Vector => diagnoses.find((x) => x.id === id)!;

    it('reports a verdict other than the expected one', () => {
      const v = byId('hmac-valid');
      assert.deepEqual(checkVector({ ...v, expected: { verdict: 'invalid', defect: null } }), {
        id: v.id,
        passed: false,
        mismatches: [{ field: 'verdict', expected: 'invalid', actual: 'valid' }],
      });
      assert.deepEqual(checkVector({ ...v, expected: { defect: null } }).mismatches, [
        { field: 'verdict', expected: '', actual: 'valid' },
      ]);
    });

    it('reports a defect that diagnose does not find, naming the ones it found (or null)', () => {
      const v = byId('double-encoding');
      assert.deepEqual(checkVector({ ...v, expected: { verdict: 'invalid', defect: 'plus-for-space' } }).mismatches, [
        { field: 'defect', expected: 'plus-for-space', actual: 'double-encoding' },
      ]);
      assert.deepEqual(checkVector({ ...v, expected: { verdict: 'invalid', defect: null } }), {
        id: v.id,
        passed: false,
        mismatches: [{ field: 'defect', expected: 'null', actual: 'double-encoding' }],
      });
      const valid = byId('hmac-valid');
      assert.deepEqual(
        checkVector({ ...valid, expected: { verdict: 'valid', defect: 'double-encoding' } }).mismatches,
        [{ field: 'defect', expected: 'double-encoding', actual: 'null' }],
      );
    });

    it("lets the vector's operation choose the formula when its URL is no catalogue path", () => {
      const control = createHash('sha1').update(`${prefix}K`).digest('hex');
      const v: Vector = {
        ...sale('K', { verdict: 'valid', defect: null }),
        request: { method: 'POST', url: 'https://h.example/custom/1234', params: sale('K', {}).request.params },
        given: { control },
      };
      assert.deepEqual(checkVector(v), { id: 'sale', passed: true, mismatches: [] });
    });
  });

  it('finds the first differing position of two base strings', () => {
    assert.equal(firstDifference('abc', 'abc'), null);
    const d = firstDifference('POST&x%3D1%26y', 'POST&x%3D2%26y', 4)!;
    assert.equal(d.position, 9);
    assert.equal(d.expected, '…x%3D1%26…');
    assert.equal(d.caret.length, 5);
  });
});
