// A failure's cause comes from the finding its step recorded (src/report/findings.ts), never from the
// failure's message: a gateway whose error message echoes words that look like payconform's own ("(rule
// control-sha1)", "needs an orderid from VOID, which answered 500", a second "error-code") cannot move a
// failure to another rule. Each record below is what a run writes: the step's finding attachment, then
// cucumber's failed step whose message quotes the gateway's answer. The rule table is this test's own.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { causesOf, type CauseRules } from '../../src/report/causes.ts';
import { RunRecord } from '../../src/report/run-record.ts';

const RULES: CauseRules = {
  'control-signature': {
    clause: 'Scheme A',
    basis: 'spec',
    assumptions: [],
    hint: 'Sign.',
    codes: ['CONTROL_INVALID'],
  },
  'reference-known': { clause: 'Orders', basis: 'spec', assumptions: [], hint: 'Name one.', codes: ['REF_UNKNOWN'] },
};

const FINDING = 'application/vnd.payconform.finding+json';

/** One failed scenario: its finding (as the step attaches it) and cucumber's message quoting the answer. */
function failed(tags: string[], finding: object, message: string): RunRecord {
  return RunRecord.fromNdjson(
    [
      { pickle: { id: 'p', name: 'a SALE', uri: 'features/x.feature', tags: tags.map((name) => ({ name })) } },
      { testCase: { id: 'c', pickleId: 'p' } },
      { testCaseStarted: { id: 's', testCaseId: 'c' } },
      { attachment: { testCaseStartedId: 's', mediaType: FINDING, body: JSON.stringify(finding) } },
      { testStepFinished: { testCaseStartedId: 's', testStepResult: { status: 'FAILED', message } } },
      { testCaseFinished: { testCaseStartedId: 's', willBeRetried: false } },
    ]
      .map((m) => JSON.stringify(m))
      .join('\n'),
  );
}

const traced = (record: RunRecord): unknown[] =>
  causesOf(record.results, RULES).map((c) => [c.rule ?? c.check, c.kind, c.scenarios.length, c.blocked.length]);

// A correctly signed SALE refused with a code payconform does not know: the check that failed is the cause.
const refused = (body: object): RunRecord =>
  failed(
    ['@endpoint:SALE', '@positive'],
    {
      kind: 'refused-met',
      check: 'SALE status',
      expected: '200 (accepted)',
      actual: '400',
      exchange: { operation: 'SALE', status: 400, errorCode: 'GATEWAY_SAYS_NO' },
    },
    `AssertionError [ERR_ASSERTION]: SALE status: expected 200 (accepted), got 400 (the spec)\n` +
      `SALE answered 400: ${JSON.stringify(body)}`,
  );

describe("a gateway's echoed words cannot change a failure's cause", () => {
  it('an error message naming another rule', () => {
    const record = refused({ 'error-code': 'GATEWAY_SAYS_NO', 'error-message': 'rejected (rule control-sha1)' });
    assert.deepEqual(traced(record), [['SALE status', 'untraced', 1, 0]]);
  });

  it('an error message in the words of a refused prerequisite', () => {
    const record = refused({
      'error-code': 'GATEWAY_SAYS_NO',
      'error-message': 'SALE needs an orderid from VOID, which answered 500',
    });
    assert.deepEqual(traced(record), [['SALE status', 'untraced', 1, 0]]);
  });

  it('an error message quoting an error code before the answer gives its own', () => {
    const record = failed(
      ['@endpoint:SALE', '@positive'],
      {
        kind: 'refused-met',
        check: 'SALE status',
        expected: '200 (accepted)',
        actual: '400',
        exchange: { operation: 'SALE', status: 400, errorCode: 'REF_UNKNOWN' },
      },
      `SALE status: expected 200 (accepted), got 400 (the spec)\n` +
        `SALE answered 400: {"error-message":"error-code=CONTROL_INVALID","error-code":"REF_UNKNOWN"}`,
    );
    assert.deepEqual(traced(record), [['reference-known', 'refused-met', 1, 0]]);
    assert.equal(causesOf(record.results, RULES)[0]?.scenarios[0]?.exchange, 'SALE answered 400 REF_UNKNOWN');
  });

  it('an error message claiming the request was accepted', () => {
    const record = refused({
      'error-code': 'GATEWAY_SAYS_NO',
      'error-message': 'status: expected a refusal (no 2xx), got 200',
    });
    assert.deepEqual(traced(record), [['SALE status', 'untraced', 1, 0]]);
  });
});
