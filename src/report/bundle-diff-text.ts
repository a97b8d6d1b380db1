/**
 * `bundle diff`'s Markdown: a heading, the two runs, the verdict line, then one section per kind of
 * change with what it holds. Every text from a bundle goes through the Markdown writer (markdown.ts).
 */
import type { BundleDiff, RunFacts, ScenarioChange, WarningChange } from './bundle-diff.ts';
import { regressed } from './bundle-diff.ts';
import { mdItem, mdTable, mdText } from './markdown.ts';

const run = (label: string, r: RunFacts): string =>
  `- ${label}: ${mdText(r.dir)} (payconform ${mdText(r.payconform)}, profile ${mdText(r.profile)}, ` +
  `${mdText(r.status)}, ${r.scenarios} scenarios)`;

const changes = (rows: readonly ScenarioChange[]): string[] =>
  mdTable(
    ['scenario', 'before', 'after'],
    rows.map((c) => [c.name, c.before, c.after]),
  );

const warnings = (rows: readonly WarningChange[]): string[] =>
  mdTable(
    ['scenario', 'assumption', 'check'],
    rows.map((w) => [w.scenario, w.assumption, w.check]),
  );

function section(title: string, count: number, body: () => string[]): string[] {
  return count === 0 ? [] : ['', `## ${title} (${count})`, '', ...body()];
}

export function diffMarkdown(d: BundleDiff): string[] {
  const lost = d.regressions.reduce((n, g) => n + g.scenarios.length, 0);
  const verdict = regressed(d)
    ? `**REGRESSED**: ${lost} scenario(s) under ${d.regressions.length} cause(s), ` +
      `${d.coverageLost.length} capability(ies) no longer exercised`
    : '**No regression**: no scenario that passed in A fails in B, and B exercises all A did';
  return [
    '# payconform bundle diff',
    '',
    run('A', d.a),
    run('B', d.b),
    ...d.caveats.map((c) => `- note: ${mdText(c)}`),
    '',
    verdict,
    ...d.regressions.flatMap((g) => [
      '',
      `## Regressed under ${mdText(g.cause)} (${g.scenarios.length})`,
      '',
      `Fix: ${mdText(g.fix, 600)}`,
      '',
      ...changes(g.scenarios),
    ]),
    ...section('Fixed', d.fixed.length, () => changes(d.fixed)),
    ...section('New warnings', d.newWarnings.length, () => warnings(d.newWarnings)),
    ...section('Warnings gone', d.goneWarnings.length, () => warnings(d.goneWarnings)),
    ...section('Coverage lost', d.coverageLost.length, () => d.coverageLost.map((c) => mdItem(c))),
    ...section('Coverage gained', d.coverageGained.length, () => d.coverageGained.map((c) => mdItem(c))),
    ...section('Only in A', d.onlyInA.length, () => d.onlyInA.map((n) => mdItem(n))),
    ...section('Only in B', d.onlyInB.length, () => d.onlyInB.map((n) => mdItem(n))),
  ];
}
