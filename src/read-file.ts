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
  const what = field === path ? '' : ` ${stdin ? 'standard input' : path}`;
  let bytes: Buffer;
  try {
    bytes = readFileSync(stdin ? 0 : path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new PayconformError('ERR_IO', `${field}: cannot read${what} (${code})`, {
      field,
      rule: `cannot read (${code})`,
      cause: err,
    });
  }
  // Strict: a byte that is not UTF-8 would otherwise become U+FFFD and be signed as if sent.
  try {
    return UTF8.decode(bytes);
  } catch (err) {
    throw new PayconformError(
      'ERR_ENCODING',
      `${field}:${what} has bytes that are not UTF-8 (first at byte ${firstBadByte(bytes)})`,
      { field, rule: 'UTF-8 text', cause: err },
    );
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The offset of the first character UTF-8 decoding fails in (byte by byte, so a sequence cut short counts from its lead
 * byte).
 */
function firstBadByte(bytes: Buffer): number {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let lead = 0;
  for (const [i, byte] of bytes.entries()) {
    if ((byte & 0xc0) !== 0x80) lead = i;
    try {
      decoder.decode(bytes.subarray(i, i + 1), { stream: true });
    } catch {
      return lead;
    }
  }
  return lead;
}
