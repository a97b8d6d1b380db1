// The vectors commands as a user runs them: exit codes, the closing count, the mismatch report.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/cli.ts';
import { TEST_CONTROL_KEY } from '../../src/vectors/generate.ts';

const root = new URL('../../', import.meta.url).pathname;
let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'payconform-vectors-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function cli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; out: string; err: string }> {
  const { code, out, err } = await runCli(args, env);
  assert.ok(!(out + err).includes(TEST_CONTROL_KEY), 'the control key is never printed');
  assert.ok(!(out + err).includes('BEGIN PRIVATE KEY'), 'no private key is printed');
  return { code, out, err };
}

describe('payconform vectors', () => {
  it('generate writes the committed file for the default seed, and another file for another seed', async () => {
    const out = join(dir, 'g.json');
    assert.equal((await cli(['vectors', 'generate', '--out', out])).code, 0);
    assert.equal(readFileSync(out, 'utf8'), readFileSync(join(root, 'vectors/generated.json'), 'utf8'));
    // An existing file is replaced only with --force, as keygen and pack do.
    const again = await cli(['vectors', 'generate', '--out', out, '--seed', '9']);
    assert.deepEqual(
      [again.code, again.err],
      [2, `payconform vectors generate: --out: ${out} exists; choose another --out or pass --force\n`],
    );
    assert.equal((await cli(['vectors', 'generate', '--out', out, '--seed', '9', '--force'])).code, 0);
    assert.notEqual(readFileSync(out, 'utf8'), readFileSync(join(root, 'vectors/generated.json'), 'utf8'));
    const negative = await cli(['vectors', 'generate', '--seed', '-1']);
    assert.deepEqual(
      [negative.code, negative.err],
      [2, 'payconform vectors generate: --seed: must be a whole number from 0 to 4294967295\n'],
      'a negative number is a value, not an ambiguous option',
    );
  });

  it('generate into a folder is refused and leaves no temporary file behind', async () => {
    const folder = join(dir, 'a-folder');
    mkdirSync(folder);
    const r = await cli(['vectors', 'generate', '--out', folder]);
    assert.deepEqual(
      [r.code, r.err],
      [2, `payconform vectors generate: --out: ${folder} is a folder; give a file name\n`],
    );
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.endsWith('.tmp')),
      [],
    );
  });

  // Bug fixed in issue 15: an unreadable --private-key-file was an internal error (exit 1).
  it('generate refuses an unreadable --private-key-file with one line naming it, exit 2', async () => {
    const r = await cli(['vectors', 'generate', '--private-key-file', join(dir, 'no-key.pem')]);
    assert.equal(r.code, 2, r.err);
    assert.equal(
      r.err,
      `payconform vectors generate: --private-key-file: cannot read ${join(dir, 'no-key.pem')} (ENOENT)\n`,
    );
  });

  it('check passes every shipped file and ends with the count line', async () => {
    // As the README says it: vectors/*.json, which includes the schema (skipped with a note).
    const r = await cli([
      'vectors',
      'check',
      ...['anchors', 'diagnoses', 'generated', 'schema'].map((f) => join(root, `vectors/${f}.json`)),
    ]);
    assert.equal(r.code, 0, r.out);
    assert.match(r.err, /skipping .*schema\.json: the format's JSON Schema/);
    assert.match(r.out.trim().split('\n').at(-1)!, /^\d+ passed, 0 failed$/);
  });

  it('check reports a corrupted base string with the position and both sides, and exits 1', async () => {
    const file = JSON.parse(readFileSync(join(root, 'vectors/generated.json'), 'utf8'));
    const v = file.vectors.find((x: { id: string }) => x.id === 'payout-001');
    v.expected.baseString = v.expected.baseString.replace('amount%3D', 'amount%3D9');
    const control = file.vectors.find((x: { id: string }) => x.id === 'sale-001');
    control.expected.controlInput = `X${control.expected.controlInput}`;
    const path = join(dir, 'broken.json');
    writeFileSync(path, JSON.stringify(file));
    const r = await cli(['vectors', 'check', path]);
    assert.equal(r.code, 1);
    assert.match(
      r.out,
      /FAIL .*broken\.json payout-001: baseString differs at position \d+\n {5}expected: .*\n {5}actual: {3}.*\n +\^/,
    );
    assert.match(
      r.out,
      /FAIL .*sale-001: controlInput: expected X.*<merchant_control_key>, got .*<merchant_control_key>/,
    );
    assert.match(r.out, new RegExp(`^${file.vectors.length - 2} passed, 2 failed$`, 'm'));
  });

  it('check refuses an invalid file with exit 2 and pointer lines, before checking anything', async () => {
    const path = join(dir, 'invalid.json');
    writeFileSync(
      path,
      JSON.stringify({
        format: 'payconform-vectors/1',
        vectors: [
          {
            id: 'x',
            scheme: 'control',
            operation: 'SALE',
            request: { method: 'POST', url: 7, params: [] },
            credentials: {},
            expected: { control: 'a' },
          },
        ],
      }),
    );
    const r = await cli(['vectors', 'check', join(root, 'vectors/anchors.json'), path]);
    assert.equal(r.code, 2);
    assert.equal(r.out, '');
    assert.match(r.err, /invalid\.json: \/vectors\/0\/request\/url: must be string/);
    assert.equal((await cli(['vectors', 'check'])).code, 2);
    assert.match(
      (await cli(['vectors', 'check', join(dir, 'missing.json')])).err,
      /missing\.json: cannot read \(ENOENT\)/,
    );
    // A folder among the files is one line and exit 2, not an internal error.
    const folder = await cli(['vectors', 'check', join(root, 'vectors/anchors.json'), dir]);
    assert.equal(folder.code, 2);
    assert.equal(folder.out, '');
    assert.equal(folder.err.trim().split('\n').length, 1);
    assert.match(folder.err, /cannot read \(EISDIR\)/);
  });

  it('explain shows the steps of one vector, with the key as a placeholder', async () => {
    const r = await cli([
      'vectors',
      'explain',
      join(root, 'vectors/generated.json'),
      '--id',
      'edge-control-amount-2-decimals',
    ]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /"0\.29" → 29/);
    assert.match(r.out, /<merchant_control_key>/);
    const json = JSON.parse(
      (
        await cli([
          'vectors',
          'explain',
          join(root, 'vectors/anchors.json'),
          '--id',
          'rfc5849-3.4.1-erratum-2550',
          '--json',
        ])
      ).out,
    );
    assert.equal(json.expected.signature, 'r6/TJjbCOr97/+UU0NsvSne7s5g=');
    assert.equal((await cli(['vectors', 'explain', join(root, 'vectors/anchors.json'), '--id', 'nope'])).code, 2);
  });
});
