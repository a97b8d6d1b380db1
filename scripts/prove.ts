/**
 * `npm run prove [-- --jobs N] [-- --defect NAME]`: runs the suite (payconform certify) against the
 * correct mock and against every deliberately broken one, two at a time by default (one per core),
 * and judges each run with its expected-failure ledger (docs/prove.md). Exit 0 only when every run
 * matches its ledger exactly and every negative scenario was made to fail by some defect.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFECT_NAMES, defectNamed } from '../src/mock/defects.ts';
import { isClean, isNegative, judge, scenarioKey, unkilledNegatives, type DefectRun, type Judgement } from '../src/prove/judge.ts';
import { readLedgers } from '../src/prove/ledger.ts';
import { scenarioResults } from '../src/report/bundle.ts';

const ROOT = resolve(new URL('..', import.meta.url).pathname);
const OUT = join(ROOT, 'reports', 'prove');

function usage(message: string): never {
  process.stderr.write(`prove: ${message}\n`);
  process.exit(2);
}

/** One certify run in a child process; its console goes to a log file beside its bundle. */
function certify(defect: string | undefined): Promise<DefectRun> {
  const dir = join(OUT, defect ?? 'correct-mock');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const log = openSync(join(dir, 'console.log'), 'w');
  const args = [join(ROOT, 'bin/payconform.js'), 'certify', '--report-dir', dir, ...(defect ? ['--defect', defect] : [])];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', log, log], env: { ...process.env, CI: 'true' } });
  return new Promise((done, fail) => {
    child.once('error', fail);
    child.once('exit', (code) => {
      // certify exits 1 when scenarios fail, which is the point here; 2 or a crash is not.
      if (code !== 0 && code !== 1) return fail(new Error(`certify ${defect ? `--defect ${defect}` : ''} exited ${code}: see ${relative(ROOT, join(dir, 'console.log'))}`));
      done({ defect, results: scenarioResults(readFileSync(join(dir, 'messages.ndjson'), 'utf8')).results });
    });
  });
}

async function runAll(defects: readonly (string | undefined)[], jobs: number): Promise<DefectRun[]> {
  const runs: DefectRun[] = new Array(defects.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < defects.length) {
      const i = next++;
      runs[i] = await certify(defects[i]);
      process.stderr.write(`prove: ${defects[i] ?? 'correct mock'} done\n`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, defects.length) }, worker));
  return runs;
}

const list = (title: string, items: readonly string[]): string[] => (items.length ? [`  ${title}:`, ...items.slice(0, 20).map((i) => `    ${i}`), ...(items.length > 20 ? [`    … and ${items.length - 20} more`] : [])] : []);

function findings(j: Judgement): string[] {
  return [
    ...list('listed in the ledger but passed (the defect went unnoticed)', j.survived.map(scenarioKey)),
    ...list(j.defect ? 'failed but not listed in the ledger' : 'failed against the correct mock', j.unexpected.map(scenarioKey)),
    ...list('neither passed nor failed (undefined, ambiguous or skipped steps)', j.broken.map(scenarioKey)),
    ...list('ledger entries that match no scenario', j.unmatchedEntries.map((e) => JSON.stringify({ name: e.name, tags: e.tags }))),
  ];
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { jobs: { type: 'string' }, defect: { type: 'string' } } });
  const jobs = Number(values.jobs ?? Math.min(2, availableParallelism()));
  if (!Number.isInteger(jobs) || jobs < 1 || jobs > 16) usage('--jobs: must be a whole number from 1 to 16');
  let ledgers;
  try {
    ledgers = readLedgers(join(ROOT, 'features', 'expected-failures'));
  } catch (err) {
    usage((err as Error).message);
  }
  const only = values.defect === undefined ? undefined : (() => { try { return defectNamed(values.defect); } catch (err) { return usage((err as Error).message); } })();
  const started = performance.now();
  const runs = await runAll([undefined, ...(only ? [only] : DEFECT_NAMES)], jobs);
  const judgements = runs.map((run) => judge(run, run.defect === undefined ? undefined : ledgers.get(run.defect as never)));

  const width = Math.max(...judgements.map((j) => (j.defect ?? 'correct mock').length));
  const lines = [`${'defect'.padEnd(width)}  scenarios  killed  negatives killed  verdict`];
  for (const j of judgements) {
    const negatives = j.killed.filter(isNegative).length;
    lines.push(`${(j.defect ?? 'correct mock').padEnd(width)}  ${String(j.scenarios).padStart(9)}  ${String(j.killed.length).padStart(6)}  ${String(negatives).padStart(16)}  ${isClean(j) ? 'as the ledger says' : 'MISMATCH'}`);
  }
  for (const j of judgements.filter((x) => !isClean(x))) lines.push('', `${j.defect ?? 'correct mock'}:`, ...findings(j));
  const blanket = new Set([...ledgers.values()].filter((l) => l.mustFail.some((e) => e.all)).map((l) => l.defect));
  const unkilled = only ? [] : unkilledNegatives(runs[0]!, judgements, blanket);
  const negatives = runs[0]!.results.filter(isNegative).length;
  if (!only) lines.push('', unkilled.length === 0 ? `every one of the ${negatives} negative scenarios was made to fail by at least one defect (not counting ${[...blanket].join(', ')}, which fails everything)` : `negative scenarios no defect made fail (${unkilled.length} of ${negatives}):`, ...unkilled.map((s) => `  ${scenarioKey(s)}`));
  const ok = judgements.every(isClean) && unkilled.length === 0;
  lines.push('', `prove: ${ok ? 'passed' : 'FAILED'} in ${((performance.now() - started) / 1000).toFixed(1)} s with ${jobs} job(s); bundles in ${relative(ROOT, OUT)}/`);
  process.stdout.write(`${lines.join('\n')}\n`);
  writeFileSync(join(OUT, 'prove.txt'), `${lines.join('\n')}\n`);
  process.exit(ok ? 0 : 1);
}

main().catch((err: Error) => {
  process.stderr.write(`prove: ${err.message}\n`);
  process.exit(2);
});
