// The shape every rule shares: pass, fail with evidence, skip (kept once per reason, up to 1000
// reasons), and the refusal a failure maps to. This file imports rule.ts alone, so it knows every skip
// reason made in its process.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fail, PASS, refusalOf, skip, type Rule } from '../../src/rules/rule.ts';

describe('outcomes', () => {
  it('pass is one frozen value', () => {
    assert.deepEqual(PASS, { outcome: 'pass' });
    assert.ok(Object.isFrozen(PASS));
  });

  it('fail carries the message and whatever else the evidence names', () => {
    assert.deepEqual(fail('amount: too big'), { outcome: 'fail', evidence: { message: 'amount: too big' } });
    assert.deepEqual(fail('x: y', { field: 'x', code: 'C' }), {
      outcome: 'fail',
      evidence: { message: 'x: y', field: 'x', code: 'C' },
    });
  });

  it('skip gives the same frozen object for the same reason, a fresh one after 1000 reasons', () => {
    const first = skip('reason 0');
    assert.deepEqual(first, { outcome: 'skip', reason: 'reason 0' });
    assert.ok(Object.isFrozen(first));
    assert.equal(skip('reason 0'), first);
    assert.notEqual(skip('reason 1'), first);
    for (let i = 2; i < 1000; i += 1) skip(`reason ${i}`); // reasons 0 to 999: 1000 kept
    assert.equal(skip('reason 999'), skip('reason 999'), 'the 1000th is kept');
    const extra = skip('reason 1000');
    assert.deepEqual(extra, { outcome: 'skip', reason: 'reason 1000' });
    assert.notEqual(skip('reason 1000'), extra, 'the 1001st is not');
    assert.equal(skip('reason 0'), first, 'the kept ones stay');
  });
});

describe('refusalOf', () => {
  const rule = {
    refusals: [
      { status: 400, code: 'A' },
      { status: 403, code: 'B' },
    ],
  } as unknown as Rule<never>;

  it('is the refusal the evidence names, else the first', () => {
    assert.deepEqual(refusalOf(rule, { message: 'm', code: 'B' }), { status: 403, code: 'B' });
    assert.deepEqual(refusalOf(rule, { message: 'm' }), { status: 400, code: 'A' });
    assert.deepEqual(refusalOf(rule, { message: 'm', code: 'Z' }), { status: 400, code: 'A' });
    assert.equal(refusalOf({ refusals: [] } as unknown as Rule<never>, { message: 'm' }), undefined);
  });
});
