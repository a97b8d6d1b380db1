// The one collector of a run's messages: fed in memory by the runner, and the only reader of a
// messages.ndjson from elsewhere, which it treats as hostile. The messages below are written by hand
// in cucumber's message format; the expected results are read off them, not off the code.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { MessagesError, RunRecord } from '../../src/report/run-record.ts';
import { FINDING_MEDIA_TYPE, WARNING_MEDIA_TYPE } from '../../src/report/findings.ts';

const lines = (...messages: object[]): string => messages.map((m) => JSON.stringify(m)).join('\n');
const pickle = {
  pickle: { id: 'p1', name: 'a sale', uri: 'features/sale.feature', tags: [{ name: '@endpoint:SALE' }] },
};
const testCase = { testCase: { id: 't1', pickleId: 'p1' } };
const started = (id: string) => ({ testCaseStarted: { id, testCaseId: 't1' } });
const step = (id: string, status: string, message?: string) => ({
  testStepFinished: { testCaseStartedId: id, testStepResult: { status, message } },
});
const finished = (id: string, willBeRetried = false) => ({
  testCaseFinished: { testCaseStartedId: id, willBeRetried },
});

describe('the run record', () => {
  // A finding as steps/support/verdict.ts attaches it when a check fails.
  const finding = {
    kind: 'refused-met',
    check: 'SALE status',
    expected: '200 (accepted)',
    actual: '400',
    exchange: { operation: 'SALE', status: 400, errorCode: 'CONTROL_INVALID' },
  };
  const found = (id: string, body: object) => ({
    attachment: { testCaseStartedId: id, mediaType: FINDING_MEDIA_TYPE, body: JSON.stringify(body) },
  });

  it('keeps the last attempt of a retried scenario, its first failure, its findings and its text attachments', () => {
    const record = RunRecord.fromNdjson(
      lines(
        pickle,
        testCase,
        started('a'),
        found('a', { ...finding, actual: '500' }),
        step('a', 'FAILED', 'first try'),
        finished('a', true),
        started('b'),
        { attachment: { testCaseStartedId: 'b', mediaType: 'text/plain', body: 'SALE 400' } },
        found('b', finding),
        step('b', 'FAILED', 'expected 200, got 400'),
        step('b', 'FAILED', 'a later step'),
        finished('b'),
        { testRunStarted: { timestamp: { seconds: 1, nanos: 500_000_000 } } },
      ),
    );
    assert.equal(record.results.length, 1);
    const [result] = record.results;
    assert.deepEqual(result, {
      name: 'a sale',
      uri: 'features/sale.feature',
      tags: ['@endpoint:SALE'],
      outcome: 'failed',
      warnings: [],
      notApplicable: undefined,
      failure: 'expected 200, got 400',
      findings: [finding],
      texts: ['SALE 400'],
    });
    assert.equal(record.startedAt, '1970-01-01T00:00:01.500Z');
    assert.deepEqual([record.finished, record.failed], [1, 1]);
  });

  it('refuses a hostile messages.ndjson naming the line and what is wrong', () => {
    const cases: Array<[string, string]> = [
      ['{"pickle":', 'line 1 is not JSON'],
      ['[1,2]', 'line 1: not a cucumber message'],
      [lines({ pickle: { id: 'p', name: 'n', uri: 'u', tags: 'x' } }), 'line 1: pickle.tags is not a list'],
      [lines({ testCase: { id: 1, pickleId: 'p' } }), 'line 1: testCase.id is not a string'],
      [lines(pickle, testCase, started('a'), finished('zz')), 'line 4: a message names test case zz, never started'],
      [lines(started('a')), 'line 1: test case t1 started before its scenario was listed'],
      [
        lines(pickle, testCase, started('a'), {
          attachment: { testCaseStartedId: 'a', mediaType: WARNING_MEDIA_TYPE, body: '{"assumption":"A-1"}' },
        }),
        'line 4: warning.check is not a string',
      ],
      [
        lines(pickle, testCase, started('a'), found('a', { ...finding, kind: 'guessed' })),
        'line 4: finding.kind is not one of refused-met, accepted-wrong, answered-wrong, sent-wrong, untraced',
      ],
      [
        lines(
          pickle,
          testCase,
          started('a'),
          found('a', { ...finding, exchange: { operation: 'SALE', status: '400' } }),
        ),
        'line 4: finding.exchange.status is not a number',
      ],
      [
        lines(pickle, testCase, started('a'), found('a', { ...finding, rule: 7 })),
        'line 4: finding.rule is not a string',
      ],
      [
        lines({ testRunFinished: { timestamp: { seconds: '1', nanos: 0 } } }),
        'line 1: testRunFinished.timestamp.seconds is not a number',
      ],
    ];
    for (const [ndjson, message] of cases)
      assert.throws(
        () => RunRecord.fromNdjson(ndjson),
        (err: unknown) => {
          assert.ok(err instanceof MessagesError);
          assert.equal(err.message, message);
          return true;
        },
      );
  });

  it('is what the runner, the page and merge read: none of them reads messages.ndjson back', () => {
    const readers = ['suite/run.ts', 'suite/certificate.ts', 'suite/merge.ts', 'suite/interrupt.ts'];
    for (const file of [...readers, 'report/bundle.ts', 'report/certification-page.ts']) {
      const text = readFileSync(new URL(`../../src/${file}`, import.meta.url), 'utf8');
      assert.doesNotMatch(text, /readFileSync\(join\([^)]*'messages\.ndjson'\)/, file);
      assert.doesNotMatch(text, /Record<string, any>/, file);
    }
  });
});
