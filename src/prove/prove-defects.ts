/**
 * `npm run prove`: runs the suite (src/suite/run.ts) against the correct mock and against every
 * deliberately broken one, `jobs` at a time, and judges each run with its expected-failure ledger
 * (docs/prove.md). It passes only when every run matches its ledger exactly and every negative
 * scenario was made to fail by some defect.
 */
import { ownModule, packageVersion } from '../package-root.ts';
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DEFECT_NAMES, type Defect } from '../mock/index.ts';
import { scenarioResults } from '../report/bundle.ts';
import { isClean, isNegative, judge, scenarioKey, unkilledNegatives, type DefectRun, type Judgement } from './judge.ts';
import { present } from '../present.ts';
import { readLedgers } from './ledger.ts';
import { MEASURED_FOLDERS, mutationScores, scoresFromReport } from './mutation-scores.ts';
import { gitState, previousMutationScores, proofRecordOf, writeProofRecord } from './proof-record.ts';
import type { Job, JobResult } from './worker.ts';

const WORKER = ownModule('src/prove/worker.ts');

export interface ProveOptions {
  /** Runs at a time, each in a worker process of its own. */
  readonly jobs: number;
  /** Only this defect (and the correct mock), instead of all of them. */
  readonly only?: Defect | undefined;
  /** The ledgers: features/expected-failures. */
  readonly ledgerDir: string;
  /** Where each run's bundle and console go, one folder per defect, and prove.txt. */
  readonly outDir: string;
  /** With it, a prove that passes writes the proof record there (proof-record.ts); never with `only`. */
  readonly record?: { readonly file: string; readonly root: string; readonly mutationReport: string } | undefined;
  /** Told when each run is done. */
  readonly onRunDone?: ((defect: Defect | undefined) => void) | undefined;
}

export interface ProveOutcome {
  readonly passed: boolean;
  /** The verdict table and findings, as printed and written to prove.txt. */
  readonly report: string;
}

export async function proveDefects(options: ProveOptions): Promise<ProveOutcome> {
  const ledgers = readLedgers(options.ledgerDir);
  const started = performance.now();
  // What the proof ran on, taken before the runs: the tree may change while they go.
  const ranOn = {
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    ...(options.record ? gitState(options.record.root, relative(options.record.root, options.record.file)) : {}),
  };
  const runs = await runAll([undefined, ...(options.only ? [options.only] : DEFECT_NAMES)], options);
  const judgements = runs.map((run) =>
    judge(run, run.defect === undefined ? undefined : ledgers.get(run.defect as Defect)),
  );

  const width = Math.max(...judgements.map((j) => (j.defect ?? 'correct mock').length));
  const lines = [`${'defect'.padEnd(width)}  scenarios  killed  negatives killed  verdict`];
  for (const j of judgements) {
    const negatives = j.killed.filter(isNegative).length;
    lines.push(
      `${(j.defect ?? 'correct mock').padEnd(width)}  ${String(j.scenarios).padStart(9)} ` +
        ` ${String(j.killed.length).padStart(6)}  ${String(negatives).padStart(16)} ` +
        ` ${isClean(j) ? 'as the ledger says' : 'MISMATCH'}`,
    );
  }
  for (const j of judgements.filter((x) => !isClean(x)))
    lines.push('', `${j.defect ?? 'correct mock'}:`, ...findings(j));
  const blanket = new Set([...ledgers.values()].filter((l) => l.mustFail.some((e) => e.all)).map((l) => l.defect));
  const correct = present(runs[0], 'the run against the correct mock');
  const unkilled = options.only ? [] : unkilledNegatives(correct, judgements, blanket);
  const negatives = correct.results.filter(isNegative).length;
  if (!options.only)
    lines.push(
      '',
      unkilled.length === 0
        ? `every one of the ${negatives} negative scenarios was made to fail by at least one defect (not ` +
            `counting ${[...blanket].join(', ')}, which fails everything)`
        : `negative scenarios no defect made fail (${unkilled.length} of ${negatives}):`,
      ...unkilled.map((s) => `  ${scenarioKey(s)}`),
    );
  const passed = judgements.every(isClean) && unkilled.length === 0;
  if (options.record !== undefined && !options.only)
    lines.push(
      '',
      passed ? recordProof(options.record, runs, blanket, ranOn) : 'proof record: not written (prove failed)',
    );
  lines.push(
    '',
    `prove: ${passed ? 'passed' : 'FAILED'} in ${((performance.now() - started) / 1000).toFixed(1)} s ` +
      `with ${options.jobs} job(s); bundles in ${relative(process.cwd(), options.outDir)}/`,
  );
  const report = `${lines.join('\n')}\n`;
  writeFileSync(join(options.outDir, 'prove.txt'), report);
  return { passed, report };
}

