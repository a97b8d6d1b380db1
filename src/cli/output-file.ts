/**
 * Files a command writes where the user said (--out): all of them or none. An existing file is
 * replaced only with --force, a folder never; each is written to a temporary file beside it and
 * renamed into place, and no temporary file stays behind when writing fails.
 */
import { existsSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { fieldError } from '../errors.ts';
import type { Io } from './command.ts';

export interface OutputFile {
  readonly path: string;
  readonly text: string;
  /** File mode (0o600 for a private key). */
  readonly mode?: number;
}

export function writeOutputFiles(
  files: readonly OutputFile[],
  options: { readonly force: boolean; readonly field: string },
): void {
  const { field } = options;
  for (const { path } of files) {
    if (!existsSync(path)) continue;
    if (statSync(path).isDirectory()) throw fieldError('ERR_USAGE', field, `${path} is a folder; give a file name`);
    if (!options.force) throw fieldError('ERR_USAGE', field, `${path} exists; choose another ${field} or pass --force`);
  }
  const tmp = (path: string): string => `${path}.${process.pid}.tmp`;
  try {
    for (const { path, text, mode } of files) writeFileSync(tmp(path), text, mode === undefined ? {} : { mode });
    for (const { path } of files) renameSync(tmp(path), path);
  } catch (err) {
    for (const { path } of files) rmSync(tmp(path), { force: true });
    throw fieldError(
      'ERR_IO',
      field,
      `cannot write ${files.map((f) => f.path).join(' / ')} (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
      err,
    );
  }
}

/** The `--out FILE` and `--force` options of a command that prints one document. */
export const DOCUMENT_OUT_OPTIONS = {
  out: {
    type: 'string',
    valueName: 'FILE',
    description: 'write here (default: standard output); an existing file only with --force',
  },
  force: { type: 'boolean', description: 'replace an existing --out file' },
} as const;

/**
 * A generated document on standard output, or into `--out` (as writeOutputFiles writes, and then
 * `wrote FILE` on standard error, so standard output only ever carries the document).
 */
export function emitDocument(
  text: string,
  values: { readonly out?: unknown; readonly force?: unknown },
  io: Pick<Io, 'stdout' | 'stderr'>,
): 0 {
  if (typeof values.out !== 'string') {
    io.stdout(text);
    return 0;
  }
  writeOutputFiles([{ path: values.out, text }], { force: values.force === true, field: '--out' });
  io.stderr(`wrote ${values.out}`);
  return 0;
}
