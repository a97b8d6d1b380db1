/**
 * Reading a file the user named (an option, an environment variable, a positional argument): its
 * text, or one ERR_IO line naming where the name came from, the file and the system's reason
 * (ENOENT, EISDIR, EACCES …), so the command line can print it and exit 2.
 */
import { readFileSync } from 'node:fs';
import { PayconformError } from './errors.ts';

export interface ReadOptions {
  /** `-` means standard input (for options such as --body-file -). */
  readonly dashIsStdin?: boolean;
}

/**
 * The UTF-8 text of `path`, which the user gave as `field`. The message names the path after the
 * field, unless the field is the path itself (a positional file argument).
 */
export function readUserFile(path: string, field: string, options: ReadOptions = {}): string {
  const stdin = options.dashIsStdin === true && path === '-';
  try {
    return readFileSync(stdin ? 0 : path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    const what = field === path ? '' : ` ${stdin ? 'standard input' : path}`;
    throw new PayconformError('ERR_IO', `${field}: cannot read${what} (${code})`, { field, rule: `cannot read (${code})`, cause: err });
  }
}
