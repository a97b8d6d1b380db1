/**
 * A report that cannot be written (disk full, read-only folder, a write error): the run ends with one line naming
 * the folder and the cause, exit 2, and leaves nothing that passes for a report. The write error's code comes from
 * node:fs, in this thread or from the thread that writes cucumber's files (report/cucumber-files.ts).
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PayconformError } from '../errors.ts';
import { RUN_FILES } from '../report/report-dir.ts';

/** The write errors of the file system that mean the report cannot be written (not a mistake of the suite's). */
const WRITE_CODES = ['ENOSPC', 'EDQUOT', 'EROFS', 'EIO', 'EFBIG', 'EACCES', 'EPERM'] as const;

/** The write error behind a failure, from its code or its cause's; undefined if none. */
export function writeFailureOf(err: unknown): string | undefined {
  const codes = [(err as NodeJS.ErrnoException)?.code, (err as { cause?: NodeJS.ErrnoException })?.cause?.code];
  return codes.find((c): c is string => c !== undefined && (WRITE_CODES as readonly string[]).includes(c));
}

const WHY: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EIO: 'an input/output error',
  EFBIG: 'a file grew too large',
};

/**
 * Removes what the run wrote into its folder (half-written files included), then leaves a summary.json that says
 * the run is incomplete where there is room for it, and returns the one-line error to end the run with.
 */
export function reportNotWritten(dir: string, cause: string): PayconformError {
  // The lock is the claim's to release; everything else of the run's own names goes.
  for (const name of RUN_FILES) if (!name.startsWith('.')) rmSync(join(dir, name), { force: true });
  try {
    const reason = `the report could not be written: ${WHY[cause] ?? cause}`;
    writeFileSync(join(dir, 'summary.json'), `${JSON.stringify({ status: 'incomplete', reason }, null, 2)}\n`);
  } catch {
    rmSync(join(dir, 'summary.json'), { force: true });
  }
  return new PayconformError(
    'ERR_IO',
    `the report could not be written to ${dir}: ${WHY[cause] ?? cause} (${cause}); the run's files were removed, ` +
      `so nothing passes for a complete report`,
    { field: '--report-dir', rule: 'writable' },
  );
}
