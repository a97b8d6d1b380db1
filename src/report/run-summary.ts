/**
 * A received bundle's verdict, coverage and causes for a CI job (`payconform bundle summary`):
 * recomputed from its messages as `bundle merge` does (summary.json is only believed where it says
 * worse: an interrupted run stays interrupted), then written as Markdown for the job summary or as
 * workflow annotations, one per cause and per capability not exercised.
 */
import { CAUSE_FACTS, actorWords } from './causes.ts';
import { coverageOf } from './coverage.ts';
import { selectedTags, withCoverage } from './coverage-verdict.ts';
import { summarize, type Summary } from './bundle.ts';
import type { BundleView } from './bundle-view.ts';
import { RunRecord } from './run-record.ts';
import { mdTable, mdText } from './markdown.ts';
import { workflowAnnotation } from './workflow-command.ts';

export function summaryOf(view: BundleView): Summary {
  const summary = withCoverage(
    summarize(RunRecord.of(view.envelopes), view.target, { payconform: view.payconform }, CAUSE_FACTS),
    coverageOf(view.results, {
      selection: selectedTags(view.envelopes, view.selection),
      tags: view.selection,
      shard: view.shard,
      profile: view.profile,
      live: view.live,
      required: view.required,
    }),
  );
  return view.status === 'interrupted' ? { ...summary, status: 'interrupted' } : summary;
}

export const verdictWord = (s: Summary): string => s.status.toUpperCase().replaceAll('-', ' ');

export function summaryMarkdown(s: Summary, view: BundleView): string[] {
  const { totals, coverage } = s;
  const notExercised = coverage?.notExercised.filter((m) => m.inSelection) ?? [];
  return [
    `# payconform certify: ${verdictWord(s)}`,
    '',
    `- target: ${mdText(s.target)}; profile ${mdText(view.profile)}; payconform ${mdText(view.payconform)}`,
    `- selection: ${mdText(view.selection || 'every scenario')}${view.shard ? `; shard ${mdText(view.shard)}` : ''}`,
    `- ${totals.passed} passed, ${totals.failed} failed, ${totals.notApplicable} not applicable, ` +
      `${totals.other} not run; ${s.warnings.total} warning(s)`,
    ...(coverage
      ? [
          '',
          `## Coverage: ${coverage.exercised.length} of ${coverage.selected} capabilities exercised`,
          ...(notExercised.length === 0
            ? []
            : [
                '',
                ...mdTable(
                  ['not exercised', 'why', 'to include it'],
                  notExercised.map((m) => [m.capability, `${m.why}: ${m.detail}`, m.include]),
                ),
              ]),
        ]
      : []),
    ...(s.causes.length === 0
      ? []
      : [
          '',
          `## Causes (${s.causes.length}), largest first`,
          '',
          ...mdTable(
            ['failures', 'cause', 'who must act', 'fix'],
            s.causes.map((c) => [
              String(c.scenarios.length + c.blocked.length),
              `${c.critical ? 'CRITICAL ' : ''}${c.rule ?? c.check ?? '?'}`,
              actorWords(c.actor),
              c.fix,
            ]),
          ),
        ]),
  ];
}

/** An error per cause, a warning per capability the selection covers that the run did not exercise. */
export function summaryAnnotations(s: Summary): string[] {
  const missing = s.coverage?.notExercised.filter((m) => m.inSelection) ?? [];
  return [
    ...s.causes.map((c) => {
      const names = c.scenarios.map((e) => e.name);
      const shown = names.slice(0, 5).join('; ') + (names.length > 5 ? `; and ${names.length - 5} more` : '');
      return workflowAnnotation(
        'error',
        `payconform: ${c.rule ?? c.check ?? 'untraced'} (${c.scenarios.length + c.blocked.length} failed)`,
        `${actorWords(c.actor)} must act: ${c.fix}\nScenarios: ${shown}`,
      );
    }),
    ...missing.map((m) =>
      workflowAnnotation('warning', `payconform: ${m.capability} not exercised`, `${m.why}: ${m.detail}; ${m.include}`),
    ),
  ];
}