/** Writes the proof record of a passing run and says so in one line. */
function recordProof(
  where: NonNullable<ProveOptions['record']>,
  runs: readonly DefectRun[],
  blanket: ReadonlySet<string>,
  ranOn: { readonly date: string; readonly commit?: string; readonly uncommitted?: boolean },
): string {
  const path = relative(where.root, where.file);
  const fresh = existsSync(where.mutationReport)
    ? scoresFromReport(where.root, where.mutationReport, MEASURED_FOLDERS)
    : [];
  const mutation = mutationScores(fresh, previousMutationScores(where.file), MEASURED_FOLDERS);
  const record = proofRecordOf(runs, blanket, {
    ...ranOn,
    payconform: packageVersion(),
    mutation,
  });
  writeProofRecord(where.file, record);
  const scores = mutation.map((m) => `${m.of} ${m.score.toFixed(2)} % (${m.measured})`).join(', ') || 'none';
  return (
    `proof record written to ${path}: ${Object.values(record.scenarios).flatMap(Object.keys).length} scenarios, ` +
    `${record.defects.length + record.blanket.length} defects; mutation scores: ${scores}`
  );
}

/**
 * Runs the suite once per defect in `jobs` worker processes. Each worker takes the next defect when it
 * is done with one, so cucumber and the steps load once per worker, not once per run.
 */
async function runAll(defects: ReadonlyArray<Defect | undefined>, options: ProveOptions): Promise<DefectRun[]> {
  const dirOf = (defect: Defect | undefined): string => join(options.outDir, defect ?? 'correct-mock');
  let next = 0;
  const lane = async (): Promise<void> => {
    const worker = fork(WORKER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    try {
      while (next < defects.length) {
        const defect = defects[next++];
        const result = await ask(worker, { defect, dir: dirOf(defect) });
        if (!result.ok)
          throw new Error(
            `the run against ${defect ?? 'the correct mock'} stopped: ${result.message} ` +
              `(see ${relative(process.cwd(), join(dirOf(defect), 'console.log'))})`,
          );
        options.onRunDone?.(defect);
      }
    } finally {
      worker.kill();
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.jobs, defects.length) }, lane));
  return defects.map((defect) => ({
    defect,
    results: scenarioResults(readFileSync(join(dirOf(defect), 'messages.ndjson'), 'utf8')).results,
  }));
}

/** Sends a worker one job and waits for its answer; a worker that dies first is an error. */
function ask(worker: ChildProcess, job: Job): Promise<JobResult> {
  return new Promise((answered, failed) => {
    const died = (code: number | null): void =>
      failed(new Error(`a prove worker exited (${code}) during the run against ${job.defect ?? 'the correct mock'}`));
    worker.once('exit', died);
    worker.once('message', (result: JobResult) => {
      worker.off('exit', died);
      answered(result);
    });
    worker.send(job);
  });
}

const list = (title: string, items: readonly string[]): string[] =>
  items.length
    ? [
        `  ${title}:`,
        ...items.slice(0, 20).map((i) => `    ${i}`),
        ...(items.length > 20 ? [`    … and ${items.length - 20} more`] : []),
      ]
    : [];

function findings(j: Judgement): string[] {
  return [
    ...list('listed in the ledger but passed (the defect went unnoticed)', j.survived.map(scenarioKey)),
    ...list(
      j.defect ? 'failed but not listed in the ledger' : 'failed against the correct mock',
      j.unexpected.map(scenarioKey),
    ),
    ...list('neither passed nor failed (undefined, ambiguous or skipped steps)', j.broken.map(scenarioKey)),
    ...list(
      'ledger entries that match no scenario',
      j.unmatchedEntries.map((e) => JSON.stringify({ name: e.name, tags: e.tags })),
    ),
    ...list('causes the ledger names that the run did not show', j.missingCauses),
    ...list(`causes of the run the ledger does not name (the run's: ${j.causes.join(', ')})`, j.unexpectedCauses),
  ];
}
