// Reading a file the user named: its text, or one ERR_IO line naming the option and the file.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readUserFile } from '../src/read-file.ts';

describe('readUserFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'payconform-read-'));
  const file = join(dir, 'key.txt');
  writeFileSync(file, 'é\n');

  it('returns the UTF-8 text of the file', () => {
    assert.equal(readUserFile(file, '--control-key-file'), 'é\n');
  });

  it('names the option, the file and the reason in one line', () => {
    const missing = join(dir, 'none.txt');
    assert.throws(() => readUserFile(missing, '--control-key-file'), {
      code: 'ERR_IO',
      field: '--control-key-file',
      rule: 'cannot read (ENOENT)',
      message: `--control-key-file: cannot read ${missing} (ENOENT)`,
    });
    assert.throws(() => readUserFile(dir, 'PAYCONFORM_PRIVATE_KEY_FILE'), {
      message: `PAYCONFORM_PRIVATE_KEY_FILE: cannot read ${dir} (EISDIR)`,
    });
  });

  it('names the file once when the file is what the user gave (a positional argument)', () => {
    const missing = join(dir, 'none.json');
    assert.throws(() => readUserFile(missing, missing), {
      code: 'ERR_IO',
      message: `${missing}: cannot read (ENOENT)`,
    });
  });

  it('reads "-" as a file unless the option takes standard input', () => {
    assert.throws(() => readUserFile('-', '--merchants'), { message: /^--merchants: cannot read - \(ENOENT\)$/ });
  });

  it('refuses bytes that are not UTF-8, naming where the first is, instead of signing U+FFFD', () => {
    const raw = join(dir, 'raw.bin');
    writeFileSync(raw, Buffer.concat([Buffer.from('a=1&name=J'), Buffer.from([0xf6]), Buffer.from('rg')])); // latin-1 ö
    assert.throws(() => readUserFile(raw, '--body-file'), {
      code: 'ERR_ENCODING',
      field: '--body-file',
      message: `--body-file: ${raw} has bytes that are not UTF-8 (first at byte 10)`,
    });
    writeFileSync(raw, Buffer.concat([Buffer.from('é'), Buffer.from([0xe2, 0x82])])); // a sequence cut short at the end
    assert.throws(() => readUserFile(raw, '--body-file'), { message: /\(first at byte 2\)$/ });
    writeFileSync(raw, Buffer.from('\ufeffa=1'));
    assert.equal(readUserFile(raw, '--body-file'), '\ufeffa=1', 'a byte-order mark is kept, as before');
  });

  it('cleans up', () => rmSync(dir, { recursive: true, force: true }));
});
