// certify's progress from the run's record of cucumber's messages: on a terminal one line redrawn in place, in CI a plain
// line at every tenth and at the end; failures counted once per scenario, warnings as attached.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Envelope } from '@cucumber/messages';
import { WARNING_MEDIA_TYPE } from '../../src/report/findings.ts';
import { progressReporter } from '../../src/suite/progress.ts';
import { RunRecord } from '../../src/report/run-record.ts';

const step = (id: string, status: string): Envelope =>
  ({
    testStepFinished: {
      testCaseStartedId: id,
      testStepId: 's',
      testStepResult: { status, duration: { seconds: 0, nanos: 0 } },
      timestamp: { seconds: 0, nanos: 0 },
    },
  }) as unknown as Envelope;
const warningBody = JSON.stringify({ assumption: 'A-21', check: 'error code', expected: 'E', actual: 'F' });
const warning = (id: string): Envelope =>
  ({
    attachment: {
      testCaseStartedId: id,
      mediaType: WARNING_MEDIA_TYPE,
      body: warningBody,
      contentEncoding: 'IDENTITY',
    },
  }) as unknown as Envelope;
const done = (id: string, willBeRetried = false): Envelope => ({
  testCaseFinished: { testCaseStartedId: id, willBeRetried, timestamp: { seconds: 0, nanos: 0 } },
});
/** The scenario's pickle, test case and start: what the record needs before a step of it. */
const started = (n: number, attempt = 0): Envelope[] =>
  [
    { pickle: { id: `p${n}`, name: `scenario ${n}`, uri: 'x.feature', tags: [] } },
    { testCase: { id: `t${n}`, pickleId: `p${n}` } },
    { testCaseStarted: { id: `c${n}-${attempt}`, testCaseId: `t${n}`, attempt } },
  ] as unknown as Envelope[];

/** Twenty scenarios: #3 fails on two steps, #5 is retried once, #7 and #8 warn (three warnings). */
function run(isTTY: boolean): string {
  let written = '';
  let clock = 0;
  const reporter = progressReporter(20, { isTTY, write: (t: string) => (written += t) }, () => clock);
  const record = new RunRecord();
  const send = (...envelopes: Envelope[]): void => {
    for (const e of envelopes) {
      record.add(e);
      reporter.update(record);
    }
  };
  for (let i = 1; i <= 20; i++) {
    clock += 100;
    send(...started(i));
    const id = `c${i}-0`;
    if (i === 3) send(step(id, 'FAILED'), step(id, 'FAILED'));
    if (i === 5) send(done(id, true), ...started(i, 1).slice(2));
    const last = i === 5 ? `c${i}-1` : id;
    if (i === 7) send(warning(id), warning(id));
    if (i === 8) send(warning(id));
    send(step(last, 'PASSED'), done(last));
  }
  reporter.end();
  return written;
}

describe('progressReporter', () => {
  it('in CI: a line at every tenth of the run, failures once per scenario, retries not counted', () => {
    const lines = run(false).trim().split('\n');
    assert.equal(lines.length, 10);
    assert.equal(lines[0], 'certify: 2/20 scenarios, 0 failed, 0 warnings, 0.2 s');
    assert.equal(lines[1], 'certify: 4/20 scenarios, 1 failed, 0 warnings, 0.4 s');
    assert.equal(lines[9], 'certify: 20/20 scenarios, 1 failed, 3 warnings, 2.0 s');
  });

  it('on a terminal: one line redrawn per scenario, ended with a line break', () => {
    const text = run(true);
    assert.equal(text.split('\r\x1b[K').length - 1, 20);
    assert.ok(text.endsWith('certify: 20/20 scenarios, 1 failed, 3 warnings, 2.0 s\n'));
    assert.equal(text.split('\n').length, 2);
  });
});
