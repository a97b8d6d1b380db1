/**
 * Judges the suite's runs against the broken mocks with the ledger: a listed scenario that passed,
 * an unlisted one that failed and an entry that matches nothing are each a finding; so is a
 * negative scenario that no defect makes fail (a check that cannot fail proves nothing).
 */
import type { ScenarioResult } from '../report/bundle.ts';
import { causesOf } from '../report/causes.ts';
import { CAUSE_FACTS } from '../report/causes.ts';
import { entryMatcher, type Ledger, type LedgerEntry } from './ledger.ts';

export interface DefectRun {
  /** undefined for the run against the correct mock. */
  readonly defect: string | undefined;
  readonly results: readonly ScenarioResult[];
}

export interface Judgement {
  readonly defect: string | undefined;
  readonly scenarios: number;
  readonly killed: readonly ScenarioResult[];
  /** Listed in the ledger, yet passed: the defect went unnoticed by a check meant to catch it. */
  readonly survived: readonly ScenarioResult[];
  /** Failed, yet not listed: either the ledger is incomplete or the scenario fails for another reason. */
  readonly unexpected: readonly ScenarioResult[];
  /** Neither passed nor failed (undefined, ambiguous, pending or skipped steps): the suite itself is broken. */
  readonly broken: readonly ScenarioResult[];
  readonly unmatchedEntries: readonly LedgerEntry[];
  /** The rule ids (or, untraced, the check) the run's failures were traced to, largest cause first. */
  readonly causes: readonly string[];
  /** Causes the ledger expects that the run did not show. */
  readonly missingCauses: readonly string[];
  /** Causes the run showed that the ledger does not name (not judged for a ledger of `all`). */
  readonly unexpectedCauses: readonly string[];
}

export const scenarioKey = (s: Pick<ScenarioResult, 'uri' | 'name'>): string => `${s.uri}: ${s.name}`;

export const isNegative = (s: ScenarioResult): boolean =>
  s.tags.some((t) => t === '@negative' || t.startsWith('@negative:'));

export function judge(run: DefectRun, ledger: Ledger | undefined): Judgement {
  const matchers = (ledger?.mustFail ?? []).map((entry) => ({ entry, matches: entryMatcher(entry) }));
  const listed = (s: ScenarioResult): boolean => matchers.some((m) => m.matches(s));
  const killed = run.results.filter((s) => s.outcome === 'failed');
  const causes = [...new Set(causesOf(run.results, CAUSE_FACTS).map((c) => c.rule ?? `untraced: ${c.check ?? ''}`))];
  const expected = ledger?.causes ?? [];
  const blanket = ledger?.mustFail.some((e) => e.all) === true;
  return {
    defect: run.defect,
    scenarios: run.results.length,
    killed,
    survived: run.results.filter((s) => s.outcome === 'passed' && listed(s)),
    unexpected: killed.filter((s) => !listed(s)),
    broken: run.results.filter((s) => s.outcome !== 'passed' && s.outcome !== 'failed'),
    unmatchedEntries: matchers.filter((m) => !run.results.some(m.matches)).map((m) => m.entry),
    causes,
    missingCauses: expected.filter((c) => !causes.includes(c)),
    unexpectedCauses: ledger?.causes === undefined || blanket ? [] : causes.filter((c) => !expected.includes(c)),
  };
}

export const isClean = (j: Judgement): boolean =>
  j.scenarios > 0 &&
  j.survived.length === 0 &&
  j.unexpected.length === 0 &&
  j.broken.length === 0 &&
  j.unmatchedEntries.length === 0 &&
  j.missingCauses.length === 0 &&
  j.unexpectedCauses.length === 0;

/**
 * Negative scenarios of the correct run that no defect's run saw failing. Defects whose ledger says
 * `all` are left out: an answer nobody can read fails every scenario and proves no particular check.
 */
export function unkilledNegatives(
  baseline: DefectRun,
  judgements: readonly Judgement[],
  blanket: ReadonlySet<string>,
): ScenarioResult[] {
  const killed = new Set(
    judgements
      .filter((j) => j.defect !== undefined && !blanket.has(j.defect))
      .flatMap((j) => j.killed.map(scenarioKey)),
  );
  return baseline.results.filter((s) => isNegative(s) && !killed.has(scenarioKey(s)));
}
