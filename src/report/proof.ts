/**
 * The certificate's own proof (docs/prove.md, "The proof record"): for each check a run passed, the
 * deliberately broken gateways that the same check failed against in the last `npm run prove --
 * --record`, with that run's date and the mutation scores of the signer and the rule book. Read from
 * proof/proof.json, which ships with the package; a check the record does not hold is "not proven".
 */
import { existsSync, readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import type { ScenarioResult } from './run-record.ts';

/** A folder's mutation score, with where the figure comes from (Stryker's report, or docs/mutation.md). */
export interface MutationScore {
  /** The folder measured: src/signing (the signer) or src/rules (the rule book). */
  readonly of: string;
  /** Per cent of the counted mutants detected (killed or timed out), two decimals. */
  readonly score: number;
  readonly detected: number;
  /** Detected, survived and not covered; errors and ignored mutants are not counted, as Stryker counts. */
  readonly counted: number;
  /** When it was measured (UTC date or time). */
  readonly measured: string;
  readonly source: string;
}

/** proof/proof.json: written by `npm run prove -- --record` when prove passes (src/prove/proof-record.ts). */
export interface ProofRecord {
  /** When the proof run started, UTC. */
  readonly date: string;
  readonly payconform: string;
  /** The git commit the proof ran on, when known, and whether the tree had changes not committed. */
  readonly commit?: string | undefined;
  readonly uncommitted?: boolean | undefined;
  /** The defects the scenarios' lists refer to by index. */
  readonly defects: readonly string[];
  /** Defects that fail every scenario (ledger `all`): they prove no particular check, so no list names them. */
  readonly blanket: readonly string[];
  /** Feature uri → scenario name → indexes in `defects` of the defects it failed against. */
  readonly scenarios: Readonly<Record<string, Readonly<Record<string, readonly number[]>>>>;
  readonly mutation: readonly MutationScore[];
}

const MUTATION_SCORE = {
  type: 'object',
  required: ['of', 'score', 'detected', 'counted', 'measured', 'source'],
  additionalProperties: false,
  properties: {
    of: { type: 'string' },
    score: { type: 'number', minimum: 0, maximum: 100 },
    detected: { type: 'integer', minimum: 0 },
    counted: { type: 'integer', minimum: 0 },
    measured: { type: 'string' },
    source: { type: 'string' },
  },
} as const;

const SCHEMA = {
  type: 'object',
  required: ['date', 'payconform', 'defects', 'blanket', 'scenarios', 'mutation'],
  additionalProperties: false,
  properties: {
    $comment: { type: 'string' },
    date: { type: 'string' },
    payconform: { type: 'string' },
    commit: { type: 'string' },
    uncommitted: { type: 'boolean' },
    defects: { type: 'array', items: { type: 'string' } },
    blanket: { type: 'array', items: { type: 'string' } },
    scenarios: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        additionalProperties: { type: 'array', items: { type: 'integer', minimum: 0 } },
      },
    },
    mutation: { type: 'array', items: MUTATION_SCORE },
  },
} as const;

const validate = new Ajv({ allErrors: false }).compile(SCHEMA);

/** The record in `file`, or why there is none to read (never an exception: a certificate is still written). */
export function readProofRecord(file: string): { readonly record: ProofRecord } | { readonly unavailable: string } {
  if (!existsSync(file)) return { unavailable: 'no proof record ships with this payconform' };
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    return { unavailable: `the proof record is not JSON (${(err as Error).message})` };
  }
  if (!validate(data)) {
    const e = validate.errors?.[0];
    return { unavailable: `the proof record is not valid: ${e?.instancePath || '/'}: ${e?.message ?? 'invalid'}` };
  }
  const record = data as ProofRecord;
  const outOfRange = Object.values(record.scenarios).some((names) =>
    Object.values(names).some((ids) => ids.some((i) => i >= record.defects.length)),
  );
  return outOfRange ? { unavailable: 'the proof record names a defect by an index it does not hold' } : { record };
}

/** A passed check and what the record says of it. */
export type CheckProof = { readonly uri: string; readonly name: string } & (
  | { readonly status: 'proven'; readonly failsAgainst: readonly string[] }
  /** The record holds the check, and no (non-blanket) defect made it fail. */
  | { readonly status: 'no-defect' }
  /** The record does not hold the check: a new scenario, or one renamed since the proof run. */
  | { readonly status: 'not-proven' }
);

/** summary.json's `proof` and the page's section. */
export interface RunProof {
  /** The proof run's facts; absent when no record could be read (`unavailable` says why). */
  readonly recorded?:
    | { readonly date: string; readonly payconform: string; readonly commit?: string; readonly uncommitted?: boolean }
    | undefined;
  readonly unavailable?: string | undefined;
  /** Set when the record is of another payconform version than the one that ran. */
  readonly otherVersion?: string | undefined;
  readonly blanket: readonly string[];
  readonly mutation: readonly MutationScore[];
  readonly counts: { readonly proven: number; readonly noDefect: number; readonly notProven: number };
  readonly checks: readonly CheckProof[];
}

/** The checks a run passed: scenarios that passed and applied to this gateway. */
const passedCheck = (r: ScenarioResult): boolean => r.outcome === 'passed' && r.notApplicable === undefined;

/** For each check the run passed, what the proof record says of it; `version` is payconform's that ran. */
export function proofOfRun(
  results: readonly ScenarioResult[],
  read: { readonly record: ProofRecord } | { readonly unavailable: string },
  version: string,
): RunProof {
  const record = 'record' in read ? read.record : undefined;
  const checks = results.filter(passedCheck).map(({ uri, name }): CheckProof => {
    const ids = record?.scenarios[uri]?.[name];
    if (ids === undefined) return { uri, name, status: 'not-proven' };
    if (ids.length === 0) return { uri, name, status: 'no-defect' };
    return { uri, name, status: 'proven', failsAgainst: ids.map((i) => record?.defects[i] ?? '') };
  });
  const count = (status: CheckProof['status']): number => checks.filter((c) => c.status === status).length;
  return {
    recorded:
      record === undefined
        ? undefined
        : {
            date: record.date,
            payconform: record.payconform,
            ...(record.commit === undefined ? {} : { commit: record.commit }),
            ...(record.uncommitted === undefined ? {} : { uncommitted: record.uncommitted }),
          },
    unavailable: 'unavailable' in read ? read.unavailable : undefined,
    otherVersion: record !== undefined && record.payconform !== version ? record.payconform : undefined,
    blanket: record?.blanket ?? [],
    mutation: record?.mutation ?? [],
    counts: { proven: count('proven'), noDefect: count('no-defect'), notProven: count('not-proven') },
    checks,
  };
}
