/**
 * certify's progress, from cucumber's messages as they come: scenarios finished of those selected,
 * failures, warnings and time. On a terminal one line redrawn in place; elsewhere (CI logs) a plain
 * line at every tenth of the run and at its end.
 */
import type { Envelope } from '@cucumber/messages';
import { WARNING_MEDIA_TYPE } from '../report/findings.ts';

export interface ProgressOut {
  write(text: string): unknown;
  readonly isTTY?: boolean | undefined;
}

const FAILING = new Set(['FAILED', 'AMBIGUOUS', 'UNDEFINED']);

/** A message handler that reports progress on `out`; call its `end` once the run is over. */
export function progressReporter(
  total: number,
  out: ProgressOut,
  now: () => number = Date.now,
): { onMessage: (e: Envelope) => void; end: () => void } {
  const started = now();
  const failedCases = new Set<string>();
  let done = 0;
  let failed = 0;
  let warnings = 0;
  let lastTenth = 0;
  const line = (): string =>
    `${done}/${total} scenarios, ${failed} failed, ${warnings} ` +
    `warning${warnings === 1 ? '' : 's'}, ${((now() - started) / 1000).toFixed(1)} s`;
  const show = (): void => {
    if (out.isTTY) {
      out.write(`\r\x1b[Kcertify: ${line()}`);
      return;
    }
    const tenth = Math.floor((done * 10) / Math.max(total, 1));
    if (tenth > lastTenth || done === total) {
      lastTenth = tenth;
      out.write(`certify: ${line()}\n`);
    }
  };
  return {
    onMessage(e) {
      if (e.testStepFinished && FAILING.has(String(e.testStepFinished.testStepResult.status)))
        failedCases.add(e.testStepFinished.testCaseStartedId);
      else if (e.attachment?.mediaType === WARNING_MEDIA_TYPE) warnings++;
      else if (e.testCaseFinished && !e.testCaseFinished.willBeRetried) {
        done++;
        if (failedCases.has(e.testCaseFinished.testCaseStartedId)) failed++;
        show();
      }
    },
    end() {
      if (out.isTTY && done > 0) out.write('\n');
    },
  };
}
