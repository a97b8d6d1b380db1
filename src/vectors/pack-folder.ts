/**
 * The folder a partner pack goes into. A pack writes a marker (PACK_MARKER) listing its own files;
 * `--force` replaces exactly those and never anything else: a folder with no marker is the user's,
 * and is refused even with --force. New files are staged in a folder of our own beside --out
 * (mkdtemp, so nothing of the user's is ever in it) and moved into place.
 */
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fieldError } from '../errors.ts';

export const PACK_MARKER = '.payconform-pack.json';
export const PACK_FORMAT = 'payconform-pack/1';

/** The only names a pack writes: a marker can list nothing outside them, whatever it says. */
const PACK_FILE = /^(?:\.payconform-pack\.json|vectors\.json|README\.md|[A-Z][A-Z0-9_]*\/README\.md)$/;

const outDirError = (rule: string): Error => fieldError('ERR_OUT_DIR', '--out', rule);

function lstatOrUndefined(path: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(path);
  } catch (err) {
    // Under a regular file (ENOTDIR) nothing exists either; writing there fails later with its own code.
    if (['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw fieldError('ERR_IO', '--out', `cannot read ${path} (${(err as NodeJS.ErrnoException).code})`, err);
  }
}

function markerFiles(outDir: string): string[] | undefined {
  const marker = join(outDir, PACK_MARKER);
  if (!lstatOrUndefined(marker)?.isFile()) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(marker).toString()); // UTF-8, Buffer#toString's default
  } catch {
    // not JSON: no pack, like any marker that is not an object of the pack's format (below)
  }
  // Not JSON leaves parsed undefined, a marker reading `null` makes it null: neither is a pack.
  const { format, files } = (parsed ?? {}) as { format?: unknown; files?: unknown };
  if (format !== PACK_FORMAT || !Array.isArray(files)) return undefined;
  if (!files.every((f): f is string => typeof f === 'string' && PACK_FILE.test(f))) return undefined;
  return files;
}

/**
 * The files of the pack already in `outDir` that --force may replace ([] for a new or empty folder).
 * Refuses a file, a symbolic link, a non-empty folder that is not a pack (even with --force) and a
 * pack without --force.
 */
export function previousPack(outDir: string, force: boolean): string[] {
  const stat = lstatOrUndefined(outDir);
  if (stat === undefined) return [];
  if (stat.isSymbolicLink()) throw outDirError(`${outDir} is a symbolic link; give a folder`);
  if (!stat.isDirectory()) throw outDirError(`${outDir} is a file; give a folder`);
  if (readdirSync(outDir).length === 0) return [];
  const files = markerFiles(outDir);
  if (files === undefined)
    throw outDirError(
      `${outDir} is not empty and holds no payconform pack (no ` +
        `valid ${PACK_MARKER}); choose another --out (--force replaces only a pack)`,
    );
  if (!force)
    throw outDirError(`${outDir} exists and is not empty (an earlier pack); choose another --out or ` + `pass --force`);
  for (const name of files) {
    const s = lstatOrUndefined(join(outDir, name));
    if (s !== undefined && !s.isFile())
      throw outDirError(
        `${join(outDir, name)} is not a regular file, so the ` + `earlier pack was changed by hand; move it away`,
      );
  }
  return files;
}

/** Writes `files` into `outDir`, replacing the earlier pack's own files and nothing else. */
export function installPack(
  outDir: string,
  files: ReadonlyMap<string, string>,
  previous: readonly string[],
  mode: number,
): void {
  const earlier = new Set(previous);
  const exists = lstatOrUndefined(outDir) !== undefined;
  for (const name of files.keys()) {
    if (exists && !earlier.has(name) && lstatOrUndefined(join(outDir, name)) !== undefined) {
      throw outDirError(`${join(outDir, name)} was not written by payconform vectors pack; move it away`);
    }
  }
  const dirMode = (mode & 0o044) === 0 ? 0o700 : 0o755; // private files go in private folders
  let tmp: string | undefined;
  try {
    tmp = mkdtempSync(join(dirname(outDir), `.${basename(outDir)}.pack-`));
    chmodSync(tmp, dirMode);
    for (const [name, text] of files) {
      mkdirSync(dirname(join(tmp, name)), { recursive: true, mode: dirMode });
      writeFileSync(join(tmp, name), text, { mode });
    }
    if (!exists) {
      renameSync(tmp, outDir); // a new folder appears whole or not at all
      tmp = undefined;
      return;
    }
    // An existing folder: out with the earlier pack's files, in with the new ones; the user's stay.
    for (const name of previous) rmSync(join(outDir, name), { force: true });
    for (const name of previous) if (name.includes('/')) tryRmdir(join(outDir, dirname(name)));
    for (const name of files.keys()) {
      mkdirSync(dirname(join(outDir, name)), { recursive: true, mode: dirMode });
      renameSync(join(tmp, name), join(outDir, name));
    }
  } catch (err) {
    throw fieldError('ERR_IO', '--out', `cannot write ${outDir} (${(err as NodeJS.ErrnoException).code})`, err);
  } finally {
    if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true }); // our own staging folder
  }
}

/** Removes a folder the earlier pack made if it is now empty; a folder holding the user's files stays. */
function tryRmdir(path: string): void {
  try {
    rmdirSync(path);
  } catch {
    // not empty (the user's files) or already gone: either way it stays as it is
  }
}
