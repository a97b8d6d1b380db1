/**
 * The evidence bundle's own files: summary.json (target, versions, counts per endpoint and tag, start
 * and end) from cucumber's messages.ndjson, and manifest.json with the SHA-256 of every file in the
 * bundle, as certification programmes (OIDF, Open Banking UK) ship with their evidence.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export type Outcome = 'passed' | 'failed' | 'skipped' | 'undefined' | 'pending' | 'ambiguous' | 'unknown';
export interface Counts { passed: number; failed: number; other: number }
export interface ScenarioResult { readonly name: string; readonly uri: string; readonly tags: readonly string[]; readonly outcome: Outcome }
export interface Summary {
  readonly target: string;
  readonly versions: Record<string, string>;
  readonly startedAt: string | undefined;
  readonly finishedAt: string | undefined;
  readonly totals: Counts;
  readonly endpoints: Record<string, Counts>;
  readonly tags: Record<string, Counts>;
  readonly failed: ReadonlyArray<{ name: string; uri: string }>;
}

// Worst first: a scenario's outcome is its worst step's.
const RANK: readonly Outcome[] = ['failed', 'ambiguous', 'undefined', 'pending', 'skipped', 'unknown', 'passed'];

const isoOf = (t: { seconds: number; nanos: number } | undefined): string | undefined => t && new Date(t.seconds * 1000 + t.nanos / 1e6).toISOString();

/** A report directory's timestamp: UTC to the second, with no colons (safe on every file system). */
export const reportStamp = (): string => new Date().toISOString().replace(/\.\d+Z$/, 'Z').replaceAll(':', '-');

/** One result per executed scenario (the last attempt where a scenario was retried). */
export function scenarioResults(ndjson: string): { results: ScenarioResult[]; meta: Record<string, unknown>; started?: string | undefined; finished?: string | undefined } {
  const pickles = new Map<string, { name: string; uri: string; tags: string[] }>();
  const caseToPickle = new Map<string, string>();
  const startedCase = new Map<string, string>();
  const worst = new Map<string, Outcome>();
  const results: ScenarioResult[] = [];
  let meta: Record<string, unknown> = {};
  let started: string | undefined;
  let finished: string | undefined;
  for (const line of ndjson.split('\n')) {
    if (line.trim() === '') continue;
    const e = JSON.parse(line) as Record<string, any>;
    if (e.meta) meta = e.meta;
    else if (e.pickle) pickles.set(e.pickle.id, { name: e.pickle.name, uri: e.pickle.uri, tags: e.pickle.tags.map((t: { name: string }) => t.name) });
    else if (e.testCase) caseToPickle.set(e.testCase.id, e.testCase.pickleId);
    else if (e.testCaseStarted) startedCase.set(e.testCaseStarted.id, e.testCaseStarted.testCaseId);
    else if (e.testStepFinished) {
      const id = e.testStepFinished.testCaseStartedId;
      const status = String(e.testStepFinished.testStepResult.status).toLowerCase() as Outcome;
      const now = worst.get(id) ?? 'passed';
      worst.set(id, RANK.indexOf(status) < RANK.indexOf(now) ? status : now);
    } else if (e.testCaseFinished && !e.testCaseFinished.willBeRetried) {
      const id = e.testCaseFinished.testCaseStartedId;
      const pickle = pickles.get(caseToPickle.get(startedCase.get(id)!)!)!;
      results.push({ ...pickle, outcome: worst.get(id) ?? 'passed' });
    } else if (e.testRunStarted) started = isoOf(e.testRunStarted.timestamp);
    else if (e.testRunFinished) finished = isoOf(e.testRunFinished.timestamp);
  }
  return { results, meta, started, finished };
}

function count(into: Record<string, Counts>, key: string, outcome: Outcome): void {
  const c = (into[key] ??= { passed: 0, failed: 0, other: 0 });
  if (outcome === 'passed') c.passed++;
  else if (outcome === 'failed' || outcome === 'ambiguous' || outcome === 'undefined') c.failed++;
  else c.other++;
}

export function summarize(ndjson: string, target: string, versions: Record<string, string>): Summary {
  const { results, meta, started, finished } = scenarioResults(ndjson);
  const totals: Record<string, Counts> = {};
  const endpoints: Record<string, Counts> = {};
  const tags: Record<string, Counts> = {};
  for (const r of results) {
    count(totals, 'all', r.outcome);
    for (const tag of new Set(r.tags)) {
      count(tags, tag, r.outcome);
      if (tag.startsWith('@endpoint:')) count(endpoints, tag.slice('@endpoint:'.length), r.outcome);
    }
  }
  const runtime = meta.runtime as { name?: string; version?: string } | undefined;
  const implementation = meta.implementation as { version?: string } | undefined;
  return {
    target,
    versions: { ...versions, ...(implementation?.version ? { cucumber: implementation.version } : {}), ...(runtime?.version ? { [runtime.name ?? 'runtime']: runtime.version } : {}) },
    startedAt: started, finishedAt: finished,
    totals: totals.all ?? { passed: 0, failed: 0, other: 0 }, endpoints, tags,
    failed: results.filter((r) => r.outcome !== 'passed' && r.outcome !== 'skipped').map(({ name, uri }) => ({ name, uri })),
  };
}

/** The endpoint × result table printed at the end of a run. */
export function endpointTable(summary: Summary): string {
  const rows = Object.entries(summary.endpoints).sort(([a], [b]) => a.localeCompare(b));
  const width = Math.max(8, ...rows.map(([name]) => name.length));
  const line = (name: string, c: Counts): string => `${name.padEnd(width)}  ${String(c.passed).padStart(6)}  ${String(c.failed).padStart(6)}  ${String(c.other).padStart(7)}  ${c.failed ? 'FAIL' : c.passed ? 'pass' : '-'}`;
  return [`${'endpoint'.padEnd(width)}  ${'passed'.padStart(6)}  ${'failed'.padStart(6)}  ${'skipped'.padStart(7)}  verdict`, ...rows.map(([n, c]) => line(n, c)), line('ALL', summary.totals)].join('\n');
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)])).sort();
}

/** manifest.json's content: every other file of the bundle with its size and SHA-256. */
export function manifestOf(dir: string): { files: Array<{ path: string; bytes: number; sha256: string }> } {
  return {
    files: files(dir).filter((f) => relative(dir, f) !== 'manifest.json')
      .map((f) => ({ path: relative(dir, f), bytes: statSync(f).size, sha256: createHash('sha256').update(readFileSync(f)).digest('hex') })),
  };
}
