// The callback vectors of vectors/generated.json and vectors/diagnoses.json against a second
// implementation: the formula concatenated here by hand and hashed by coreutils' sha1sum.
import { execFileSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { Vector, VectorFile } from '../../src/vectors/types.ts';

const load = (file: string): Vector[] =>
  (JSON.parse(readFileSync(file, 'utf8')) as VectorFile).vectors.filter((v) => v.message === 'callback');
const field = (v: Vector, name: string): string => v.request.params.find(([n]) => n === name)![1];
const sha1sum = (text: string): string =>
  execFileSync('sha1sum', { input: Buffer.from(text, 'utf8') })
    .toString()
    .slice(0, 40);

describe('callback vectors', () => {
  const generated = load('vectors/generated.json');

  it('cover every final status, a UTF-8 order id and the customer return', () => {
    assert.deepEqual(generated.map((v) => field(v, 'status')).slice(0, 4), [
      'approved',
      'declined',
      'filtered',
      'error',
    ]);
    assert.ok(generated.some((v) => /\P{ASCII}/u.test(field(v, 'client_orderid'))));
    assert.ok(
      generated.some((v) => !v.request.params.some(([n]) => n === 'amount')),
      'a customer return has no amount',
    );
  });

  it('expect SHA-1(status + orderid + client_orderid + key), with no amount, as sha1sum computes it', () => {
    for (const v of generated) {
      const input =
        field(v, 'status') + field(v, 'orderid') + field(v, 'client_orderid') + v.credentials.merchantControlKey!;
      assert.equal(v.expected.controlInput, input, v.id);
      assert.equal(v.expected.control, sha1sum(input), v.id);
    }
  });

  it("verification vectors: the valid one is sha1sum's digest, each mistake is not", () => {
    const diagnoses = load('vectors/diagnoses.json');
    const valid = diagnoses.find((v) => v.expected.verdict === 'valid')!;
    const input =
      field(valid, 'status') +
      field(valid, 'orderid') +
      field(valid, 'client_orderid') +
      valid.credentials.merchantControlKey!;
    assert.equal(valid.given!.control, sha1sum(input));
    const byDefect = new Map(diagnoses.map((v) => [v.expected.defect, v.given!.control]));
    assert.equal(byDefect.get('uppercase-hex'), sha1sum(input).toUpperCase());
    // The amount as sent, before the key: the mistake of a handler that adds it.
    const amountAdded =
      field(valid, 'status') +
      field(valid, 'orderid') +
      field(valid, 'client_orderid') +
      field(valid, 'amount') +
      valid.credentials.merchantControlKey!;
    assert.equal(byDefect.get('amount-in-formula'), sha1sum(amountAdded));
    for (const defect of ['fields-wrong-order', 'amount-in-formula', 'uppercase-hex'])
      assert.ok(byDefect.has(defect), defect);
  });
});
