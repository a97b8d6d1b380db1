/**
 * Whether the committed proof record (proof/proof.json) still agrees with the ledgers and the feature
 * files: the same scenarios, every defect, and for each defect exactly the scenarios its ledger says must
 * fail. A prove run that passed fails exactly those, so a record that disagrees is stale: a ledger or a
 * scenario changed since `npm run prove -- --record` was run (test/prove/proof-record.test.ts).
 */
import type { ProofRecord } from '../report/proof.ts';
import type { ScenarioResult } from '../report/bundle.ts';
import { entryMatcher, type Ledger } from './ledger.ts';

/** A scenario as the feature files define it (a pickle): what a ledger entry selects on. */
export type DefinedScenario = Pick<ScenarioResult, 'uri' | 'name' | 'tags'>;

const MAX_LISTED = 5;
const some = (items: readonly string[]): string =>
  items.slice(0, MAX_LISTED).join('; ') +
  (items.length > MAX_LISTED ? `; … and ${items.length - MAX_LISTED} more` : '');
const key = (s: { uri: string; name: string }): string => `${s.uri}: ${s.name}`;

/** Each way the record disagrees with the ledgers and scenarios, one line each; none when it agrees. */
export function proofRecordProblems(
  record: ProofRecord,
  ledgers: ReadonlyMap<string, Ledger>,
  scenarios: readonly DefinedScenario[],
): string[] {
  const problems: string[] = [];
  const recorded = Object.entries(record.scenarios).flatMap(([uri, names]) =>
    Object.keys(names).map((name) => key({ uri, name })),
  );
  const defined = new Set(scenarios.map(key));
  const added = [...defined].filter((k) => !recorded.includes(k));
  const gone = recorded.filter((k) => !defined.has(k));
  if (added.length) problems.push(`scenarios the record does not hold: ${some(added)}`);
  if (gone.length) problems.push(`scenarios the record holds that no feature defines: ${some(gone)}`);
  const named = [...record.defects, ...record.blanket];
  const unrecorded = [...ledgers.keys()].filter((d) => !named.includes(d));
  if (unrecorded.length) problems.push(`defects the record does not name: ${unrecorded.join(', ')}`);
  const unknown = named.filter((d) => !ledgers.has(d));
  if (unknown.length) problems.push(`defects the record names that have no ledger: ${unknown.join(', ')}`);
  for (const [defect, ledger] of ledgers) {
    const blanket = ledger.mustFail.some((e) => e.all === true);
    if (blanket !== record.blanket.includes(defect)) {
      problems.push(`${defect}: the ledger ${blanket ? 'says' : 'no longer says'} "all", the record does not agree`);
      continue;
    }
    const index = record.defects.indexOf(defect);
    if (blanket || index < 0) continue;
    const matchers = ledger.mustFail.map(entryMatcher);
    const mustFail = new Set(
      scenarios.filter((s) => matchers.some((m) => m({ ...s, outcome: 'failed', warnings: [] }))).map(key),
    );
    const failed = new Set(
      Object.entries(record.scenarios).flatMap(([uri, names]) =>
        Object.entries(names).flatMap(([name, ids]) => (ids.includes(index) ? [key({ uri, name })] : [])),
      ),
    );
    const unlisted = [...mustFail].filter((k) => !failed.has(k));
    const extra = [...failed].filter((k) => !mustFail.has(k));
    if (unlisted.length) problems.push(`${defect}: the ledger's scenarios the record does not list: ${some(unlisted)}`);
    if (extra.length) problems.push(`${defect}: scenarios the record lists that the ledger does not: ${some(extra)}`);
  }
  return problems;
}
