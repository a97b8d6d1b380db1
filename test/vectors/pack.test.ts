import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runCli } from '../support/cli.ts';
import { isPayconformError } from '../../src/errors.ts';
import { writePack } from '../../src/vectors/pack.ts';

const keyFile = new URL('../../vectors/keys/test-only-merchant-rsa-2048.pem', import.meta.url).pathname;
const SECRET = 'partner-TEST-key-9c1d';
let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'payconform-pack-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function cli(args: string[], env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  const { code, out, err } = await runCli(args, env);
  return { code, out, err };
}
const env = { PAYCONFORM_LOGIN: 'partner-login', PAYCONFORM_CONTROL_KEY: SECRET, PAYCONFORM_PRIVATE_KEY_FILE: keyFile };
const allText = (root: string): string =>
  readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath ?? (e as unknown as { path: string }).path, e.name), 'utf8'))
    .join('\n');

describe('vectors pack', () => {
  it('writes vectors and a README per operation with secrets as placeholders, checkable with the partner key', async () => {
    const out = join(dir, 'pack');
    const r = await cli(
      ['vectors', 'pack', '--operation', 'SALE', '--operation', 'PAYOUT', '--operation', 'PAYOUT_V4', '--out', out],
      env,
    );
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(readdirSync(out).sort(), [
      '.payconform-pack.json',
      'PAYOUT',
      'PAYOUT_V4',
      'README.md',
      'SALE',
      'vectors.json',
    ]);
    const text = allText(out);
    assert.ok(!text.includes(SECRET) && !text.includes('BEGIN PRIVATE KEY'), 'no secret in the pack');
    assert.match(readFileSync(join(out, 'SALE', 'README.md'), 'utf8'), /<merchant_control_key>/);
    assert.match(readFileSync(join(out, 'PAYOUT', 'README.md'), 'utf8'), /Signature base string/);
    const withKey = await cli(['vectors', 'check', join(out, 'vectors.json')], env);
    assert.equal(withKey.code, 0, withKey.out + withKey.err);
    assert.match(withKey.out, /^\d+ passed, 0 failed$/m);
    const wrongKey = await cli(['vectors', 'check', join(out, 'vectors.json')], {
      ...env,
      PAYCONFORM_CONTROL_KEY: 'another',
    });
    assert.equal(wrongKey.code, 1);
    const noKey = await cli(['vectors', 'check', join(out, 'vectors.json')], {});
    assert.equal(noKey.code, 2);
    // One line naming the variables, however many vectors need them.
    assert.equal(noKey.err.trim().split('\n').length, 1, noKey.err);
    assert.match(
      noKey.err,
      /credentials are the placeholders <merchant_control_key> \/ <PRIVATE_KEY>; set PAYCONFORM_CONTROL_KEY \(\d+ vectors, first \/vectors\/\d+\/credentials\/merchantControlKey\) and PAYCONFORM_PRIVATE_KEY_FILE \(\d+ vectors, first .*\) to check them$/m,
    );
  });

  it('says so first in every file when secrets are included', async () => {
    const out = join(dir, 'secret-pack');
    const r = await cli(['vectors', 'pack', '--operation', 'STATUS', '--out', out, '--include-secrets'], env);
    assert.equal(r.code, 0, r.err);
    for (const file of ['README.md', join('STATUS', 'README.md')])
      assert.match(readFileSync(join(out, file), 'utf8'), /^TEST-ONLY SECRETS INCLUDED/);
    assert.match(
      JSON.parse(readFileSync(join(out, 'vectors.json'), 'utf8')).description,
      /^TEST-ONLY SECRETS INCLUDED/,
    );
    assert.equal((await cli(['vectors', 'check', join(out, 'vectors.json')], {})).code, 0);
  });

  it('refuses bad input with one line: no operation, unknown or unstated operation, missing credential, non-empty folder', async () => {
    const cases: Array<[string[], Record<string, string>, RegExp]> = [
      [['--out', join(dir, 'x')], env, /--operation: give at least one operation/],
      [['--operation', 'REFUND', '--out', join(dir, 'x')], env, /"REFUND" is not in the catalogue/],
      [['--operation', 'PAYMENTFORM', '--out', join(dir, 'x')], env, /PAYMENTFORM has no authentication stated/],
      [
        ['--operation', 'SALE', '--out', join(dir, 'x')],
        { PAYCONFORM_LOGIN: 'l' },
        /control key: missing \(set PAYCONFORM_CONTROL_KEY/,
      ],
      [['--operation', 'SALE', '--out', join(dir, 'pack')], env, /exists and is not empty/],
      // --force on a folder the pack did not write (here the test's own temporary folder) is refused.
      [['--operation', 'SALE', '--out', dir, '--force'], env, /holds no payconform pack/],
    ];
    for (const [args, e, message] of cases) {
      const r = await cli(['vectors', 'pack', ...args], e);
      assert.equal(r.code, 2, r.out);
      assert.match(r.err, message);
      assert.equal(r.err.trim().split('\n').length, 1);
    }
  });
});

// Direct calls of writePack: credentials each operation needs, and the --out folder rules.
describe('writePack', () => {
  const pem = readFileSync(keyFile, 'utf8');
  const base = { login: 'partner-login', controlKey: SECRET, privateKeyPem: pem, includeSecrets: false, force: false };
  let n = 0;
  const fresh = (): string => join(dir, `direct-${n++}`);

  function refuses(options: Parameters<typeof writePack>[0], code: string, field: RegExp, rule: RegExp): void {
    assert.throws(
      () => writePack(options),
      (err: unknown) => {
        assert.ok(isPayconformError(err), String(err));
        assert.equal(err.code, code);
        assert.match(err.field ?? '', field);
        assert.match(err.rule ?? '', rule);
        assert.equal(err.message.split('\n').length, 1);
        return true;
      },
    );
  }

  it('says what a missing credential is and which variable gives it, in one whole line', () => {
    assert.throws(
      () => writePack({ ...base, login: undefined, operations: ['STATUS'], outDir: fresh() }),
      (err: unknown) => {
        assert.ok(isPayconformError(err), String(err));
        assert.equal(err.code, 'ERR_CREDENTIALS');
        assert.equal(err.message, 'login: missing (set PAYCONFORM_LOGIN to your test credentials)');
        return true;
      },
    );
  });

  it('marks a pack with secrets in its description, and lists its own files, sorted, in its marker', () => {
    const out = fresh();
    writePack({ ...base, operations: ['STATUS'], outDir: out, includeSecrets: true });
    const { description } = JSON.parse(readFileSync(join(out, 'vectors.json'), 'utf8')) as { description: string };
    assert.equal(
      description,
      'TEST-ONLY SECRETS INCLUDED: this pack contains the credentials given to `payconform vectors pack ' +
        '--include-secrets`. Use it only with test keys. Partner pack for STATUS, made by payconform vectors pack.',
    );
    // Sorted by code unit: "." before capitals, "R" before "S" before "v".
    const marker = {
      format: 'payconform-pack/1',
      files: ['.payconform-pack.json', 'README.md', 'STATUS/README.md', 'vectors.json'],
    };
    assert.equal(readFileSync(join(out, '.payconform-pack.json'), 'utf8'), `${JSON.stringify(marker, null, 2)}\n`);
  });

  it('asks for at least one operation', () => {
    refuses(
      { ...base, operations: [], outDir: fresh() },
      'ERR_NO_OPERATION',
      /^--operation$/,
      /at least one operation/,
    );
  });

  it('names each missing credential and its variable, only for the schemes chosen', () => {
    for (const login of [undefined, '']) {
      refuses(
        { ...base, login, operations: ['STATUS'], outDir: fresh() },
        'ERR_CREDENTIALS',
        /^login$/,
        /missing.*PAYCONFORM_LOGIN/,
      );
    }
    for (const op of ['SALE', 'PAYOUT']) {
      // control and HMAC-SHA1 both sign with the control key
      for (const controlKey of [undefined, '']) {
        refuses(
          { ...base, controlKey, operations: [op], outDir: fresh() },
          'ERR_CREDENTIALS',
          /^control key$/,
          /missing.*PAYCONFORM_CONTROL_KEY/,
        );
      }
    }
    for (const privateKeyPem of [undefined, '']) {
      refuses(
        { ...base, privateKeyPem, operations: ['SALE', 'PAYOUT_V4'], outDir: fresh() },
        'ERR_CREDENTIALS',
        /^private key$/,
        /missing.*PAYCONFORM_PRIVATE_KEY_FILE/,
      );
    }
    // An RSA-only pack needs no control key, a control-only pack no private key.
    const rsa = fresh();
    writePack({ ...base, controlKey: undefined, operations: ['PAYOUT_V4'], outDir: rsa });
    assert.ok(existsSync(join(rsa, 'PAYOUT_V4', 'README.md')));
    const control = fresh();
    writePack({ ...base, privateKeyPem: undefined, operations: ['SALE'], outDir: control });
    assert.ok(existsSync(join(control, 'SALE', 'README.md')));
  });

  it("accepts an empty existing --out, refuses a pack unless forced, and force replaces only the pack's own files", () => {
    const out = fresh();
    mkdirSync(out);
    writePack({ ...base, operations: ['STATUS'], outDir: out });
    assert.ok(existsSync(join(out, 'STATUS', 'README.md')));
    // The user's own files in the pack's folder are not the pack's: --force keeps them.
    writeFileSync(join(out, 'stale.txt'), 'mine');
    mkdirSync(join(out, 'OLD'));
    writeFileSync(join(out, 'OLD', 'README.md'), 'mine');
    writeFileSync(join(out, 'STATUS', 'notes.txt'), 'mine');
    refuses(
      { ...base, operations: ['SALE'], outDir: out },
      'ERR_OUT_DIR',
      /^--out$/,
      /exists and is not empty.*--force/,
    );
    assert.ok(!existsSync(join(out, 'SALE')), 'nothing written when refused');
    writePack({ ...base, operations: ['SALE'], outDir: out, force: true });
    assert.deepEqual(readdirSync(out).sort(), [
      '.payconform-pack.json',
      'OLD',
      'README.md',
      'SALE',
      'STATUS',
      'stale.txt',
      'vectors.json',
    ]);
    assert.deepEqual(
      readdirSync(join(out, 'STATUS')),
      ['notes.txt'],
      "the earlier pack's STATUS/README.md went, the user's note stayed",
    );
    assert.equal(readFileSync(join(out, 'OLD', 'README.md'), 'utf8'), 'mine');
    // Once the user's file is gone, the pack's emptied folder goes with the next replacement.
    rmSync(join(out, 'STATUS', 'notes.txt'));
    writePack({ ...base, operations: ['STATUS'], outDir: out, force: true });
    writePack({ ...base, operations: ['SALE'], outDir: out, force: true });
    assert.ok(!existsSync(join(out, 'STATUS')));
  });

  it('--force refuses a folder that is not a pack and deletes nothing of it', () => {
    const project = fresh();
    mkdirSync(join(project, 'src'), { recursive: true });
    mkdirSync(join(project, '.git'));
    writeFileSync(join(project, 'package.json'), '{}');
    writeFileSync(join(project, 'src', 'index.ts'), 'export {};');
    refuses(
      { ...base, operations: ['STATUS'], outDir: project, force: true },
      'ERR_OUT_DIR',
      /^--out$/,
      /holds no payconform pack.*--force replaces only a pack/,
    );
    assert.deepEqual(readdirSync(project).sort(), ['.git', 'package.json', 'src']);
    assert.deepEqual(
      readdirSync(dirname(project)).filter((n) => n.includes('pack-')),
      [],
      'no staging folder left',
    );
  });

  it('a forged marker naming files outside the pack\'s own names makes the folder "not a pack"', () => {
    for (const listed of ['../victim.txt', 'src/index.ts', '/etc/passwd', 'STATUS/../../x', 'package.json']) {
      const out = fresh();
      mkdirSync(out);
      writeFileSync(join(out, 'package.json'), '{}');
      writeFileSync(
        join(out, '.payconform-pack.json'),
        JSON.stringify({ format: 'payconform-pack/1', files: ['README.md', listed] }),
      );
      refuses(
        { ...base, operations: ['STATUS'], outDir: out, force: true },
        'ERR_OUT_DIR',
        /^--out$/,
        /holds no payconform pack/,
      );
      assert.equal(readFileSync(join(out, 'package.json'), 'utf8'), '{}');
    }
  });

  it("--force refuses to write over a file of the user's that has a pack file's name, and over a pack file turned into a folder", () => {
    const out = fresh();
    writePack({ ...base, operations: ['STATUS'], outDir: out });
    mkdirSync(join(out, 'SALE'));
    writeFileSync(join(out, 'SALE', 'README.md'), 'mine');
    refuses(
      { ...base, operations: ['SALE'], outDir: out, force: true },
      'ERR_OUT_DIR',
      /^--out$/,
      /SALE\/README\.md was not written by payconform vectors pack/,
    );
    assert.equal(readFileSync(join(out, 'SALE', 'README.md'), 'utf8'), 'mine');
    assert.ok(existsSync(join(out, 'STATUS', 'README.md')), 'the earlier pack is untouched when refused');
    rmSync(join(out, 'STATUS', 'README.md'));
    mkdirSync(join(out, 'STATUS', 'README.md'));
    refuses(
      { ...base, operations: ['STATUS'], outDir: out, force: true },
      'ERR_OUT_DIR',
      /^--out$/,
      /is not a regular file/,
    );
  });

  it('with secrets every file is readable by its owner only (0600), without them the umask decides', () => {
    const secret = fresh();
    writePack({ ...base, operations: ['STATUS', 'PAYOUT_V4'], outDir: secret, includeSecrets: true });
    const modes = (root: string): number[] =>
      readdirSync(root, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => statSync(join(e.parentPath, e.name)).mode & 0o777);
    assert.equal(modes(secret).length, 5);
    for (const m of modes(secret)) assert.equal(m.toString(8), '600');
    assert.equal((statSync(secret).mode & 0o777).toString(8), '700');
    const plain = fresh();
    writePack({ ...base, operations: ['STATUS'], outDir: plain });
    for (const m of modes(plain))
      assert.equal(m & 0o044, 0o044 & ~process.umask(), 'group and others may read a pack without secrets');
  });

  it('an unwritable --out is ERR_IO naming --out, and leaves nothing behind', () => {
    const parent = fresh();
    mkdirSync(parent);
    writeFileSync(join(parent, 'file'), 'x');
    const under = join(parent, 'file', 'pack');
    refuses(
      { ...base, operations: ['STATUS'], outDir: under },
      'ERR_IO',
      /^--out$/,
      new RegExp(`cannot write ${under.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\(ENOTDIR\\)`),
    );
    assert.deepEqual(readdirSync(parent), ['file']);
  });

  it('refuses an --out that is a file, even with force, and leaves the file alone', () => {
    const file = fresh();
    writeFileSync(file, 'keep');
    for (const force of [false, true])
      refuses(
        { ...base, operations: ['STATUS'], outDir: file, force },
        'ERR_OUT_DIR',
        /^--out$/,
        /is a file; give a folder/,
      );
    assert.equal(readFileSync(file, 'utf8'), 'keep');
  });

  // Root writes into a read-only folder, so there the failure cannot be provoked this way.
  it(
    'a write failing half-way leaves no partial folder and no staging folder',
    { skip: process.getuid?.() === 0 },
    () => {
      const parent = fresh();
      mkdirSync(parent);
      const out = join(parent, 'pack');
      writeFileSync(join(parent, 'keep'), 'mine');
      chmodSync(parent, 0o500);
      try {
        refuses({ ...base, operations: ['STATUS'], outDir: out }, 'ERR_IO', /^--out$/, /cannot write .*\(EACCES\)/);
      } finally {
        chmodSync(parent, 0o700);
      }
      assert.deepEqual(readdirSync(parent), ['keep'], 'neither the staged files nor --out remain');
    },
  );
});
