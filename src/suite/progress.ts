/**
 * certify's progress, from the run's record of cucumber's messages as they come (run-record.ts):
 * scenarios finished of those selected, failures, warnings and time. On a terminal one line redrawn
 * in place; elsewhere (CI logs) a plain line at every tenth of the run and at its end.
 */
import type { RunRecord } from '../report/run-record.ts';

export interface ProgressOut {
  write(text: string): unknown;
  readonly isTTY?: boolean | undefined;
}

/** A reporter of the run's record on `out`: call `update` after each message the record takes, `end` once over. */
export function progressReporter(
  total: number,
  out: ProgressOut,
  now: () => number = Date.now,
): { update: (record: RunRecord) => void; end: () => void } {
  const started = now();
  let done = 0;
  let lastTenth = 0;
  const line = (record: RunRecord): string =>
    `${done}/${total} scenarios, ${record.failed} failed, ${record.warningsSeen} ` +
    `warning${record.warningsSeen === 1 ? '' : 's'}, ${((now() - started) / 1000).toFixed(1)} s`;
  const show = (record: RunRecord): void => {
    if (out.isTTY) {
      out.write(`\r\x1b[Kcertify: ${line(record)}`);
      return;
    }
    const tenth = Math.floor((done * 10) / Math.max(total, 1));
    if (tenth > lastTenth || done === total) {
      lastTenth = tenth;
      out.write(`certify: ${line(record)}\n`);
    }
  };
  return {
    update(record) {
      // A line only when a scenario has finished: the record counts the rest as it goes.
      if (record.finished === done) return;
      done = record.finished;
      show(record);
    },
    end() {
      if (out.isTTY && done > 0) out.write('\n');
    },
  };
}
