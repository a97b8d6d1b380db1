// Report folders: each run its own, made exclusively; an earlier run's folder only with --force,
// which removes that run's files and nothing else; a folder holding anything else is refused.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { isPayconformError } from '../../src/errors.ts';
import { bundleSigningKey } from '../../src/report/bundle-signature.ts';
import { claimReportDir } from '../../src/report/report-dir.ts';
import { runSuite } from '../../src/suite/run.ts';
import { resolveTarget } from '../../src/suite/target.ts';
import { runCli } from '../support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'payconform-report-dir-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = (): string => join(dir, `d${n++}`);

function refused(f: () => unknown, rule: RegExp): void {
  assert.throws(f, (err: unknown) => {
    assert.ok(isPayconformError(err), String(err));
    assert.equal(err.code, 'ERR_OUT_DIR');
    assert.equal(err.field, '--report-dir');
    assert.match(err.message, rule);
    assert.equal(err.message.split('\n').length, 1);
    return true;
  });
}

describe('claimReportDir', () => {
  it('two runs started in the same second (one stamp) each get their own folder, made exclusively', () => {
    const cwd = process.cwd();
    const project = fresh();
    mkdirSync(project);
    process.chdir(project);
    try {
      const a = claimReportDir(undefined, false, '2026-11-25T00-00-00Z');
      const b = claimReportDir(undefined, false, '2026-11-25T00-00-00Z');
      assert.notEqual(a.dir, b.dir);
      assert.deepEqual(readdirSync(join(project, 'reports')).sort(), [
        '2026-11-25T00-00-00Z',
        '2026-11-25T00-00-00Z-2',
      ]);
      b.abandon();
      assert.deepEqual(
        readdirSync(join(project, 'reports')),
        ['2026-11-25T00-00-00Z'],
        'a run that never started leaves no folder',
      );
    } finally {
      process.chdir(cwd);
    }
  });

  it('a named folder is held by one run at a time', () => {
    const d = fresh();
    const first = claimReportDir(d, false, 's');
    refused(() => claimReportDir(d, false, 's'), /is in use by another run/);
    first.release();
    assert.deepEqual(readdirSync(d), [], 'the lock is gone before the run lists its files');
    claimReportDir(d, false, 's').release();
  });

  it('an earlier run is refused without --force; --force removes its files, stale manifest.jws included, and nothing else', () => {
    const d = fresh();
    mkdirSync(d);
    for (const f of ['summary.json', 'manifest.json', 'manifest.jws', 'report.html', 'junit.xml'])
      writeFileSync(join(d, f), 'old');
    refused(() => claimReportDir(d, false, 's'), /holds an earlier run; choose another --report-dir or pass --force/);
    assert.equal(readdirSync(d).length, 5, 'nothing removed when refused');
    claimReportDir(d, true, 's').release();
    assert.deepEqual(readdirSync(d), []);
  });

  it('`.` or any folder holding something a run does not write is refused even with --force, and left whole', () => {
    const cwd = process.cwd();
    const project = fresh();
    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(join(project, 'package.json'), '{}');
    writeFileSync(join(project, 'summary.json'), 'mine');
    process.chdir(project);
    try {
      for (const force of [false, true])
        refused(
          () => claimReportDir('.', force, 's'),
          /\. is not empty and is not a certify bundle \(it holds (package\.json|src)\)/,
        );
    } finally {
      process.chdir(cwd);
    }
    assert.deepEqual(readdirSync(project).sort(), ['package.json', 'src', 'summary.json']);
    const linked = fresh();
    mkdirSync(linked);
    symlinkSync('/etc/hostname', join(linked, 'summary.json'));
    refused(() => claimReportDir(linked, true, 's'), /summary\.json is not a regular file/);
  });

  it('abandon removes a folder the claim made, never one that was there', () => {
    const made = fresh();
    claimReportDir(made, false, 's').abandon();
    assert.ok(!existsSync(made));
    const there = fresh();
    mkdirSync(there);
    claimReportDir(there, false, 's').abandon();
    assert.deepEqual(readdirSync(there), []);
  });
});

