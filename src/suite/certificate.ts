/**
 * Writes report.html, the certification page (src/report/certification-page.ts), from a run's record
 * of cucumber's messages and its summary, with the facts only the suite knows: the rule book's clauses and fixes, the
 * assumptions' statements (docs/assumptions.md), the SHA-256 of the spec certified against, and the
 * proof that each passed check can fail (proof/proof.json, report/proof.ts).
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageFile, packageVersion } from '../package-root.ts';
import { certificationPage } from '../report/certification-page.ts';
import type { Summary } from '../report/bundle.ts';
import type { RunRecord, ScenarioResult } from '../report/run-record.ts';
import { proofOfRun, readProofRecord, type RunProof } from '../report/proof.ts';
import { RULES } from '../rules/book.ts';

/** What summary.json records of a run besides the counts (run.ts writes it; merge reads it back). */
export interface RunFacts {
  readonly live: boolean;
  readonly strict: boolean;
  readonly profile: string;
  readonly selection: string;
  readonly shard: string | null;
  readonly merchant?: string | undefined;
  readonly endpointIds?: readonly string[] | undefined;
  /** Where the gateway profile departs from the spec ("key: clause"), so no run passes silently on them. */
  readonly deviations?: readonly string[] | undefined;
  /** SHA-256 of the spec certified against: shards of one run share it (merge checks). */
  readonly specSha256?: string | undefined;
}

/** SHA-256 of the spec this payconform certifies against (docs/spec/api-spec.md). */
export function specSha256(): string {
  return createHash('sha256')
    .update(readFileSync(packageFile('docs/spec/api-spec.md')))
    .digest('hex');
}

let assumptions: Record<string, string> | undefined;

/** A-n → the assumption's statement, from the table of docs/assumptions.md. */
function assumptionStatements(): Record<string, string> {
  assumptions ??= Object.fromEntries(
    readFileSync(packageFile('docs/assumptions.md'), 'utf8')
      .split('\n')
      .flatMap((line) => {
        const [, id, statement] = /^\| (A-\d+) \| [^|]* \| ([^|]*) \|/.exec(line) ?? [];
        return id === undefined || statement === undefined ? [] : [[id, statement.replace(/\*\*|`/g, '').trim()]];
      }),
  );
  return assumptions;
}

/** The packaged proof record's word on each check the run passed (summary.json's `proof`, the page's section). */
export function certificateProof(results: readonly ScenarioResult[]): RunProof {
  return proofOfRun(results, readProofRecord(packageFile('proof/proof.json')), packageVersion());
}

/** report.html of the run `record` holds (in memory: nothing is read back from the folder). */
export function writeCertificationPage(
  dir: string,
  record: RunRecord,
  summary: Summary,
  facts: RunFacts,
  interrupted = false,
  /** The login in full, only to mask it where an exchange quotes it (never written itself). */
  login?: string,
): void {
  const page = certificationPage(record.results, summary, {
    target: summary.target,
    merchantLogin: facts.merchant,
    loginInExchanges: login,
    endpointIds: facts.endpointIds ?? [],
    payconform: packageVersion(),
    specSha256: facts.specSha256 ?? specSha256(),
    profile: facts.profile,
    deviations: facts.deviations ?? [],
    selection: facts.selection,
    shard: facts.shard,
    strict: facts.strict,
    live: facts.live,
    interrupted,
    rules: Object.fromEntries(RULES.map((r) => [r.id, { clause: r.clause, hint: r.hint }])),
    assumptions: assumptionStatements(),
    causes: summary.causes,
    proof: certificateProof(record.results),
  });
  writeFileSync(join(dir, 'report.html'), page);
}
