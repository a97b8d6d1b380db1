// A report that cannot be written: certify into a folder on a full disk (a 96 KiB tmpfs, mounted for the test;
// skipped where this process cannot mount, i.e. not as root). Before, the run ended in "internal error: Cannot
// call end after a stream was destroyed" and left a 0-byte junit.xml and half-written files beside it.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const bin = new URL('../../bin/payconform.js', import.meta.url).pathname;
const mountPoint = mkdtempSync(join(tmpdir(), 'payconform-full-'));
const mounted =
  process.getuid?.() === 0 && spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=96k', 'tmpfs', mountPoint]).status === 0;

describe('certify on a full disk', { skip: mounted ? false : 'needs root to mount a small tmpfs' }, () => {
  before(() => assert.ok(mounted));
  after(() => {
    spawnSync('umount', [mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  });

  it('ends with one line naming the folder and ENOSPC, exit 2, and leaves only a summary that says incomplete', () => {
    const dir = join(mountPoint, 'run');
    const run = spawnSync(process.execPath, [bin, 'certify', '--report-dir', dir], {
      encoding: 'utf8',
      env: { ...process.env, CI: 'true' },
      timeout: 120_000,
    });
    assert.equal(run.status, 2, run.stderr);
    // certify's own progress lines aside ("certify: …"), the error is one line, and the last.
    const errors = run.stderr
      .trim()
      .split('\n')
      .filter((line) => !line.startsWith('certify: '));
    assert.equal(errors.length, 1, run.stderr);
    assert.match(
      errors[0]!,
      /^payconform certify: the report could not be written to .*\/run: no space left on the device \(ENOSPC\)/,
    );
    assert.doesNotMatch(run.stderr, /internal error|at .*\.js:\d+/);
    const left = readdirSync(dir);
    assert.deepEqual(left, ['summary.json'], `left behind: ${left.join(', ')}`);
    for (const name of left) assert.ok(statSync(join(dir, name)).size > 0, `${name} is empty`);
    assert.equal(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')).status, 'incomplete');
  });
});
