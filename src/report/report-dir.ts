/**
 * A report folder the user named is checked before any work starts: a run must not find out at its
 * end, with its findings in hand, that the folder is a file or cannot be made.
 */
import {
  accessSync,
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
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
    if (!isDirectory)
      throw fieldError('ERR_OUT_DIR', field, `${at === resolve(dir) ? dir : at} is a file; give a folder`);
    try {
      accessSync(at, constants.W_OK);
    } catch {
      throw fieldError('ERR_OUT_DIR', field, `cannot write in ${at} (EACCES)`);
    }
    return;
  }
}

/** Every name a certify run writes into its folder, and nothing else: what --force may remove. */
export const RUN_FILES: ReadonlySet<string> = new Set([
  'report.html',
  'cucumber.html',
  'junit.xml',
  'messages.ndjson',
  'summary.json',
  'manifest.json',
  'manifest.jws',
  '.payconform-run',
]);
/** Held while a run writes into a folder the user named, so a second run there is refused. */
const LOCK = '.payconform-run';

export interface ClaimOptions {
  readonly field?: string;
  /**
   * Files the caller itself keeps in the folder beside the bundle (prove's console.log): neither counted nor removed.
   */
  readonly callersFiles?: readonly string[];
  /**
   * The names an earlier run of this command writes (certify's RUN_FILES by default), and what such a folder is called.
   */
  readonly runFiles?: ReadonlySet<string>;
  readonly kind?: string;
}

export interface ClaimedDir {
  readonly dir: string;
  /** The folder is the run's alone until now: the lock goes (before the manifest lists the files). */
  readonly release: () => void;
  /** The run did not start: the lock goes, and a folder this claim made, while still empty. */
  readonly abandon: () => void;
}

const errnoOf = (err: unknown): string => (err as NodeJS.ErrnoException).code ?? 'error';

/**
 * The run's own folder. Without `requested`, reports/<UTC second> made exclusively (mkdir, not
 * recursive), with -2, -3 … when another run made it first. A folder the user named is made, or if
 * it exists, taken only when empty or holding an earlier run's files alone (then only with
 * `force`, which removes exactly those files); a folder with anything else in it, `.` included, is
 * refused even with --force. A lock file keeps a second run out while this one writes.
 */
export function claimReportDir(
  requested: string | undefined,
  force: boolean,
  stamp: string,
  options: ClaimOptions = {},
): ClaimedDir {
  const { field = '--report-dir', callersFiles = [], runFiles = RUN_FILES, kind = 'certify bundle' } = options;
  if (requested === undefined) {
    const parent = join(process.cwd(), 'reports');
    checkReportDir(parent, field);
    try {
      makeFolder(parent);
    } catch (err) {
      throw fieldError('ERR_OUT_DIR', field, `cannot make ${parent} (${errnoOf(err)})`);
    }
    for (let n = 1; ; n++) {
      const dir = join(parent, n === 1 ? stamp : `${stamp}-${n}`);
      try {
        mkdirSync(dir);
      } catch (err) {
        if (errnoOf(err) === 'EEXIST' && n < 1000) continue;
        throw fieldError('ERR_OUT_DIR', field, `cannot make ${dir} (${errnoOf(err)})`);
      }
      return { dir, release: () => undefined, abandon: () => rmdirQuietly(dir) };
    }
  }
  const dir = resolve(requested);
  checkReportDir(dir, field);
  let made: boolean;
  try {
    made = makeFolder(dir);
  } catch (err) {
    throw fieldError('ERR_OUT_DIR', field, `cannot make ${requested} (${errnoOf(err)})`);
  }
  if (!made) clearEarlierRun(dir, requested, force, { field, callersFiles: new Set(callersFiles), runFiles, kind });
  try {
    writeFileSync(join(dir, LOCK), `${process.pid}\n`, { flag: 'wx' });
  } catch (err) {
    if (errnoOf(err) === 'EEXIST')
      throw fieldError(
        'ERR_OUT_DIR',
        field,
        `${requested} is in use by another run (${LOCK}; remove it if no run is writing there)`,
      );
    throw fieldError('ERR_OUT_DIR', field, `cannot write in ${requested} (${errnoOf(err)})`);
  }
  const unlock = (): void => rmSync(join(dir, LOCK), { force: true });
  return {
    dir,
    release: unlock,
    abandon: () => {
      unlock();
      if (made) rmdirQuietly(dir);
    },
  };
}

/**
 * Makes `dir` and the folders missing above it, one mkdir each; false where `dir` was there. Not mkdir's
 * `recursive`: where mkdir answers ENOENT though the parent exists (/proc), Node's recursive mkdir never ends.
 */
function makeFolder(dir: string): boolean {
  const parent = dirname(dir);
  if (parent !== dir && !existsSync(parent)) makeFolder(parent);
  try {
    mkdirSync(dir);
    return true;
  } catch (err) {
    if (errnoOf(err) === 'EEXIST') return false;
    throw err;
  }
}

/** An existing folder: empty, or an earlier run's files alone and --force, which removes just those. */
function clearEarlierRun(
  dir: string,
  requested: string,
  force: boolean,
  {
    field,
    callersFiles,
    runFiles,
    kind,
  }: { field: string; callersFiles: ReadonlySet<string>; runFiles: ReadonlySet<string>; kind: string },
): void {
  const names = readdirSync(dir).filter((name) => !callersFiles.has(name));
  if (names.length === 0) return;
  if (names.includes(LOCK) && !force)
    throw fieldError(
      'ERR_OUT_DIR',
      field,
      `${requested} is in use by another run (${LOCK}; remove it if no run is writing there)`,
    );
  const foreign = names.find((name) => !runFiles.has(name) && name !== LOCK);
  if (foreign !== undefined)
    throw fieldError(
      'ERR_OUT_DIR',
      field,
      `${requested} is not empty and is not ${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} (it holds ${foreign}); ` +
        `give a new or empty folder (--force replaces only an earlier run)`,
    );
  if (!force)
    throw fieldError(
      'ERR_OUT_DIR',
      field,
      `${requested} holds an earlier run; choose another --report-dir or pass --force to replace its files`,
    );
  for (const name of names) {
    if (!lstatSync(join(dir, name)).isFile())
      throw fieldError(
        'ERR_OUT_DIR',
        field,
        `${join(requested, name)} is not a regular file; an earlier run did not write it`,
      );
  }
  for (const name of names) rmSync(join(dir, name));
}

function rmdirQuietly(dir: string): void {
  try {
    rmdirSync(dir); // only when empty: anything the run did write stays
  } catch {
    // not empty or gone: left as it is
  }
}
