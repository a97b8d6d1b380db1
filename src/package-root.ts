/**
 * Where payconform's own files are (features, profiles, vectors, package.json) whether it runs from
 * its TypeScript sources (src/, in development and tests) or compiled (dist/src/, installed), and
 * which of the two this process runs: the runner loads step code of the same kind.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** True when this module is compiled JavaScript (dist/), false under tsx. */
export const COMPILED = !import.meta.url.endsWith('.ts');

/** The folder of payconform's package.json: the nearest one above this file. */
export const PACKAGE_ROOT = ((): string => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`payconform: no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
  return dir;
})();

/** A file of the package, by its path from the package root (`vectors/keys/…`). */
export const packageFile = (path: string): string => join(PACKAGE_ROOT, path);

let version: string | undefined;

/** payconform's version, from its package.json. */
export function packageVersion(): string {
  version ??= (JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string }).version;
  return version;
}

/** A module of payconform's own code by its source path (`src/prove/worker.ts`), as this process runs it. */
export const ownModule = (sourcePath: string): string =>
  COMPILED ? join(PACKAGE_ROOT, 'dist', sourcePath.replace(/\.ts$/, '.js')) : join(PACKAGE_ROOT, sourcePath);
