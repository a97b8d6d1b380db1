/**
 * One run of `npm run prove`: the suite (src/suite/run.ts) against the embedded mock with one
 * deliberate defect, or none, its bundle in `dir` and its console in dir/console.log.
 */
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Defect } from '../mock/defects.ts';
import { runSuite } from '../suite/run.ts';
import { resolveTarget } from '../suite/target.ts';

export async function runDefect(defect: Defect | undefined, dir: string): Promise<void> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const consoleLog = createWriteStream(join(dir, 'console.log'));
  try {
    await runSuite(
      { target: resolveTarget({ live: false, defect }, process.env), reportDir: dir, callersFiles: ['console.log'] },
      { log: (line) => consoleLog.write(`certify: ${line}\n`), progress: consoleLog },
    );
  } finally {
    await new Promise((done) => consoleLog.end(done));
  }
}
