/**
 * `npm run prove -- --record`: the proof record (proof/proof.json, packaged) written from a prove run
 * that passed. For each scenario of the run against the correct mock, the defects whose run it failed
 * in; defects whose ledger says `all` are named once, not per scenario (docs/prove.md, "The proof record").
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { MutationScore, ProofRecord } from '../report/proof.ts';
import type { DefectRun } from './judge.ts';

/** What a record says of its run beside the scenarios: the record's own fields, one definition. */
export type ProofFacts = Pick<ProofRecord, 'date' | 'payconform' | 'commit' | 'uncommitted' | 'mutation'>;

/**
 * The record of `runs` (the correct mock's first, then one per defect), every one already judged clean:
 * only a passing prove may be recorded. `blanket` are the defects whose ledger is `all`.
 */
export function proofRecordOf(
  runs: readonly DefectRun[],
  blanket: ReadonlySet<string>,
  facts: ProofFacts,
): ProofRecord {
  const [correct, ...broken] = runs;
  if (correct === undefined || correct.defect !== undefined)
    throw new Error('internal: a proof record needs the run against the correct mock first');
  const listed = broken.filter((r) => r.defect !== undefined && !blanket.has(r.defect));
  const defects = listed.map((r) => r.defect ?? '');
  const killedBy = listed.map((r) => new Set(r.results.filter((s) => s.outcome === 'failed').map(key)));
  const scenarios: Record<string, Record<string, number[]>> = {};
  for (const s of correct.results) {
    const names = (scenarios[s.uri] ??= {});
    names[s.name] = defects.flatMap((_, i) => (killedBy[i]?.has(key(s)) ? [i] : []));
  }
  return {
    date: facts.date,
    payconform: facts.payconform,
    ...(facts.commit === undefined ? {} : { commit: facts.commit }),
    ...(facts.uncommitted === undefined ? {} : { uncommitted: facts.uncommitted }),
    defects,
    blanket: broken.flatMap((r) => (r.defect !== undefined && blanket.has(r.defect) ? [r.defect] : [])),
    scenarios,
    mutation: facts.mutation,
  };
}

const key = (s: { uri: string; name: string }): string => `${s.uri}\n${s.name}`;

/** The record as written: two-space JSON, each scenario's list of defect indexes on its own line. */
export function proofRecordText(record: ProofRecord): string {
  const text = JSON.stringify(
    { $comment: 'written by npm run prove -- --record (docs/prove.md); do not edit', ...record },
    null,
    2,
  );
  const oneLine = (_: string, ids: string | undefined): string => `[${(ids ?? '').replace(/\s+/g, '')}]`;
  return `${text.replace(/\[\s*((?:\d+,\s*)*\d+)?\s*\]/g, oneLine)}\n`;
}

/** The mutation scores of the record already in `file`, to carry when no fresh report measured them. */
export function previousMutationScores(file: string): MutationScore[] {
  if (!existsSync(file)) return [];
  const data = JSON.parse(readFileSync(file, 'utf8')) as { mutation?: MutationScore[] };
  return data.mutation ?? [];
}

/** HEAD's commit and whether files other than the record differ from it; nothing outside a git checkout. */
export function gitState(root: string, recordPath: string): { commit?: string; uncommitted?: boolean } {
  try {
    const git = (...args: string[]): string =>
      execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const commit = git('rev-parse', 'HEAD').trim();
    // The worktree's node_modules may be a symlink git lists as untracked: it is no change to the code.
    const changed = git('status', '--porcelain', '--', '.', `:(exclude)${recordPath}`, ':(exclude)node_modules').trim();
    return { commit, uncommitted: changed !== '' };
  } catch {
    return {};
  }
}

export function writeProofRecord(file: string, record: ProofRecord): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, proofRecordText(record));
}
