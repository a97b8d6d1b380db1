/**
 * Reading a bundle someone else made, as hostile input: only regular files are opened. A symbolic
 * link, a FIFO, a device or a socket is named and never opened (lstat, then O_NOFOLLOW|O_NONBLOCK
 * and fstat, so nothing swapped in between is followed or blocks); a file is read in chunks and at
 * most one byte past the size it should have, so /dev/zero or a huge file costs bounded memory and
 * time.
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync, type Stats } from 'node:fs';
import { join, relative } from 'node:path';
import { fieldError } from '../errors.ts';

const CHUNK = 64 * 1024;
/** The most a bundle's own small files (manifest.json, manifest.jws, summary.json) may hold. */
export const SMALL_FILE_LIMIT = 32 * 1024 * 1024;

export interface Entries {
  /** Regular files, relative to the bundle, sorted. */
  readonly files: string[];
  /** Everything else, each with what it is: never opened. */
  readonly refused: string[];
}

/** What lstat says a thing is, for a line naming it. */
function kindOf(stat: Stats): string {
  if (stat.isSymbolicLink()) return 'a symbolic link';
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isSocket()) return 'a socket';
  if (stat.isDirectory()) return 'a folder';
  return 'not a regular file';
}

/** Every regular file under `dir` (real subfolders walked), and every other thing, named and not opened. */
export function bundleEntries(dir: string): Entries {
  const files: string[] = [];
  const refused: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      const stat = lstatSync(path);
      if (stat.isDirectory()) walk(path);
      else if (stat.isFile()) files.push(relative(dir, path));
      else refused.push(`${relative(dir, path)}: ${kindOf(stat)}, not a regular file (not opened)`);
    }
  };
  walk(dir);
  return { files: files.sort(), refused: refused.sort() };
}

/**
 * Reads a regular file without following a link or waiting on a FIFO, at most `limit + 1` bytes,
 * passing each chunk to `take`. Returns the bytes read, or what the thing is when it is not a
 * regular file.
 */
function readBounded(
  path: string,
  limit: number,
  take: (chunk: Buffer) => void,
): { bytes: number } | { notRegular: string } {
  const before = lstatSync(path);
  if (!before.isFile()) return { notRegular: kindOf(before) };
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { notRegular: kindOf(stat) };
    const buffer = Buffer.alloc(CHUNK);
    let bytes = 0;
    while (bytes <= limit) {
      const n = readSync(fd, buffer, 0, Math.min(CHUNK, limit + 1 - bytes), null);
      if (n === 0) break;
      take(buffer.subarray(0, n));
      bytes += n;
    }
    return { bytes };
  } finally {
    closeSync(fd);
  }
}

export type Digest = { readonly bytes: number; readonly sha256: string } | { readonly problem: string };

/** SHA-256 of a regular file read to at most `limit` bytes; a longer file is a problem, never read whole. */
export function digestBounded(dir: string, path: string, limit: number): Digest {
  const hash = createHash('sha256');
  const read = readBounded(join(dir, path), limit, (chunk) => hash.update(chunk));
  if ('notRegular' in read) return { problem: `${path}: ${read.notRegular}, not a regular file (not opened)` };
  if (read.bytes > limit) return { problem: `${path}: larger than listed (more than ${limit} bytes)` };
  return { bytes: read.bytes, sha256: hash.digest('hex') };
}

/** A bundle's own small file as text, regular and bounded, or ERR_BUNDLE naming it. */
export function readBundleText(dir: string, name: string, limit = SMALL_FILE_LIMIT): string {
  const chunks: Buffer[] = [];
  let read: ReturnType<typeof readBounded>;
  try {
    read = readBounded(join(dir, name), limit, (chunk) => chunks.push(Buffer.from(chunk)));
  } catch (err) {
    throw fieldError(
      'ERR_BUNDLE',
      'DIR',
      `${join(dir, name)}: cannot read (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
      err,
    );
  }
  if ('notRegular' in read)
    throw fieldError('ERR_BUNDLE', 'DIR', `${join(dir, name)} is ${read.notRegular}, not a regular file (not opened)`);
  if (read.bytes > limit) throw fieldError('ERR_BUNDLE', 'DIR', `${join(dir, name)} is larger than ${limit} bytes`);
  return Buffer.concat(chunks).toString('utf8');
}
