import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/cli.ts';

const keyFile = new URL('../../vectors/keys/test-only-merchant-rsa-2048.pem', import.meta.url).pathname;
const SECRET = 'partner-TEST-key-9c1d';
let dir: string;
before(() => { dir = mkdtempSync(join(tmpdir(), 'payconform-pack-')); });
after(() => rmSync(dir, { recursive: true, force: true }));

async function cli(args: string[], env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  const { code, out, err } = await runCli(args, env);
  return { code, out, err };
}
const env = { PAYCONFORM_LOGIN: 'partner-login', PAYCONFORM_CONTROL_KEY: SECRET, PAYCONFORM_PRIVATE_KEY_FILE: keyFile };
const allText = (root: string): string => readdirSync(root, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile()).map((e) => readFileSync(join(e.parentPath ?? (e as unknown as { path: string }).path, e.name), 'utf8')).join('\n');

describe('vectors pack', () => {
  it('writes vectors and a README per operation with secrets as placeholders, checkable with the partner key', async () => {
    const out = join(dir, 'pack');
    const r = await cli(['vectors', 'pack', '--operation', 'SALE', '--operation', 'PAYOUT', '--operation', 'PAYOUT_V4', '--out', out], env);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(readdirSync(out).sort(), ['PAYOUT', 'PAYOUT_V4', 'README.md', 'SALE', 'vectors.json']);
    const text = allText(out);
    assert.ok(!text.includes(SECRET) && !text.includes('BEGIN PRIVATE KEY'), 'no secret in the pack');
    assert.match(readFileSync(join(out, 'SALE', 'README.md'), 'utf8'), /<merchant_control_key>/);
    assert.match(readFileSync(join(out, 'PAYOUT', 'README.md'), 'utf8'), /Signature base string/);
    const withKey = await cli(['vectors', 'check', join(out, 'vectors.json')], env);
    assert.equal(withKey.code, 0, withKey.out + withKey.err);
    assert.match(withKey.out, /^\d+ passed, 0 failed$/m);
    const wrongKey = await cli(['vectors', 'check', join(out, 'vectors.json')], { ...env, PAYCONFORM_CONTROL_KEY: 'another' });
    assert.equal(wrongKey.code, 1);
    const noKey = await cli(['vectors', 'check', join(out, 'vectors.json')], {});
    assert.equal(noKey.code, 2);
    assert.match(noKey.err, /is the placeholder <merchant_control_key>; set PAYCONFORM_CONTROL_KEY/);
  });

  it('says so first in every file when secrets are included', async () => {
    const out = join(dir, 'secret-pack');
    const r = await cli(['vectors', 'pack', '--operation', 'STATUS', '--out', out, '--include-secrets'], env);
    assert.equal(r.code, 0, r.err);
    for (const file of ['README.md', join('STATUS', 'README.md')]) assert.match(readFileSync(join(out, file), 'utf8'), /^TEST-ONLY SECRETS INCLUDED/);
    assert.match(JSON.parse(readFileSync(join(out, 'vectors.json'), 'utf8')).description, /^TEST-ONLY SECRETS INCLUDED/);
    assert.equal((await cli(['vectors', 'check', join(out, 'vectors.json')], {})).code, 0);
  });

  it('refuses bad input with one line: no operation, unknown or unstated operation, missing credential, non-empty folder', async () => {
    const cases: Array<[string[], Record<string, string>, RegExp]> = [
      [['--out', join(dir, 'x')], env, /--operation: give at least one operation/],
      [['--operation', 'REFUND', '--out', join(dir, 'x')], env, /"REFUND" is not in the catalogue/],
      [['--operation', 'CARDINFO', '--out', join(dir, 'x')], env, /CARDINFO has no authentication stated/],
      [['--operation', 'SALE', '--out', join(dir, 'x')], { PAYCONFORM_LOGIN: 'l' }, /control key: missing \(set PAYCONFORM_CONTROL_KEY/],
      [['--operation', 'SALE', '--out', join(dir, 'pack')], env, /exists and is not empty/],
    ];
    for (const [args, e, message] of cases) {
      const r = await cli(['vectors', 'pack', ...args], e);
      assert.equal(r.code, 2, r.out);
      assert.match(r.err, message);
      assert.equal(r.err.trim().split('\n').length, 1);
    }
  });
});
