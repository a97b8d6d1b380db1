/**
 * What changed between two certify runs (`payconform bundle diff A B`): per scenario, matched by its
 * name, what regressed (grouped under its cause, as the run's own causes are), what was fixed, the
 * warnings that are new or gone, the scenarios only one run has, and the capabilities one run
 * exercised and the other did not. Both bundles are read as hostile (bundle-view.ts).
 */
import { coverageOf } from './coverage.ts';
import { CAUSE_FACTS, fixOf, traceFailure } from './causes.ts';
import { failing, type ScenarioResult } from './run-record.ts';
import type { BundleView } from './bundle-view.ts';
import type { Warning } from './findings.ts';

/** What became of a scenario in a run. */
export type Verdict = 'passed' | 'failed' | 'not applicable' | 'not run' | 'absent';

export interface ScenarioChange {
  readonly name: string;
  readonly before: Verdict;
  readonly after: Verdict;
}

/** Regressed scenarios under the cause the later run traces them to. */
export interface RegressionGroup {
  /** The rule's id, or the check of an untraced cause. */
  readonly cause: string;
  readonly fix: string;
  readonly scenarios: readonly ScenarioChange[];
}

export interface WarningChange {
  readonly scenario: string;
  readonly assumption: string;
  readonly check: string;
}

export interface RunFacts {
  readonly dir: string;
  readonly payconform: string;
  readonly profile: string;
  readonly status: string;
  readonly scenarios: number;
}

export interface BundleDiff {
  readonly a: RunFacts;
  readonly b: RunFacts;
  /** Why the two may not be comparable scenario for scenario (other versions or profiles), else empty. */
  readonly caveats: readonly string[];
  readonly regressions: readonly RegressionGroup[];
  readonly fixed: readonly ScenarioChange[];
  readonly newWarnings: readonly WarningChange[];
  readonly goneWarnings: readonly WarningChange[];
  readonly onlyInA: readonly string[];
  readonly onlyInB: readonly string[];
  readonly coverageGained: readonly string[];
  readonly coverageLost: readonly string[];
}

function verdictOf(r: ScenarioResult | undefined): Verdict {
  if (r === undefined) return 'absent';
  if (failing(r.outcome)) return 'failed';
  if (r.notApplicable !== undefined) return 'not applicable';
  return r.outcome === 'passed' ? 'passed' : 'not run';
}

/**
 * The scenarios by name; a name that comes again (an outline's rows with one name) is numbered in
 * the run's order, `name (2)`, so both runs' rows pair up in order.
 */
function byName(results: readonly ScenarioResult[]): Map<string, ScenarioResult> {
  const out = new Map<string, ScenarioResult>();
  const seen = new Map<string, number>();
  for (const r of results) {
    const n = (seen.get(r.name) ?? 0) + 1;
    seen.set(r.name, n);
    out.set(n === 1 ? r.name : `${r.name} (${n})`, r);
  }
  return out;
}

const warningKey = (scenario: string, w: Warning): string => `${scenario}\u0000${w.assumption}\u0000${w.check}`;

function warningsOf(runs: Map<string, ScenarioResult>): Map<string, WarningChange> {
  const out = new Map<string, WarningChange>();
  for (const [scenario, r] of runs)
    for (const w of r.warnings)
      out.set(warningKey(scenario, w), { scenario, assumption: w.assumption, check: w.check });
  return out;
}

function exercised(view: BundleView): Set<string> {
  const coverage = coverageOf(view.results, {
    selection: view.results.map((r) => r.tags),
    tags: '',
    shard: null,
    profile: view.profile,
    live: false,
    required: [],
  });
  return new Set(coverage.exercised);
}

const facts = (v: BundleView): RunFacts => ({
  dir: v.dir,
  payconform: v.payconform,
  profile: v.profile,
  status: v.status,
  scenarios: v.results.length,
});

export function diffBundles(a: BundleView, b: BundleView): BundleDiff {
  const before = byName(a.results);
  const after = byName(b.results);
  const groups = new Map<string, { fix: string; scenarios: ScenarioChange[] }>();
  const fixed: ScenarioChange[] = [];
  for (const [name, r] of after) {
    const change = { name, before: verdictOf(before.get(name)), after: verdictOf(r) };
    if (change.after === 'failed' && change.before !== 'failed') {
      const traced = traceFailure(r, CAUSE_FACTS);
      const cause = traced.rule ?? `untraced: ${traced.check ?? 'no finding'}`;
      const rule = traced.rule === null ? undefined : CAUSE_FACTS[traced.rule];
      const group = groups.get(cause) ?? { fix: fixOf(traced.kind, traced.rule, rule, traced.mistake), scenarios: [] };
      group.scenarios.push(change);
      groups.set(cause, group);
    }
    if (change.before === 'failed' && change.after !== 'failed') fixed.push(change);
  }
  const warnedBefore = warningsOf(before);
  const warnedAfter = warningsOf(after);
  const coveredBefore = exercised(a);
  const coveredAfter = exercised(b);
  const caveats: string[] = [];
  if (a.payconform !== b.payconform)
    caveats.push(`other payconform versions (${a.payconform}, ${b.payconform}): scenarios matched by name`);
  if (a.profile !== b.profile)
    caveats.push(`other gateway profiles (${a.profile}, ${b.profile}): scenarios matched by name`);
  return {
    a: facts(a),
    b: facts(b),
    caveats,
    regressions: [...groups]
      .map(([cause, g]) => ({ cause, fix: g.fix, scenarios: g.scenarios }))
      .sort((x, y) => y.scenarios.length - x.scenarios.length || x.cause.localeCompare(y.cause)),
    fixed,
    newWarnings: [...warnedAfter].filter(([k]) => !warnedBefore.has(k)).map(([, w]) => w),
    goneWarnings: [...warnedBefore].filter(([k]) => !warnedAfter.has(k)).map(([, w]) => w),
    onlyInA: [...before.keys()].filter((n) => !after.has(n)),
    onlyInB: [...after.keys()].filter((n) => !before.has(n)),
    coverageGained: [...coveredAfter].filter((c) => !coveredBefore.has(c)),
    coverageLost: [...coveredBefore].filter((c) => !coveredAfter.has(c)),
  };
}

/** Whether B is worse than A: a scenario regressed or a capability is no longer exercised. */
export const regressed = (d: BundleDiff): boolean => d.regressions.length > 0 || d.coverageLost.length > 0;
