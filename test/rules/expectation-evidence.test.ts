// What the steps expect beyond one answer (src/rules/expectations.ts): each rule compares what came
// with what would do, and its failure says both in words a certifier reads, written out here.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EXPECTATION_RULES } from '../../src/rules/book.ts';
import { refusalCode } from '../../src/rules/expectations.ts';
import { evidence } from './outcomes.ts';

describe('expectation rules', () => {
  it('pass a value that is one of those expected, or any value where none is named', () => {
    for (const rule of EXPECTATION_RULES) {
      assert.equal(rule.check({ what: 'error-code', expected: ['A', 'B'], actual: 'A' }).outcome, 'pass', rule.id);
      assert.equal(rule.check({ what: 'error-code', expected: ['A', 'B'], actual: 'B' }).outcome, 'pass', rule.id);
      assert.equal(rule.check({ what: 'orderid', expected: [], actual: '' }).outcome, 'pass', rule.id);
    }
  });

  it('name the field, every value that would do, and what came', () => {
    assert.deepEqual(evidence(refusalCode.check({ what: 'error-code', expected: ['A', 'B'], actual: 'C' })), {
      message: 'error-code: expected A or B, got C',
      field: 'error-code',
      expected: 'A or B',
      actual: 'C',
    });
    assert.deepEqual(evidence(refusalCode.check({ what: 'error-code', expected: ['A'], actual: undefined })), {
      message: 'error-code: expected A, got none',
      field: 'error-code',
      expected: 'A',
      actual: 'none',
    });
  });

  it('fail a missing value where any would have done, as "a value"', () => {
    for (const rule of EXPECTATION_RULES)
      assert.deepEqual(evidence(rule.check({ what: 'orderid', expected: [], actual: undefined })), {
        message: 'orderid: expected a value, got none',
        field: 'orderid',
        expected: 'a value',
        actual: 'none',
      });
  });
});
