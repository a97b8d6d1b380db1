/**
 * A report folder the user named is checked before any work starts: a run must not find out at its
 * end, with its findings in hand, that the folder is a file or cannot be made.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fieldError } from '../errors.ts';

/** Throws ERR_OUT_DIR naming `field` unless `dir` is a folder, or can be made inside a writable one. */
export function checkReportDir(dir: string, field: string): void {
  let at = resolve(dir);
  for (;;) {
    let isDirectory: boolean;
    try {
      isDirectory = statSync(at).isDirectory();
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') throw fieldError('ERR_OUT_DIR', field, `cannot use ${dir} (${code})`);
      const parent = dirname(at);
      if (parent === at) throw fieldError('ERR_OUT_DIR', field, `cannot make ${dir}`);
      at = parent;
      continue;
    }
    if (!isDirectory) throw fieldError('ERR_OUT_DIR', field, `${at === resolve(dir) ? dir : at} is a file; give a folder`);
    try {
      accessSync(at, constants.W_OK);
    } catch {
      throw fieldError('ERR_OUT_DIR', field, `cannot write in ${at} (EACCES)`);
    }
    return;
  }
}
