/**
 * An interrupted run (SIGINT, SIGTERM) leaves a bundle that says so and nothing that passes for a
 * complete report: junit.xml is written only at the end and cucumber.html is finished only then
 * (report/cucumber-files.ts, whose thread is stopped first), so what exists of them is removed;
 * messages.ndjson is written again from the messages received (whole lines, as far as the run got);
 * summary.json says `"status": "interrupted"` with the counts of the scenarios that finished; the
 * manifest lists what is there.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { manifestOf, summarize, type Summary } from '../report/bundle.ts';
import { CAUSE_FACTS } from '../report/causes.ts';
import { ndjsonOf, type RunRecord } from '../report/run-record.ts';

/** Files complete only at the end of a run. */
const WRITTEN_AT_THE_END = ['junit.xml', 'cucumber.html'];

/** `page` writes report.html, the certification page, which says INTERRUPTED. */
export function writeInterruptedBundle(
  dir: string,
  record: RunRecord,
  target: string,
  versions: Record<string, string>,
  extra: object,
  page: (summary: Summary) => void,
): Summary {
  for (const file of WRITTEN_AT_THE_END) rmSync(join(dir, file), { force: true });
  writeFileSync(join(dir, 'messages.ndjson'), ndjsonOf(record.envelopes));
  const summary: Summary = { ...summarize(record, target, versions, CAUSE_FACTS), status: 'interrupted' };
  writeFileSync(join(dir, 'summary.json'), `${JSON.stringify({ ...summary, ...extra }, null, 2)}\n`);
  page(summary);
  writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifestOf(dir), null, 2)}\n`);
  return summary;
}
