// What the book tells the rest of the house about a rule: whether its miss fails or warns, and under
// which assumption ids (severity.ts), and the facts a failure's cause names (report/causes.ts). The
// expected ids and codes are those of docs/assumptions.md.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CAUSE_FACTS, REQUEST_CAUSE_FACTS } from '../../src/report/causes.ts';
import { REQUEST_RULES, RULES, type RuleId } from '../../src/rules/book.ts';
import { warnedUnder } from '../../src/rules/severity.ts';

describe('warnedUnder', () => {
  it('gives the assumption ids of a rule on assumptions, joined with a comma', () => {
    assert.equal(warnedUnder('answer-schema'), 'A-17');
    assert.equal(warnedUnder('no-blind-retry'), 'A-20, A-30, A-58, A-59');
  });

  it("gives nothing for the spec's rules, even one whose clause cites an assumption, nor for an unknown id", () => {
    assert.equal(warnedUnder('method-post'), undefined);
    assert.equal(warnedUnder('endpoint-known'), undefined); // spec, though its clause cites A-8
    assert.equal(warnedUnder('no-such-rule' as RuleId), undefined);
  });
});

describe('cause facts', () => {
  it("carry each rule's clause, basis, assumptions and fix as the book states them", () => {
    assert.deepEqual(
      Object.keys(CAUSE_FACTS),
      RULES.map((r) => r.id),
    );
    for (const rule of RULES) {
      const facts = CAUSE_FACTS[rule.id];
      assert.equal(facts?.clause, rule.clause, rule.id);
      assert.equal(facts.basis, rule.basis, rule.id);
      assert.deepEqual(facts.assumptions, rule.assumptions, rule.id);
      assert.equal(facts.hint, rule.hint, rule.id);
    }
  });

  it('carry the refusal codes in order (A-21) and where a sender fixes a miss', () => {
    assert.deepEqual(CAUSE_FACTS['endpoint-known']?.codes, ['NOT_FOUND', 'ENDPOINT_UNKNOWN']);
    assert.equal(CAUSE_FACTS['endpoint-known']?.fixedIn, 'configuration');
    assert.deepEqual(CAUSE_FACTS['body-size']?.codes, ['BODY_TOO_LARGE']);
    assert.equal(CAUSE_FACTS['body-size']?.fixedIn, undefined);
    assert.equal(CAUSE_FACTS['body-size']?.basis, 'assumption');
    assert.deepEqual(CAUSE_FACTS['body-size']?.assumptions, ['A-21']);
    // A habit only inspect judges has no refusal.
    assert.deepEqual(CAUSE_FACTS['order-id-unique']?.codes, []);
  });

  it("hand inspect the request rules' facts only", () => {
    assert.deepEqual(
      Object.keys(REQUEST_CAUSE_FACTS),
      REQUEST_RULES.map((r) => r.id),
    );
    assert.deepEqual(REQUEST_CAUSE_FACTS['endpoint-known'], CAUSE_FACTS['endpoint-known']);
    assert.equal(REQUEST_CAUSE_FACTS['answer-schema'], undefined);
  });
});
