/**
 * The evidence bundle's own files: summary.json (target, versions, counts per endpoint and tag, start
 * and end) from cucumber's messages.ndjson, and manifest.json with the SHA-256 of every file in the
 * bundle, as certification programmes (OIDF, Open Banking UK) ship with their evidence.
 */
import { fileDigests, type FileDigest } from './bundle-signature.ts';
import { NOT_APPLICABLE_MEDIA_TYPE, WARNING_MEDIA_TYPE, type Warning } from './findings.ts';

export type Outcome = 'passed' | 'failed' | 'skipped' | 'undefined' | 'pending' | 'ambiguous' | 'unknown';
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
export interface ScenarioResult {
  readonly name: string;
  readonly uri: string;
  readonly tags: readonly string[];
  readonly outcome: Outcome;
  /** Where the gateway differed from an assumption, without failing (docs/certify.md). */
  readonly warnings: readonly Warning[];
  /** Why the scenario does not apply to this gateway (a profile's notApplicable, a base URL without a prefix). */
  readonly notApplicable?: string | undefined;
}

/**
 * The run's verdict: failed if a scenario failed, else passed, "with warnings" when a gateway differed from an
 * assumption.
 */
export type RunStatus = 'passed' | 'passed-with-warnings' | 'failed' | 'interrupted';
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
}

// Worst first: a scenario's outcome is its worst step's.
const RANK: readonly Outcome[] = ['failed', 'ambiguous', 'undefined', 'pending', 'skipped', 'unknown', 'passed'];

const isoOf = (t: { seconds: number; nanos: number } | undefined): string | undefined =>
  t && new Date(t.seconds * 1000 + t.nanos / 1e6).toISOString();

/** A report directory's timestamp: UTC to the second, with no colons (safe on every file system). */
export const reportStamp = (): string =>
  new Date()
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-');

/** One result per executed scenario (the last attempt where a scenario was retried). */
export function scenarioResults(ndjson: string): {
  results: ScenarioResult[];
  meta: Record<string, unknown>;
  started?: string | undefined;
  finished?: string | undefined;
} {
  const pickles = new Map<string, { name: string; uri: string; tags: string[] }>();
  const caseToPickle = new Map<string, string>();
  const startedCase = new Map<string, string>();
  const worst = new Map<string, Outcome>();
  const warnings = new Map<string, Warning[]>();
  const notApplicable = new Map<string, string>();
  const results: ScenarioResult[] = [];
  let meta: Record<string, unknown> = {};
  let started: string | undefined;
  let finished: string | undefined;
  for (const line of ndjson.split('\n')) {
    if (line.trim() === '') continue;
    const e = JSON.parse(line) as Record<string, any>;
    if (e.meta) meta = e.meta;
    else if (e.pickle)
      pickles.set(e.pickle.id, {
        name: e.pickle.name,
        uri: e.pickle.uri,
        tags: e.pickle.tags.map((t: { name: string }) => t.name),
      });
    else if (e.testCase) caseToPickle.set(e.testCase.id, e.testCase.pickleId);
    else if (e.attachment?.mediaType === WARNING_MEDIA_TYPE) {
      const id = e.attachment.testCaseStartedId as string;
      warnings.set(id, [...(warnings.get(id) ?? []), JSON.parse(e.attachment.body) as Warning]);
    } else if (e.attachment?.mediaType === NOT_APPLICABLE_MEDIA_TYPE)
      notApplicable.set(e.attachment.testCaseStartedId, (JSON.parse(e.attachment.body) as { reason: string }).reason);
    else if (e.testCaseStarted) startedCase.set(e.testCaseStarted.id, e.testCaseStarted.testCaseId);
    else if (e.testStepFinished) {
      const id = e.testStepFinished.testCaseStartedId;
      const status = String(e.testStepFinished.testStepResult.status).toLowerCase() as Outcome;
      const now = worst.get(id) ?? 'passed';
      worst.set(id, RANK.indexOf(status) < RANK.indexOf(now) ? status : now);
    } else if (e.testCaseFinished && !e.testCaseFinished.willBeRetried) {
      const id = e.testCaseFinished.testCaseStartedId;
      const pickle = pickles.get(caseToPickle.get(startedCase.get(id)!)!)!;
      results.push({
        ...pickle,
        outcome: worst.get(id) ?? 'passed',
        warnings: warnings.get(id) ?? [],
        notApplicable: notApplicable.get(id),
      });
    } else if (e.testRunStarted) started = isoOf(e.testRunStarted.timestamp);
    else if (e.testRunFinished) finished = isoOf(e.testRunFinished.timestamp);
  }
  return { results, meta, started, finished };
}

const failing = (outcome: Outcome): boolean =>
  outcome === 'failed' || outcome === 'ambiguous' || outcome === 'undefined';

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

export function summarize(ndjson: string, target: string, versions: Record<string, string>): Summary {
  const { results, meta, started, finished } = scenarioResults(ndjson);
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
  const runtime = meta.runtime as { name?: string; version?: string } | undefined;
  const implementation = meta.implementation as { version?: string } | undefined;
  return {
    target,
    versions: {
      ...versions,
      ...(implementation?.version ? { cucumber: implementation.version } : {}),
      ...(runtime?.version ? { [runtime.name ?? 'runtime']: runtime.version } : {}),
    },
    startedAt: started,
    finishedAt: finished,
    totals: all,
    endpoints,
    tags,
    failed: results
      .filter((r) => r.outcome !== 'passed' && r.outcome !== 'skipped')
      .map(({ name, uri }) => ({ name, uri })),
    status: runStatus(all),
    warnings: { total: list.length, byAssumption, list },
    notApplicable: results
      .filter((r) => r.notApplicable !== undefined)
      .map(({ name, uri, notApplicable: reason }) => ({ name, uri, reason: reason! })),
  };
}

/** The endpoint × result table printed at the end of a run. */
export function endpointTable(summary: Summary): string {
  const rows = Object.entries(summary.endpoints).sort(([a], [b]) => a.localeCompare(b));
  const width = Math.max(8, ...rows.map(([name]) => name.length));
  const verdict = (c: Counts): string => (c.failed ? 'FAIL' : c.warned ? 'pass, warnings' : c.passed ? 'pass' : '-');
  const cells = (c: Counts): string[] =>
    [c.passed, c.failed, c.warned, c.notApplicable, c.other].map((n, i) => String(n).padStart(HEAD[i].length));
  const line = (name: string, c: Counts): string => [name.padEnd(width), ...cells(c), verdict(c)].join('  ');
  return [
    ['endpoint'.padEnd(width), ...HEAD, 'verdict'].join('  '),
    ...rows.map(([n, c]) => line(n, c)),
    line('ALL', summary.totals),
  ].join('\n');
}

const HEAD = ['passed', 'failed', 'warned', 'n/a', 'skipped'];

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
