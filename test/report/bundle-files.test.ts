// A received bundle is hostile input: `bundle verify` opens only regular files, each read at most
// to its listed size. Real symlinks (to /dev/zero, to a folder, to matching content outside the
// bundle) and a real FIFO, run through the built command line with a timeout: a hang or a memory
// blow-up is a failure, not a stuck test.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleSigningKey, signBundle } from '../../src/report/bundle-signature.ts';
import { manifestOf } from '../../src/report/bundle.ts';

const bin = new URL('../../bin/payconform.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'payconform-bundle-files-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const { privateKey, publicKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
const pub = join(dir, 'merchant.pub.pem');
writeFileSync(pub, publicKey);
const FILES: Record<string, string> = {
  'summary.json': '{"status":"failed"}\n',
  'report.html': '<p>FAIL</p>\n',
  'junit.xml': '<testsuites/>\n',
};

let n = 0;
async function bundle(signed: boolean): Promise<string> {
  const d = join(dir, `b${n++}`);
  mkdirSync(d);
  for (const [path, text] of Object.entries(FILES)) writeFileSync(join(d, path), text);
  writeFileSync(join(d, 'manifest.json'), `${JSON.stringify(manifestOf(d), null, 2)}\n`);
  if (signed)
    await signBundle(d, bundleSigningKey(privateKey, '--sign-key'), {
      payconform: '0.1.0',
      target: 't',
      status: 'failed',
      startedAt: 'a',
      finishedAt: 'b',
    });
  return d;
}

/** The built CLI, killed after 20 s: a FIFO that blocks or /dev/zero read whole would hit it. */
function verify(d: string, ...args: string[]): { code: number | null; out: string; err: string; ms: number } {
  const started = Date.now();
  const r = spawnSync(process.execPath, [bin, 'bundle', 'verify', d, '--public-key', pub, ...args], {
    encoding: 'utf8',
    timeout: 20_000,
    maxBuffer: 1 << 20,
  });
  return { code: r.status, out: r.stdout, err: r.stderr, ms: Date.now() - started };
}

function refusedAtOnce(d: string, named: RegExp): void {
  for (const extra of [[], ['--integrity-only']]) {
    const r = verify(d, ...extra);
    assert.notEqual(r.code, null, `killed after ${r.ms} ms: it blocked or read without bound`);
    assert.equal(r.code, 1, r.out + r.err);
    assert.equal(r.err, '');
    assert.equal(r.out.trim().split('\n').length, 1, r.out);
    assert.match(r.out, /^NOT INTACT: /);
    assert.match(r.out, named);
    assert.doesNotMatch(r.out, /internal error/);
  }
}

describe('bundle verify: only regular files, each read to its listed size', () => {
  it('the genuine bundle verifies (the baseline every case below breaks)', async () => {
    const r = verify(await bundle(true));
    assert.equal(r.code, 0, r.out + r.err);
  });

  it('a listed file replaced by a symlink to /dev/zero is refused at once, not read', async () => {
    for (const signed of [true, false]) {
      const d = await bundle(signed);
      rmSync(join(d, 'report.html'));
      symlinkSync('/dev/zero', join(d, 'report.html'));
      refusedAtOnce(d, /report\.html: a symbolic link, not a regular file \(not opened\)/);
    }
  });

  it('a listed file replaced by a FIFO with no writer is refused at once, and so is an unlisted FIFO', async () => {
    const d = await bundle(true);
    rmSync(join(d, 'junit.xml'));
    execFileSync('mkfifo', [join(d, 'junit.xml')]);
    refusedAtOnce(d, /junit\.xml: a FIFO, not a regular file \(not opened\)/);
    const e = await bundle(true);
    execFileSync('mkfifo', [join(e, 'late.fifo')]);
    refusedAtOnce(e, /late\.fifo: a FIFO/);
  });

  it('a symlink to a folder, and to a copy outside the bundle whose SHA-256 matches, are not intact', async () => {
    const d = await bundle(true);
    rmSync(join(d, 'report.html'));
    symlinkSync(dir, join(d, 'report.html'));
    refusedAtOnce(d, /report\.html: a symbolic link/);
    const e = await bundle(true);
    const outside = join(dir, 'outside-report.html');
    writeFileSync(outside, FILES['report.html']!);
    rmSync(join(e, 'report.html'));
    symlinkSync(outside, join(e, 'report.html'));
    refusedAtOnce(e, /report\.html: a symbolic link/);
  });

  it('the signature or the manifest as a symlink to /dev/zero is refused at once', async () => {
    const signed = await bundle(true);
    rmSync(join(signed, 'manifest.jws'));
    symlinkSync('/dev/zero', join(signed, 'manifest.jws'));
    refusedAtOnce(signed, /manifest\.jws is a symbolic link, not a regular file \(not opened\)/);
    const unsigned = await bundle(false);
    rmSync(join(unsigned, 'manifest.json'));
    symlinkSync('/dev/zero', join(unsigned, 'manifest.json'));
    refusedAtOnce(unsigned, /manifest\.json: not a manifest/);
  });

  it('a file grown past its listed size is read only to that size and named', async () => {
    const d = await bundle(true);
    const listed = Buffer.byteLength(FILES['summary.json']!);
    appendFileSync(join(d, 'summary.json'), Buffer.alloc(8 << 20)); // 8 MB more
    refusedAtOnce(d, new RegExp(`summary\\.json: larger than listed \\(more than ${listed} bytes\\)`));
  });

  it('a copy made with its symlinks kept is still refused (cp -a of a hostile bundle)', async () => {
    const d = await bundle(true);
    rmSync(join(d, 'report.html'));
    symlinkSync('/dev/zero', join(d, 'report.html'));
    const copy = join(dir, 'copied');
    cpSync(d, copy, { recursive: true, verbatimSymlinks: true });
    refusedAtOnce(copy, /report\.html: a symbolic link/);
  });
});