describe('a report folder that cannot be made', () => {
  // /proc refuses mkdir with ENOENT though its parent exists; a path under a file; a folder this user cannot write in
  // (root writes in any chmod-ed folder, so for root /sys, where even root makes no folder).
  const file = join(dir, 'a-file');
  writeFileSync(file, 'not a folder');
  const readOnly = join(dir, 'read-only');
  mkdirSync(readOnly, { mode: 0o555 });
  const unwritable = process.getuid?.() === 0 ? '/sys/payconform-test' : join(readOnly, 'sub');
  const cases: [string, string, RegExp][] = [
    ['/proc/x', '/proc', /^--report-dir: cannot make \/proc\/x \(ENOENT\)$/],
    ['/proc/x/y', '/proc', /^--report-dir: cannot make \/proc\/x\/y \(ENOENT\)$/],
    ['under a file', join(file, 'sub'), /^--report-dir: cannot use .*a-file\/sub \(ENOTDIR\)$/],
    ['an unwritable folder', unwritable, /^--report-dir: cannot (make|write in) \S+ \(E(ACCES|PERM)\)$/],
  ];
  for (const [name, path, rule] of cases) {
    const at = name.startsWith('/') ? name : path;
    it(`${name}: refused with one line naming --report-dir and why`, () => {
      refused(() => claimReportDir(at, false, 's'), rule);
    });
  }

  it('certify and inspect --report-dir /proc/x …: one line naming --report-dir and the reason, exit 2', async () => {
    for (const command of ['certify', 'inspect'])
      for (const [name, path, rule] of cases) {
        const at = name.startsWith('/') ? name : path;
        const { code, out, err } = await runCli([command, '--report-dir', at], { CI: 'true' });
        assert.equal(code, 2, err);
        assert.equal(err.split('\n').length, 2, err);
        assert.match(err.replace(`payconform ${command}: `, '').trimEnd(), rule);
        assert.equal(out, '', 'nothing started');
      }
  });
});

describe('certify into a folder that held a run', () => {
  const quiet = { log: () => {}, progress: new PassThrough().resume() };
  const TAGS = '@endpoint:SALE and @positive';
  it('is refused without --force (exit 2, one line); with --force the new bundle has no stale manifest.jws', async () => {
    const d = fresh();
    const { privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    await runSuite(
      {
        target: resolveTarget({ live: false }, {}),
        tags: TAGS,
        reportDir: d,
        signKey: bundleSigningKey(privateKey, 'k'),
      },
      quiet,
    );
    assert.ok(existsSync(join(d, 'manifest.jws')));
    const again = await runCli(['certify', '--tags', TAGS, '--report-dir', d], { CI: 'true' });
    assert.deepEqual(
      [again.code, again.err],
      [
        2,
        `payconform certify: --report-dir: ${d} holds an earlier run; choose another --report-dir or pass --force to replace its files\n`,
      ],
    );
    const forced = await runCli(['certify', '--tags', TAGS, '--report-dir', d, '--force'], { CI: 'true' });
    assert.equal(forced.code, 0, forced.err);
    assert.ok(!existsSync(join(d, 'manifest.jws')), "the earlier run's signature does not vouch for the new run");
    assert.ok(!existsSync(join(d, '.payconform-run')));
    const listed = JSON.parse(readFileSync(join(d, 'manifest.json'), 'utf8')).files.map(
      (f: { path: string }) => f.path,
    );
    assert.deepEqual(listed, ['cucumber.html', 'junit.xml', 'messages.ndjson', 'report.html', 'summary.json']);
    const unsigned = await runCli(['bundle', 'verify', d, '--integrity-only']);
    assert.equal(unsigned.code, 0, unsigned.out);
  });
});
