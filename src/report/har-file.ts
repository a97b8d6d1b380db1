/**
 * certify --record: the HAR entries each process of a run wrote, a line each, gathered into one HAR
 * file in the order the exchanges started. The file is made new: written beside it, then linked into
 * place, which fails where a file of that name appeared meanwhile (a second run at the same moment),
 * so a command replaces only what it wrote and never leaves half a file (a full disk).
 */
import { linkSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PayconformError } from '../errors.ts';
import { harOf, type HarEntry } from './har.ts';

export function writeRecordedHar(fromDir: string, file: string, version: string, comment?: string): number {
  const entries: HarEntry[] = readdirSync(fromDir)
    .filter((name) => name.endsWith('.ndjson'))
    .flatMap((name) => readFileSync(join(fromDir, name), 'utf8').split('\n'))
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as HarEntry)
    .sort((a, b) => a.startedDateTime.localeCompare(b.startedDateTime));
  const har = harOf(entries, version);
  const text = JSON.stringify(comment === undefined ? har : { log: { ...har.log, comment } }, null, 2);
  const partial = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(partial, `${text}\n`, { flag: 'wx' });
    linkSync(partial, file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new PayconformError('ERR_IO', `--record: ${file} was not written (${code}); nothing of it is left`, {
      field: '--record',
      rule: `writable, new (${code})`,
      cause: err,
    });
  } finally {
    rmSync(partial, { force: true });
  }
  return entries.length;
}
