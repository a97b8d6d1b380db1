// `payconform bundle merge`: the shards of a sharded run make the bundle the unsharded run makes
// (same counts per endpoint, every scenario in junit.xml, a manifest that verifies), and shards
// that do not belong together are refused with one line.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { bundleSigningKey, signBundle, verifyBundle } from '../../src/report/bundle-signature.ts';
import { manifestOf } from '../../src/report/bundle.ts';
import { runSuite } from '../../src/suite/run.ts';
import { resolveTarget } from '../../src/suite/target.ts';
import { runCli } from '../support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'payconform-merge-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const TAGS = '@endpoint:SALE or @endpoint:PAYOUT';
const quiet = { log: () => {}, progress: new PassThrough().resume() };

async function certify(name: string, shard?: string): Promise<string> {
  const reportDir = join(dir, name);
  await runSuite({ target: resolveTarget({ live: false }, {}), tags: TAGS, shard, reportDir }, quiet);
  return reportDir;
}

describe('payconform bundle merge', () => {
  let whole: string;
  let one: string;
  let two: string;
  before(async () => {
    whole = await certify('whole');
    one = await certify('shard-1', '1/2');
    two = await certify('shard-2', '2/2');
  });

  it('makes from the shards the counts, junit.xml and a manifest of the unsharded run', async () => {
    const out = join(dir, 'merged');
    const r = await runCli(['bundle', 'merge', one, two, '--out', out]);
    assert.equal(r.code, 0, r.err);
    const merged = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    const reference = JSON.parse(readFileSync(join(whole, 'summary.json'), 'utf8'));
    assert.deepEqual(merged.totals, reference.totals);
    assert.deepEqual(merged.endpoints, reference.endpoints);
    assert.deepEqual(
      merged.mergedFrom.map((m: { shard: string }) => m.shard),
      ['1/2', '2/2'],
    );
    assert.ok(merged.totals.passed > 10);
    const testcases = (readFileSync(join(out, 'junit.xml'), 'utf8').match(/<testcase /g) ?? []).length;
    assert.equal(testcases, reference.totals.passed + reference.totals.failed + reference.totals.other);
    assert.equal(
      (readFileSync(join(out, 'junit.xml'), 'utf8').match(/name="payconform.status"/g) ?? []).length,
      1,
      'one verdict, not one per shard',
    );
    assert.match(readFileSync(join(out, 'report.html'), 'utf8'), /<html/);
    assert.deepEqual((await verifyBundle(out)).problems, []);
    assert.match(r.out, new RegExp(`^PASSED: ${reference.totals.passed} passed, 0 failed of 2 shards; bundle: `, 'm'));
  });

  /** A copy of a shard as another run would have made it: summary edited, manifest made anew, unsigned. */
  function variant(
    from: string,
    name: string,
    edit: (summary: Record<string, unknown>) => Record<string, unknown>,
  ): string {
    const d = join(dir, name);
    cpSync(from, d, { recursive: true });
    rmSync(join(d, 'manifest.jws'), { force: true });
    writeFileSync(
      join(d, 'summary.json'),
      JSON.stringify(edit(JSON.parse(readFileSync(join(d, 'summary.json'), 'utf8')))),
    );
    writeFileSync(join(d, 'manifest.json'), JSON.stringify(manifestOf(d)));
    return d;
  }
  async function signedCopy(from: string, name: string, privateKey: string): Promise<string> {
    const d = join(dir, name);
    cpSync(from, d, { recursive: true });
    const summary = JSON.parse(readFileSync(join(d, 'summary.json'), 'utf8'));
    await signBundle(d, bundleSigningKey(privateKey, '--sign-key'), {
      payconform: summary.versions.payconform,
      target: summary.target,
      status: summary.status,
      startedAt: summary.startedAt,
      finishedAt: summary.finishedAt,
    });
    return d;
  }
  const keyPair = () =>
    generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });

  it('merges only a whole run: exit 1 naming the missing shard, the odd one out or the changed file, nothing written', async () => {
    const merchant = keyPair();
    const stranger = keyPair();
    const signedOne = await signedCopy(one, 'signed-1', merchant.privateKey);
    const signedTwo = await signedCopy(two, 'signed-2', merchant.privateKey);
    const strangerTwo = await signedCopy(two, 'stranger-2', stranger.privateKey);
    // A signed shard's verdict edited (a shard alone is PARTIAL), its manifest.json made anew: the signature still
    // names the old digest.
    const edited = join(dir, 'edited-2');
    cpSync(signedTwo, edited, { recursive: true });
    const shardSummary = readFileSync(join(edited, 'summary.json'), 'utf8');
    assert.match(shardSummary, /"status": "partial"/);
    writeFileSync(join(edited, 'summary.json'), shardSummary.replace('"status": "partial"', '"status": "failed"'));
    writeFileSync(join(edited, 'manifest.json'), JSON.stringify(manifestOf(edited)));
    const cases: Array<[string[], RegExp]> = [
      [[one], /^shard 2\/2 is missing: a merge needs every shard of the run$/],
      [
        [
          variant(one, 'of-three', (x) => ({ ...x, shard: '1/3' })),
          variant(two, 'two-of-three', (x) => ({ ...x, shard: '2/3' })),
        ],
        /^shard 3\/3 is missing/,
      ],
      [[one, one], new RegExp(`^shard 1/2 is given twice: ${one} and ${one}$`)],
      [
        [one, variant(two, 'other-target', (x) => ({ ...x, target: 'https://elsewhere.example' }))],
        /other-target differs from .*shard-1 in its target \("https:\/\/elsewhere\.example", not "the embedded mock gateway \(TEST-ONLY merchant\)"\): not shards of one run$/,
      ],
      [
        [one, variant(two, 'other-version', (x) => ({ ...x, versions: { payconform: '0.0.1' } }))],
        /other-version differs .* in its payconform version/,
      ],
      [
        [one, variant(two, 'other-spec', (x) => ({ ...x, specSha256: '0'.repeat(64) }))],
        /other-spec differs .* in its spec \(SHA-256\)/,
      ],
      [
        [one, variant(two, 'other-tags', (x) => ({ ...x, selection: '(@endpoint:SALE)' }))],
        /other-tags differs .* in its selection/,
      ],
      [
        [one, variant(two, 'other-n', (x) => ({ ...x, shard: '2/3' }))],
        /other-n differs .* in its number of shards \(3, not 2\)/,
      ],
      [
        [one, variant(two, 'interrupted', (x) => ({ ...x, status: 'interrupted' }))],
        /interrupted is an interrupted run; merge only shards that finished$/,
      ],
      [[one, variant(whole, 'unsharded', (x) => x)], /unsharded is not a shard \(certified without --shard I\/N\)$/],
      [[signedOne, edited], /edited-2: summary\.json: changed since the run \(SHA-256 differs from manifest\.jws\)/],
      [[signedOne, strangerTwo], /stranger-2 differs from .*signed-1 in its signing key/],
      [[signedOne, two], /shard-2 differs from .*signed-1 in its signing key \("unsigned", not/],
    ];
    for (const [dirs, line] of cases) {
      const out = join(dir, 'refused');
      const r = await runCli(['bundle', 'merge', ...dirs, '--out', out]);
      assert.equal(r.code, 1, `${dirs.join(' ')}: ${r.out}${r.err}`);
      assert.equal(r.err, '');
      assert.equal(r.out.trim().split('\n').length, 1);
      assert.match(r.out.trim().replace(/^NOT MERGED: /, ''), line);
      assert.ok(!existsSync(out), 'nothing written');
    }
  });

  it('bad input is exit 2 with one line naming the file: no folder, not JSON, a non-empty --out', async () => {
    const full = join(dir, 'not-empty');
    mkdirSync(full);
    writeFileSync(join(full, 'x'), 'x');
    const corruptSummary = join(dir, 'corrupt-summary');
    cpSync(two, corruptSummary, { recursive: true });
    writeFileSync(join(corruptSummary, 'summary.json'), '{"status": ');
    writeFileSync(join(corruptSummary, 'manifest.json'), JSON.stringify(manifestOf(corruptSummary)));
    const corruptMessages = join(dir, 'corrupt-messages');
    cpSync(two, corruptMessages, { recursive: true });
    writeFileSync(join(corruptMessages, 'messages.ndjson'), 'not json\n');
    writeFileSync(join(corruptMessages, 'manifest.json'), JSON.stringify(manifestOf(corruptMessages)));
    for (const [args, line] of [
      [[one, join(dir, 'nowhere')], `DIR: ${join(dir, 'nowhere')} is not a folder`],
      [[one, corruptSummary], `DIR: ${corruptSummary}/summary.json is not JSON`],
      [[one, corruptMessages], `DIR: ${corruptMessages}/messages.ndjson: line 1 is not JSON`],
      [[one, two, '--out', full], `--out: ${full} exists and is not empty`],
      [[one, two, '--out', join(full, 'x', 'merged')], `--out: cannot write ${join(full, 'x', 'merged')} (ENOTDIR)`],
    ] as const) {
      const r = await runCli([
        'bundle',
        'merge',
        ...args,
        ...(args.includes('--out') ? [] : ['--out', join(dir, 'refused')]),
      ]);
      assert.deepEqual([r.code, r.err], [2, `payconform bundle merge: ${line}\n`]);
    }
  });

  it("--sign-key signs the merged bundle, whose manifest records each shard's manifest hash", async () => {
    const merchant = keyPair();
    const keyFile = join(dir, 'merge-key.pem');
    writeFileSync(keyFile, merchant.privateKey);
    writeFileSync(join(dir, 'merge-key.pub.pem'), merchant.publicKey);
    const out = join(dir, 'merged-signed');
    const r = await runCli(['bundle', 'merge', two, one, '--out', out, '--sign-key', keyFile]);
    assert.equal(r.code, 0, r.out + r.err);
    const verified = await runCli(['bundle', 'verify', out, '--public-key', join(dir, 'merge-key.pub.pem')]);
    assert.equal(verified.code, 0, verified.out);
    assert.match(verified.out, /^VERIFIED: .*run verdict PASSED;/);
    const hashOf = (d: string): string =>
      createHash('sha256')
        .update(readFileSync(join(d, 'manifest.json')))
        .digest('hex');
    const expected = [
      { shard: '1/2', manifestSha256: hashOf(one) },
      { shard: '2/2', manifestSha256: hashOf(two) },
    ];
    assert.deepEqual(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')).mergedFrom, expected);
    assert.deepEqual(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')).mergedFrom, expected);
  });
});
