// Signed evidence (manifest.jws) and `payconform bundle verify`: an intact bundle verifies, one
// changed byte in any file is caught and named, a wrong key is caught, an unsigned bundle verifies
// its digests and says it is unsigned. The JWS is also checked without jose, with node:crypto alone.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash, generateKeyPairSync, verify } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleSigningKey, signBundle, verifyBundle } from '../../src/report/bundle-signature.ts';
import { manifestOf } from '../../src/report/bundle.ts';
import { runCli } from '../support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'payconform-bundle-sig-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const pem = (bits: number) => generateKeyPairSync('rsa', { modulusLength: bits, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
const merchant = pem(2048);
const stranger = pem(2048);
const FILES: Record<string, string> = { 'summary.json': '{"status":"passed"}\n', 'report.html': '<p>PASS</p>\n', 'junit.xml': '<testsuites/>\n', 'sub/extra.txt': 'x\n' };
const ABOUT = { payconform: '0.1.0', target: 'https://sandbox.example/paynet', status: 'passed', startedAt: '2026-11-25T00:00:00Z', finishedAt: '2026-11-25T00:01:00Z' };

/** A bundle as certify writes it: the files, manifest.json, and (signed) manifest.jws. */
async function bundle(name: string, signed: boolean): Promise<string> {
  const d = join(dir, name);
  mkdirSync(join(d, 'sub'), { recursive: true });
  for (const [path, text] of Object.entries(FILES)) writeFileSync(join(d, path), text);
  writeFileSync(join(d, 'manifest.json'), `${JSON.stringify(manifestOf(d), null, 2)}\n`);
  if (signed) await signBundle(d, bundleSigningKey(merchant.privateKey, '--sign-key'), ABOUT);
  return d;
}

const flipOneByte = (file: string): void => {
  const bytes = readFileSync(file);
  bytes[0] = bytes[0]! ^ 0x01;
  writeFileSync(file, bytes);
};

describe('signed evidence', () => {
  it('an intact signed bundle verifies, against its own key and against the merchant\'s public key', async () => {
    const d = await bundle('intact', true);
    const own = await verifyBundle(d);
    assert.deepEqual([own.problems, own.signed, own.keyGiven], [[], true, false]);
    const given = await verifyBundle(d, merchant.publicKey);
    assert.deepEqual([given.problems, given.keyGiven], [[], true]);
    assert.equal(given.payload!.target, ABOUT.target);
  });

  it('is a JWS that node:crypto alone verifies (RS256 over header.payload), with every file\'s SHA-256', async () => {
    const d = await bundle('independent', true);
    const [header, payload, signature] = readFileSync(join(d, 'manifest.jws'), 'utf8').trim().split('.');
    const decoded = (s: string) => JSON.parse(Buffer.from(s, 'base64url').toString('utf8'));
    assert.equal(decoded(header!).alg, 'RS256');
    assert.equal(verify('sha256', Buffer.from(`${header}.${payload}`), merchant.publicKey, Buffer.from(signature!, 'base64url')), true);
    const files = decoded(payload!).files as Array<{ path: string; sha256: string }>;
    assert.deepEqual(files.map((f) => f.path), Object.keys(FILES).sort());
    for (const f of files) assert.equal(f.sha256, createHash('sha256').update(FILES[f.path]!).digest('hex'), f.path);
  });

  it('one changed byte in any file, the manifest included, is caught and named', async () => {
    const original = await bundle('original', true);
    for (const path of [...Object.keys(FILES), 'manifest.json']) {
      const d = join(dir, `tampered-${path.replace('/', '-')}`);
      cpSync(original, d, { recursive: true });
      flipOneByte(join(d, path));
      const check = await verifyBundle(d);
      assert.equal(check.problems.length, 1, `${path}: ${check.problems.join('; ')}`);
      assert.match(check.problems[0]!, new RegExp(`^${path.replace('.', '\\.')}: `), path);
    }
  });

  it('a file added or removed after the run, a signature made with another key, an edited signature', async () => {
    const d = await bundle('others', true);
    writeFileSync(join(d, 'late.txt'), 'added');
    assert.deepEqual((await verifyBundle(d)).problems, ['late.txt: not in manifest.jws (added after the run)']);
    rmSync(join(d, 'late.txt'));
    rmSync(join(d, 'junit.xml'));
    assert.deepEqual((await verifyBundle(d)).problems, ['junit.xml: missing (listed in manifest.jws)']);
    const fresh = await bundle('wrong-key', true);
    assert.deepEqual((await verifyBundle(fresh, stranger.publicKey)).problems, ['manifest.jws: signed with another key than --public-key']);
    const [h, , s] = readFileSync(join(fresh, 'manifest.jws'), 'utf8').trim().split('.');
    const forged = Buffer.from(JSON.stringify({ ...ABOUT, status: 'passed', signedAt: 'x', files: [] })).toString('base64url');
    writeFileSync(join(fresh, 'manifest.jws'), `${h}.${forged}.${s}\n`);
    assert.deepEqual((await verifyBundle(fresh)).problems, ['manifest.jws: the signature does not verify']);
  });

  it('an unsigned bundle verifies its digests and says it is unsigned', async () => {
    const d = await bundle('unsigned', false);
    assert.deepEqual(await verifyBundle(d), { problems: [], signed: false, keyGiven: false });
    flipOneByte(join(d, 'report.html'));
    assert.deepEqual((await verifyBundle(d)).problems, ['report.html: changed since the run (SHA-256 differs from manifest.json)']);
  });

  it('refuses keys too weak or not RSA', () => {
    assert.throws(() => bundleSigningKey(pem(1024).privateKey, '--sign-key'), { code: 'ERR_BUNDLE', message: /^--sign-key: must be an RSA key of at least 2048 bits \(got rsa 1024\)$/ });
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256', privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    assert.throws(() => bundleSigningKey(ec.privateKey, '--sign-key'), { message: /must be an RSA key/ });
    assert.throws(() => bundleSigningKey('not a key', '--sign-key'), { message: '--sign-key: is not a PEM private key' });
  });

  it('certify --sign-key signs its bundle (and refuses a weak key before running)', () => {
    const bin = new URL('../../bin/payconform.js', import.meta.url).pathname;
    const keyFile = join(dir, 'merchant.pem');
    writeFileSync(keyFile, merchant.privateKey);
    writeFileSync(join(dir, 'merchant.pub.pem'), merchant.publicKey);
    const report = join(dir, 'certified');
    const run = spawnSync(process.execPath, [bin, 'certify', '--tags', '@endpoint:SALE and @positive', '--report-dir', report, '--sign-key', keyFile], { encoding: 'utf8', env: { ...process.env, CI: 'true' } });
    assert.equal(run.status, 0, run.stderr);
    const checked = spawnSync(process.execPath, [bin, 'bundle', 'verify', report, '--public-key', join(dir, 'merchant.pub.pem')], { encoding: 'utf8' });
    assert.equal(checked.status, 0, checked.stdout + checked.stderr);
    assert.match(checked.stdout, /^INTACT, SIGNED: 5 files match manifest\.jws, signed by the key of --public-key; the embedded mock gateway \(TEST-ONLY merchant\), passed/);
    const weak = join(dir, 'weak.pem');
    writeFileSync(weak, pem(1024).privateKey);
    const refused = spawnSync(process.execPath, [bin, 'certify', '--report-dir', join(dir, 'never'), '--sign-key', weak], { encoding: 'utf8', env: { ...process.env, CI: 'true' } });
    assert.deepEqual([refused.status, refused.stderr.trim()], [2, 'payconform certify: --sign-key: must be an RSA key of at least 2048 bits (got rsa 1024)']);
  });

  it('payconform bundle verify: exit 0 intact, 1 tampered (one line naming the file), 2 not a bundle', async () => {
    const d = await bundle('cli', true);
    const keyFile = join(dir, 'merchant.pub.pem');
    writeFileSync(keyFile, merchant.publicKey);
    const ok = await runCli(['bundle', 'verify', d, '--public-key', keyFile]);
    assert.deepEqual([ok.code, ok.err], [0, '']);
    assert.match(ok.out, /^INTACT, SIGNED: 4 files match manifest\.jws, signed by the key of --public-key; https:\/\/sandbox\.example\/paynet, passed, signed /);
    flipOneByte(join(d, 'summary.json'));
    const bad = await runCli(['bundle', 'verify', d]);
    assert.equal(bad.code, 1);
    assert.equal(bad.out, `FAILED: ${d}: summary.json: changed since the run (SHA-256 differs from manifest.jws)\n`);
    const none = await runCli(['bundle', 'verify', join(dir, 'nowhere')]);
    assert.deepEqual([none.code, none.err], [2, `payconform bundle verify: DIR: ${join(dir, 'nowhere')} is not a folder\n`]);
    const unsigned = await bundle('cli-unsigned', false);
    assert.match((await runCli(['bundle', 'verify', unsigned])).out, /^INTACT, UNSIGNED: every file matches manifest\.json; nobody vouches for it/);
  });
});
