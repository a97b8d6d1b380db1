// The bundle counts what cucumber cannot: warnings by assumption id and not-applicable scenarios,
// read from the steps' attachments in messages.ndjson, and adds them to junit.xml. The messages
// below are written by hand in cucumber's message format (one scenario each way).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { summarize } from '../../src/report/bundle.ts';
import { RunRecord } from '../../src/report/run-record.ts';
import { NOT_APPLICABLE_MEDIA_TYPE, WARNING_MEDIA_TYPE } from '../../src/report/findings.ts';
import { withWarnings } from '../../src/report/junit-warnings.ts';

function scenario(n: number, status: string, attachments: Array<[string, unknown]> = []): object[] {
  return [
    { pickle: { id: `p${n}`, name: `scenario ${n}`, uri: 'features/x.feature', tags: [{ name: '@endpoint:SALE' }] } },
    { testCase: { id: `c${n}`, pickleId: `p${n}` } },
    { testCaseStarted: { id: `s${n}`, testCaseId: `c${n}` } },
    ...attachments.map(([mediaType, body]) => ({
      attachment: { mediaType, body: JSON.stringify(body), testCaseStartedId: `s${n}` },
    })),
    { testStepFinished: { testCaseStartedId: `s${n}`, testStepResult: { status } } },
    { testCaseFinished: { testCaseStartedId: `s${n}`, willBeRetried: false } },
  ];
}

const warning = (assumption: string) => ({
  assumption,
  check: 'error code',
  expected: 'CONTROL_INVALID',
  actual: 'E1',
});
const ndjson = (...messages: object[][]): RunRecord =>
  RunRecord.fromNdjson(
    messages
      .flat()
      .map((m) => JSON.stringify(m))
      .join('\n'),
  );

describe('verdicts in the bundle', () => {
  it('a run with warnings and no failure passes with warnings, counted by assumption', () => {
    const summary = summarize(
      ndjson(
        scenario(1, 'PASSED'),
        scenario(2, 'PASSED', [
          [WARNING_MEDIA_TYPE, warning('A-21')],
          [WARNING_MEDIA_TYPE, warning('A-21')],
        ]),
        scenario(3, 'SKIPPED', [[WARNING_MEDIA_TYPE, warning('A-22')]]),
        scenario(4, 'SKIPPED', [[NOT_APPLICABLE_MEDIA_TYPE, { reason: 'no prefix' }]]),
      ),
      'gateway',
      {},
    );
    assert.equal(summary.status, 'passed-with-warnings');
    assert.deepEqual(summary.totals, { passed: 2, failed: 0, other: 1, warned: 2, notApplicable: 1 });
    assert.deepEqual([summary.warnings.total, summary.warnings.byAssumption], [3, { 'A-21': 2, 'A-22': 1 }]);
    assert.deepEqual(summary.notApplicable, [{ name: 'scenario 4', uri: 'features/x.feature', reason: 'no prefix' }]);
  });

  it('one failure fails the run, and its warnings are not counted as if it passed', () => {
    const summary = summarize(
      ndjson(scenario(1, 'PASSED'), scenario(2, 'FAILED', [[WARNING_MEDIA_TYPE, warning('A-21')]])),
      'gateway',
      {},
    );
    assert.equal(summary.status, 'failed');
    assert.deepEqual([summary.totals.failed, summary.totals.warned, summary.warnings.total], [1, 0, 0]);
    assert.equal(summarize(ndjson(scenario(1, 'PASSED')), 'gateway', {}).status, 'passed');
  });

  it('junit.xml carries the verdict and the warnings by assumption on its testsuite', () => {
    const summary = summarize(ndjson(scenario(1, 'PASSED', [[WARNING_MEDIA_TYPE, warning('A-21')]])), 'gateway', {});
    const xml = withWarnings(
      '<?xml version="1.0"?>\n<testsuite name="Cucumber" tests="1">\n  <testcase name="scenario 1"/>\n</testsuite>\n',
      summary,
    );
    assert.match(
      xml,
      /<testsuite name="Cucumber" tests="1">\n {2}<properties>\n {4}<property name="payconform.status" value="passed-with-warnings"\/>\n {4}<property name="payconform.warnings" value="1"\/>\n {4}<property name="payconform.warnings.A-21" value="1"\/>/,
    );
    assert.match(
      xml,
      /<system-out>WARNING A-21: error code: expected CONTROL_INVALID, got E1 — scenario 1 \(features\/x\.feature\)<\/system-out>\n<\/testsuite>/,
    );
  });
});
