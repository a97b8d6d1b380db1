/**
 * certify --record: the HAR entries each process of a run wrote, a line each, gathered into one HAR
 * file in the order the exchanges started. The file is made new (`wx`): a command replaces only what
 * it wrote, and the user named this one.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
  writeFileSync(file, `${text}\n`, { flag: 'wx' });
  return entries.length;
}
