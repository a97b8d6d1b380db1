// Signed evidence (manifest.jws) and `payconform bundle verify`: an intact bundle verifies, one
// changed byte in any file is caught and named, a wrong key is caught, an unsigned bundle verifies
// its digests and says it is unsigned. The JWS is also checked without jose, with node:crypto alone.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleSigningKey, signBundle, verifyBundle } from '../../src/report/bundle-signature.ts';
import { manifestOf } from '../../src/report/bundle.ts';
import { publicKeyOf, trustKey } from '../../src/report/bundle-trust.ts';
import { runCli } from '../support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'payconform-bundle-sig-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const pem = (bits: number) =>
  generateKeyPairSync('rsa', {
    modulusLength: bits,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
const merchant = pem(2048);
const stranger = pem(2048);
const FILES: Record<string, string> = {
  'summary.json': '{"status":"passed"}\n',
  'report.html': '<p>PASS</p>\n',
  'junit.xml': '<testsuites/>\n',
  'sub/extra.txt': 'x\n',
};
const ABOUT = {
  payconform: '0.1.0',
  target: 'https://sandbox.example/paynet',
  status: 'passed',
  startedAt: '2026-11-25T00:00:00Z',
  finishedAt: '2026-11-25T00:01:00Z',
};

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
  it("an intact signed bundle verifies, against its own key and against the merchant's public key", async () => {
    const d = await bundle('intact', true);
    const own = await verifyBundle(d);
    assert.deepEqual([own.problems, own.signed, own.trusted], [[], true, false]);
    const given = await verifyBundle(d, trustKey(publicKeyOf(merchant.publicKey, 'k')));
    assert.deepEqual([given.problems, given.trusted, given.verdict], [[], true, 'passed']);
    assert.equal(given.payload!.target, ABOUT.target);
  });

  it("is a JWS that node:crypto alone verifies (RS256 over header.payload), with every file's SHA-256", async () => {
    const d = await bundle('independent', true);
    const [header, payload, signature] = readFileSync(join(d, 'manifest.jws'), 'utf8').trim().split('.');
    const decoded = (s: string) => JSON.parse(Buffer.from(s, 'base64url').toString('utf8'));
    assert.equal(decoded(header!).alg, 'RS256');
    assert.equal(
      verify('sha256', Buffer.from(`${header}.${payload}`), merchant.publicKey, Buffer.from(signature!, 'base64url')),
      true,
    );
    const files = decoded(payload!).files as Array<{ path: string; sha256: string }>;
    assert.deepEqual(
      files.map((f) => f.path),
      Object.keys(FILES).sort(),
    );
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
    // Another key than the one trusted: intact, but not trusted (the trust model's to say, not a problem).
    const other = await verifyBundle(fresh, trustKey(publicKeyOf(stranger.publicKey, 'k')));
    assert.deepEqual([other.problems, other.trusted], [[], false]);
    const [h, , s] = readFileSync(join(fresh, 'manifest.jws'), 'utf8').trim().split('.');
    const forged = Buffer.from(JSON.stringify({ ...ABOUT, status: 'passed', signedAt: 'x', files: [] })).toString(
      'base64url',
    );
    writeFileSync(join(fresh, 'manifest.jws'), `${h}.${forged}.${s}\n`);
    assert.deepEqual((await verifyBundle(fresh)).problems, [
      'manifest.jws: the signature does not verify (the signature or the signed manifest was edited)',
    ]);
  });

  it('manifest.jws byte for byte as written: its line break dropped, doubled or spaced is a changed bundle', async () => {
    const original = await bundle('jws-bytes', true);
    const written = readFileSync(join(original, 'manifest.jws'), 'utf8');
    for (const [name, text] of [
      ['no-break', written.slice(0, -1)],
      ['two-breaks', `${written}\n`],
      ['crlf', written.replace(/\n$/, '\r\n')],
      ['leading-space', ` ${written}`],
    ] as const) {
      const d = join(dir, `jws-${name}`);
      cpSync(original, d, { recursive: true });
      writeFileSync(join(d, 'manifest.jws'), text);
      assert.deepEqual(
        (await verifyBundle(d)).problems,
        ['manifest.jws: not as written (one compact JWS and a line break)'],
        name,
      );
    }
  });

  it('an unsigned bundle verifies its digests and says it is unsigned', async () => {
    const d = await bundle('unsigned', false);
    assert.deepEqual(await verifyBundle(d), { problems: [], signed: false, trusted: false, verdict: 'passed' });
    flipOneByte(join(d, 'report.html'));
    assert.deepEqual((await verifyBundle(d)).problems, [
      'report.html: changed since the run (SHA-256 differs from manifest.json)',
    ]);
  });

  it('refuses keys too weak or not RSA', () => {
    assert.throws(() => bundleSigningKey(pem(1024).privateKey, '--sign-key'), {
      code: 'ERR_BUNDLE',
      message: /^--sign-key: must be an RSA key of at least 2048 bits \(got rsa 1024\)$/,
    });
    const ec = generateKeyPairSync('ec', {
      namedCurve: 'P-256',
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    assert.throws(() => bundleSigningKey(ec.privateKey, '--sign-key'), { message: /must be an RSA key/ });
    assert.throws(() => bundleSigningKey('not a key', '--sign-key'), {
      message: '--sign-key: is not a PEM private key',
    });
  });

  it('certify --sign-key signs its bundle (and refuses a weak key before running)', () => {
    const bin = new URL('../../bin/payconform.js', import.meta.url).pathname;
    const keyFile = join(dir, 'merchant.pem');
    writeFileSync(keyFile, merchant.privateKey);
    writeFileSync(join(dir, 'merchant.pub.pem'), merchant.publicKey);
    const report = join(dir, 'certified');
    const run = spawnSync(
      process.execPath,
      [bin, 'certify', '--tags', '@endpoint:SALE and @positive', '--report-dir', report, '--sign-key', keyFile],
      { encoding: 'utf8', env: { ...process.env, CI: 'true' } },
    );
    assert.equal(run.status, 0, run.stderr);
    const checked = spawnSync(
      process.execPath,
      [bin, 'bundle', 'verify', report, '--public-key', join(dir, 'merchant.pub.pem')],
      { encoding: 'utf8' },
    );
    assert.equal(checked.status, 0, checked.stdout + checked.stderr);
    assert.match(
      checked.stdout,
      /^VERIFIED: .*: 5 files match manifest\.jws, signed by a key you trust \(SHA-256 [^)]+\); run verdict PASSED; the embedded mock gateway \(TEST-ONLY merchant\)/,
    );
    const weak = join(dir, 'weak.pem');
    writeFileSync(weak, pem(1024).privateKey);
    const refused = spawnSync(
      process.execPath,
      [bin, 'certify', '--report-dir', join(dir, 'never'), '--sign-key', weak],
      { encoding: 'utf8', env: { ...process.env, CI: 'true' } },
    );
    assert.deepEqual(
      [refused.status, refused.stderr.trim()],
      [2, 'payconform certify: --sign-key: must be an RSA key of at least 2048 bits (got rsa 1024)'],
    );
  });

  it('payconform bundle verify: exit 0 intact, 1 tampered (one line naming the file), 2 not a bundle', async () => {
    const d = await bundle('cli', true);
    const keyFile = join(dir, 'merchant.pub.pem');
    writeFileSync(keyFile, merchant.publicKey);
    const ok = await runCli(['bundle', 'verify', d, '--public-key', keyFile]);
    assert.deepEqual([ok.code, ok.err], [0, '']);
    assert.match(
      ok.out,
      /^VERIFIED: .*: 4 files match manifest\.jws, signed by a key you trust \(SHA-256 .*\); run verdict PASSED; https:\/\/sandbox\.example\/paynet, signed /,
    );
    flipOneByte(join(d, 'summary.json'));
    const bad = await runCli(['bundle', 'verify', d]);
    assert.equal(bad.code, 1);
    assert.equal(
      bad.out,
      `NOT INTACT: ${d}: summary.json: changed since the run (SHA-256 differs from manifest.jws); the bundle claims run verdict PASSED, which cannot be relied on\n`,
    );
    const none = await runCli(['bundle', 'verify', join(dir, 'nowhere')]);
    assert.deepEqual(
      [none.code, none.err],
      [2, `payconform bundle verify: DIR: ${join(dir, 'nowhere')} is not a folder\n`],
    );
    const unsigned = await bundle('cli-unsigned', false);
    const plain = await runCli(['bundle', 'verify', unsigned]);
    assert.equal(plain.code, 1);
    assert.match(
      plain.out,
      /^UNSIGNED: .*: every file matches manifest\.json, but nothing proves who made it; the bundle claims run verdict PASSED, unproven\. --integrity-only/,
    );
  });
});

// The trust model (docs/certify.md): only a key the user named vouches for a bundle.
describe('bundle verify: whom to believe', () => {
  // keygen's fingerprint, recomputed here from the PEM with node:crypto alone.
  const fingerprintOf = (publicPem: string): string =>
    createHash('sha256')
      .update(createPublicKey(publicPem).export({ type: 'spki', format: 'der' }))
      .digest('base64');
  const write = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const merchantPub = (): string => write('trust-merchant.pub.pem', merchant.publicKey);
  const strangerPub = (): string => write('trust-stranger.pub.pem', stranger.publicKey);

  /** A FAILED run edited to PASSED and re-signed with the attacker's own key. */
  async function forged(name: string): Promise<string> {
    const d = await bundle(name, true);
    writeFileSync(join(d, 'summary.json'), '{"status":"passed"}\n');
    writeFileSync(join(d, 'manifest.json'), `${JSON.stringify(manifestOf(d), null, 2)}\n`);
    await signBundle(d, bundleSigningKey(stranger.privateKey, '--sign-key'), { ...ABOUT, status: 'passed' });
    return d;
  }

  it("a bundle re-signed with a key nobody named is refused, exit 1, with that key's fingerprint and how to trust it", async () => {
    const d = await forged('forged');
    for (const args of [[], ['--public-key', merchantPub()]]) {
      const r = await runCli(['bundle', 'verify', d, ...args]);
      assert.equal(r.code, 1, r.out);
      assert.equal(r.out.trim().split('\n').length, 1);
      assert.match(r.out, /^UNTRUSTED KEY: /);
      assert.ok(r.out.includes(`SHA-256 ${fingerprintOf(stranger.publicKey)}`), r.out);
      assert.ok(!r.out.includes(fingerprintOf(merchant.publicKey)));
      assert.match(
        r.out,
        /run verdict PASSED, unproven\. .*--public-key THEIR\.pub\.pem or the line ".*" in the file of --trusted-keys or PAYCONFORM_TRUSTED_KEYS$/m,
      );
    }
  });

  it('exit 0 for a key the user named: --public-key (repeatable), a trusted-keys file by flag or variable, a fingerprint line', async () => {
    const d = await bundle('trusted', true);
    const fp = fingerprintOf(merchant.publicKey);
    const keysFile = write('trusted-keys.pem', `# partners\n${stranger.publicKey}\n${merchant.publicKey}`);
    const fpFile = write('trusted-fingerprints.txt', `# merchant, confirmed by phone\nSHA-256 ${fp}\n`);
    const cases: Array<[string[], Record<string, string>]> = [
      [['--public-key', strangerPub(), '--public-key', merchantPub()], {}],
      [['--trusted-keys', keysFile], {}],
      [[], { PAYCONFORM_TRUSTED_KEYS: fpFile }],
      [['--trusted-keys', fpFile], { PAYCONFORM_TRUSTED_KEYS: write('empty-keys.txt', '# nobody\n') }],
    ];
    for (const [args, env] of cases) {
      const r = await runCli(['bundle', 'verify', d, ...args], env);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.out}${r.err}`);
      assert.match(
        r.out,
        new RegExp(
          `^VERIFIED: .*signed by a key you trust \\(SHA-256 ${fp.replace(/[+/]/g, '\\$&')}\\); run verdict PASSED;`,
        ),
      );
    }
    // Only the stranger trusted: the merchant's genuine bundle is not vouched for by anyone named.
    assert.equal((await runCli(['bundle', 'verify', d, '--public-key', strangerPub()])).code, 1);
  });

  it('a trusted-keys file that is not keys, fingerprints and comments is bad input, one line naming file and line', async () => {
    const d = await bundle('bad-keys', true);
    const bad = write('bad-keys.txt', '# ok\nSHA-256 not-a-fingerprint\n');
    for (const [args, env, field] of [
      [['--trusted-keys', bad], {}, '--trusted-keys'],
      [[], { PAYCONFORM_TRUSTED_KEYS: bad }, 'PAYCONFORM_TRUSTED_KEYS'],
    ] as const) {
      const r = await runCli(['bundle', 'verify', d, ...args], { ...env });
      assert.deepEqual(
        [r.code, r.err],
        [
          2,
          `payconform bundle verify: ${field}: line 2 is neither a PEM public key, a SHA-256 fingerprint (as keygen prints it) nor a # comment\n`,
        ],
      );
    }
  });

  it('integrity alone only when asked, and then the line says "no proof of origin"', async () => {
    const unsigned = await bundle('integrity-unsigned', false);
    const forgedOne = await forged('integrity-forged');
    for (const d of [unsigned, forgedOne]) {
      assert.equal((await runCli(['bundle', 'verify', d])).code, 1);
      const r = await runCli(['bundle', 'verify', d, '--integrity-only']);
      assert.equal(r.code, 0, r.out);
      assert.match(r.out, /^INTACT, no proof of origin: .*; the bundle claims run verdict PASSED$/m);
    }
    flipOneByte(join(unsigned, 'report.html'));
    assert.equal(
      (await runCli(['bundle', 'verify', unsigned, '--integrity-only'])).code,
      1,
      'integrity alone still needs integrity',
    );
  });

  it('a manifest or a signed payload of the wrong shape is "not intact", never an internal error', async () => {
    const unsigned = await bundle('shape-unsigned', false);
    writeFileSync(join(unsigned, 'manifest.json'), JSON.stringify({ files: [null, 5] }));
    const r = await runCli(['bundle', 'verify', unsigned, '--integrity-only']);
    assert.deepEqual([r.code, r.err], [1, '']);
    assert.match(r.out, /^NOT INTACT: .*manifest\.json: not a manifest/);
    // Signed by hand (node:crypto, RS256 over header.payload) with a payload whose files are not a list.
    const d = await bundle('shape-signed', true);
    const jwk = createPublicKey(stranger.publicKey).export({ format: 'jwk' });
    const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
    const signingInput = `${b64({ alg: 'RS256', typ: 'payconform-bundle+jws', jwk: { kty: jwk.kty, n: jwk.n, e: jwk.e } })}.${b64({ ...ABOUT, files: 'all of them' })}`;
    writeFileSync(
      join(d, 'manifest.jws'),
      `${signingInput}.${sign('sha256', Buffer.from(signingInput), stranger.privateKey).toString('base64url')}\n`,
    );
    const forged = await runCli(['bundle', 'verify', d, '--integrity-only']);
    assert.deepEqual([forged.code, forged.err], [1, '']);
    assert.match(forged.out, /^NOT INTACT: .*manifest\.jws: the signed payload is not a bundle manifest/);
  });

  it("every answer names the run's verdict: PASSED, FAILED, INTERRUPTED", async () => {
    for (const status of ['failed', 'interrupted', 'passed-with-warnings']) {
      const d = join(dir, `verdict-${status}`);
      mkdirSync(d);
      writeFileSync(join(d, 'summary.json'), JSON.stringify({ status }));
      writeFileSync(join(d, 'manifest.json'), `${JSON.stringify(manifestOf(d), null, 2)}\n`);
      const word = status.toUpperCase().replaceAll('-', ' ');
      assert.match((await runCli(['bundle', 'verify', d])).out, new RegExp(`run verdict ${word}, unproven`));
      assert.match(
        (await runCli(['bundle', 'verify', d, '--integrity-only'])).out,
        new RegExp(`run verdict ${word}$`, 'm'),
      );
      await signBundle(d, bundleSigningKey(merchant.privateKey, '--sign-key'), { ...ABOUT, status });
      assert.match(
        (await runCli(['bundle', 'verify', d, '--public-key', merchantPub()])).out,
        new RegExp(`^VERIFIED: .*run verdict ${word};`),
      );
      writeFileSync(join(d, 'late.txt'), 'x');
      assert.match(
        (await runCli(['bundle', 'verify', d])).out,
        new RegExp(`^NOT INTACT: .*; the bundle claims run verdict ${word}, which cannot be relied on`),
      );
    }
  });
});
