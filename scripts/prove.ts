/**
 * `npm run prove [-- --jobs N] [-- --defect NAME] [-- --record]`: the suite against the correct mock and
 * against every deliberately broken one, judged by the expected-failure ledgers (src/prove/prove-defects.ts,
 * docs/prove.md). With --record, a passing run writes the proof record proof/proof.json. Two runs at a time by default, one per core. Exit 0 only when every run matches its
 * ledger and every negative scenario was made to fail by some defect; 2 on bad input.
 */
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { defectNamed } from '../src/mock/defects.ts';
import { proveDefects } from '../src/prove/prove-defects.ts';
import { wholeNumber } from '../src/whole-number.ts';

const ROOT = resolve(new URL('..', import.meta.url).pathname);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { jobs: { type: 'string' }, defect: { type: 'string' }, record: { type: 'boolean' } },
  });
  // A record of one defect would say every other check fails against nothing.
  if (values.record && values.defect !== undefined)
    throw new Error('--record: must run every defect (leave out --defect)');
  const { passed, report } = await proveDefects({
    jobs: wholeNumber(values.jobs, '--jobs', 1, 16) ?? Math.min(2, availableParallelism()),
    only: values.defect === undefined ? undefined : defectNamed(values.defect),
    ledgerDir: join(ROOT, 'features', 'expected-failures'),
    outDir: join(ROOT, 'reports', 'prove'),
    record: values.record
      ? {
          file: join(ROOT, 'proof', 'proof.json'),
          root: ROOT,
          mutationReport: join(ROOT, 'reports', 'mutation', 'mutation.json'),
        }
      : undefined,
    onRunDone: (defect) => process.stderr.write(`prove: ${defect ?? 'correct mock'} done\n`),
  });
  process.stdout.write(report);
  process.exit(passed ? 0 : 1);
}

main().catch((err: Error) => {
  process.stderr.write(`prove: ${err.message}\n`);
  process.exit(2);
});
