/**
 * One run of `npm run prove`: the suite (src/suite/run.ts) against the embedded mock with one
 * deliberate defect, or none, its bundle in `dir` and its console in dir/console.log.
 */
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Defect } from '../mock/index.ts';
import { runSuite } from '../suite/run.ts';
import { resolveTarget } from '../suite/target.ts';

/**
 * The seed of every prove run's generated checks: one fixed seed, so a ledger entry of a generated scenario judges
 * the same drawn requests in every run, on every machine (certify draws a fresh one unless --seed is given).
 */
export const PROVE_SEED = 20261128;

export async function runDefect(defect: Defect | undefined, dir: string): Promise<void> {
  // The earlier run's files are replaced by the runner's own --force (only the names a run writes, and
  // console.log); a folder holding anything else is refused, never emptied.
  mkdirSync(dir, { recursive: true });
  const consoleLog = createWriteStream(join(dir, 'console.log'));
  try {
    await runSuite(
      {
        target: resolveTarget({ live: false, defect }, process.env),
        reportDir: dir,
        callersFiles: ['console.log'],
        force: true,
        explore: { seed: PROVE_SEED },
      },
      { log: (line) => consoleLog.write(`certify: ${line}\n`), progress: consoleLog },
    );
  } finally {
    await new Promise((done) => consoleLog.end(done));
  }
}
