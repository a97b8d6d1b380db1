/**
 * The evidence bundle's own files: summary.json (target, versions, counts per endpoint and tag, start
 * and end) from the run's record of cucumber's messages (run-record.ts), and manifest.json with the
 * SHA-256 of every file in the bundle, as certification programmes (OIDF, Open Banking UK) ship with their evidence.
 */
import { fileDigests, type FileDigest } from './bundle-signature.ts';
import type { Coverage } from './coverage.ts';
import { causesOf, type Cause, type CauseRules } from './causes.ts';
import type { Warning } from './findings.ts';
import { failing, RunRecord, type Outcome, type ScenarioResult } from './run-record.ts';

export type { Outcome, ScenarioResult };
/**
 * Scenarios by verdict: passed (with or without warnings), failed, not applicable to this gateway, and
 * other (skipped, pending). `warned` counts the scenarios with a warning among passed and other: an
 * @assumption scenario whose premise a gateway does not share ends early, skipped, with its warning.
 */
export interface Counts {
  passed: number;
  failed: number;
  other: number;
  warned: number;
  notApplicable: number;
}

/**
 * The run's verdict: failed if a scenario failed (or a required capability was not exercised), else passed, "with
 * warnings" when a gateway differed from an assumption; partial where the selection covers a capability the run
 * did not exercise (coverage-verdict.ts).
 */
export type RunStatus =
  'passed' | 'passed-with-warnings' | 'partial' | 'partial-with-warnings' | 'failed' | 'interrupted';
export interface Summary {
  readonly target: string;
  readonly versions: Record<string, string>;
  readonly startedAt: string | undefined;
  readonly finishedAt: string | undefined;
  readonly totals: Counts;
  readonly endpoints: Record<string, Counts>;
  readonly tags: Record<string, Counts>;
  readonly failed: ReadonlyArray<{ name: string; uri: string }>;
  readonly status: RunStatus;
  /** Every warning of the run, and their count by assumption id. */
  readonly warnings: {
    readonly total: number;
    readonly byAssumption: Record<string, number>;
    readonly list: ReadonlyArray<Warning & { scenario: string; uri: string }>;
  };
  readonly notApplicable: ReadonlyArray<{ name: string; uri: string; reason: string }>;
  /** What the run exercised, stated before the verdict (coverage.ts); absent from an interrupted run's. */
  readonly coverage?: Coverage | undefined;
  /** The failures grouped by their first cause, largest first (causes.ts, docs/certify.md "Causes"). */
  readonly causes: readonly Cause[];
}

/** A report directory's timestamp: UTC to the second, with no colons (safe on every file system). */
export const reportStamp = (): string =>
  new Date()
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-');

/** The scenarios of a messages.ndjson from elsewhere (a worker's or a shard's bundle), checked as hostile. */
export function scenarioResults(ndjson: string): { results: readonly ScenarioResult[] } {
  return { results: RunRecord.fromNdjson(ndjson).results };
}

function count(into: Record<string, Counts>, key: string, r: ScenarioResult): void {
  const c = (into[key] ??= { passed: 0, failed: 0, other: 0, warned: 0, notApplicable: 0 });
  if (r.notApplicable !== undefined && !failing(r.outcome)) c.notApplicable++;
  else if (r.outcome === 'passed') c.passed++;
  else if (failing(r.outcome)) c.failed++;
  else c.other++;
  if (r.warnings.length > 0 && !failing(r.outcome)) c.warned++;
}

/** The verdict of counted scenarios (interrupted is the runner's to say). */
export function runStatus(totals: Counts): RunStatus {
  return totals.failed > 0 ? 'failed' : totals.warned > 0 ? 'passed-with-warnings' : 'passed';
}

/** The summary of a run; `rules` are the book's facts its causes name (report/causes.ts, CAUSE_FACTS). */
export function summarize(
  record: RunRecord,
  target: string,
  versions: Record<string, string>,
  rules: CauseRules = {},
): Summary {
  const { results, meta } = record;
  const totals: Record<string, Counts> = {};
  const endpoints: Record<string, Counts> = {};
  const tags: Record<string, Counts> = {};
  for (const r of results) {
    count(totals, 'all', r);
    for (const tag of new Set(r.tags)) {
      count(tags, tag, r);
      if (tag.startsWith('@endpoint:')) count(endpoints, tag.slice('@endpoint:'.length), r);
    }
  }
  const list = results
    .filter((r) => !failing(r.outcome))
    .flatMap((r) => r.warnings.map((w) => ({ ...w, scenario: r.name, uri: r.uri })));
  const byAssumption: Record<string, number> = {};
  for (const w of list) byAssumption[w.assumption] = (byAssumption[w.assumption] ?? 0) + 1;
  const all = totals.all ?? { passed: 0, failed: 0, other: 0, warned: 0, notApplicable: 0 };
  const cucumber = meta?.implementation.version;
  const runtime = meta?.runtime;
  return {
    target,
    versions: {
      ...versions,
      ...(cucumber ? { cucumber } : {}),
      ...(runtime?.version ? { [runtime.name || 'runtime']: runtime.version } : {}),
    },
    startedAt: record.startedAt,
    finishedAt: record.finishedAt,
    totals: all,
    endpoints,
    tags,
    failed: results
      .filter((r) => r.outcome !== 'passed' && r.outcome !== 'skipped')
      .map(({ name, uri }) => ({ name, uri })),
    status: runStatus(all),
    warnings: { total: list.length, byAssumption, list },
    notApplicable: results.flatMap(({ name, uri, notApplicable: reason }) =>
      reason === undefined ? [] : [{ name, uri, reason }],
    ),
    causes: causesOf(results, rules),
  };
}

/** The endpoint × result table printed at the end of a run. */
export function endpointTable(summary: Summary): string {
  const rows = Object.entries(summary.endpoints).sort(([a], [b]) => a.localeCompare(b));
  const width = Math.max(8, ...rows.map(([name]) => name.length));
  const verdict = (c: Counts): string => (c.failed ? 'FAIL' : c.warned ? 'pass, warnings' : c.passed ? 'pass' : '-');
  const cells = (c: Counts): string[] => HEAD.map(([label, key]) => String(c[key]).padStart(label.length));
  const line = (name: string, c: Counts): string => [name.padEnd(width), ...cells(c), verdict(c)].join('  ');
  return [
    ['endpoint'.padEnd(width), ...HEAD.map(([label]) => label), 'verdict'].join('  '),
    ...rows.map(([n, c]) => line(n, c)),
    line('ALL', summary.totals),
  ].join('\n');
}

const HEAD: ReadonlyArray<readonly [string, keyof Counts]> = [
  ['passed', 'passed'],
  ['failed', 'failed'],
  ['warned', 'warned'],
  ['n/a', 'notApplicable'],
  ['skipped', 'other'],
];

/** The warnings line after the table: how many, by assumption id, most first. */
export function warningsLine(summary: Summary): string {
  const ids = Object.entries(summary.warnings.byAssumption).sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  return `warnings: ${summary.warnings.total}${
    ids.length ? ` (${ids.map(([id, n]) => `${id} ×${n}`).join(', ')}; ` + `docs/assumptions.md)` : ''
  }`;
}

/** manifest.json's content: every other file of the bundle with its size and SHA-256. */
export function manifestOf(dir: string): { files: FileDigest[] } {
  return { files: fileDigests(dir) };
}
