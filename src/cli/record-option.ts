/**
 * --record FILE.har of certify and inspect (docs/replay.md): a new file in a folder that exists, checked
 * before anything runs (a command replaces only what it wrote); the exchanges go to a folder of lines as
 * they happen and become the HAR once the command ends, interrupted or not.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fieldError } from '../errors.ts';
import type { OptionSpecs } from './args.ts';

export const RECORD_OPTION: OptionSpecs = {
  record: {
    type: 'string',
    valueName: 'FILE.har',
    description:
      'write every exchange to this new HAR file, redacted (docs/replay.md; payconform replay sends it again)',
  },
};

/** --record's file: new, in a folder that exists. */
export function recordFile(file: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  if (existsSync(file)) throw fieldError('ERR_USAGE', '--record', `${file} exists; give a new file`);
  if (!existsSync(dirname(resolve(file))))
    throw fieldError('ERR_USAGE', '--record', `the folder of ${file} does not exist`);
  return file;
}

/** Where the exchanges are written a line each until the HAR is made. */
export const recordLinesDir = (): string => mkdtempSync(join(tmpdir(), 'payconform-record-'));
