/**
 * The verdict read with the coverage (issue 29): PASSED only when every capability the selection
 * covers was exercised, else PARTIAL naming what is missing; a required capability (--require, a
 * profile's `require`) not exercised fails the run. The console's coverage lines are written here too,
 * so certify and merge say it in the same words.
 */
import { parse as parseTagExpression } from '@cucumber/tag-expressions';
import type { Envelope } from '@cucumber/messages';
import type { RunStatus, Summary } from './bundle.ts';
import { missingOf, type Coverage } from './coverage.ts';

/** The status once coverage is known: failed and interrupted stay; a required miss fails; a miss makes it partial. */
export function coveredStatus(status: RunStatus, coverage: Coverage): RunStatus {
  if (status === 'failed' || status === 'interrupted') return status;
  if (coverage.requiredMissing.length > 0) return 'failed';
  if (missingOf(coverage).length === 0) return status;
  return status === 'passed-with-warnings' || status === 'partial-with-warnings' ? 'partial-with-warnings' : 'partial';
}

/** The summary with its coverage and the verdict that follows from it. */
export const withCoverage = (summary: Summary, coverage: Coverage): Summary => ({
  ...summary,
  coverage,
  status: coveredStatus(summary.status, coverage),
});

/**
 * The tags of every scenario a run's messages list that `expression` selects: cucumber lists every
 * scenario of the features (a pickle each), selected or not, and runs only those the tags and shard keep.
 */
export function selectedTags(envelopes: readonly Envelope[], expression: string): string[][] {
  const selects = expression === '' ? () => true : (tags: string[]) => parseTagExpression(expression).evaluate(tags);
  return envelopes.flatMap((e) => {
    const tags = e.pickle?.tags.map((t) => t.name);
    return tags !== undefined && selects(tags) ? [tags] : [];
  });
}

/** The console's coverage lines, printed before the verdict. */
export function coverageLines(coverage: Coverage): string[] {
  const missing = missingOf(coverage);
  const outside = coverage.notExercised.filter((m) => !m.inSelection);
  return [
    `coverage: ${coverage.exercised.length} of the ${coverage.selected} capabilities the selection covers ` +
      'were exercised',
    ...missing.map((m) => `not exercised: ${m.capability} (${m.why}: ${m.detail}); to include it: ${m.include}`),
    ...(outside.length
      ? [
          `left out of the selection (${outside.length}, no bearing on the verdict): ` +
            `${outside.map((m) => m.capability).join(', ')}`,
        ]
      : []),
  ];
}

/** What the verdict line adds: the capabilities that made it PARTIAL, or the required ones that failed it. */
export function verdictNote(coverage: Coverage | undefined): string {
  if (coverage === undefined) return '';
  const required = coverage.requiredMissing;
  if (required.length) return `; required but not exercised: ${required.join(', ')}`;
  const missing = missingOf(coverage);
  return missing.length ? `; not exercised: ${missing.map((m) => m.capability).join(', ')}` : '';
}
