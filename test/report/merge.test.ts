// `payconform bundle merge`: the shards of a sharded run make the bundle the unsharded run makes
// (same counts per endpoint, every scenario in junit.xml, a manifest that verifies), and shards
// that do not belong together are refused with one line.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { verifyBundle } from '../../src/report/bundle-signature.ts';
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
    assert.deepEqual(merged.mergedFrom, ['1/2', '2/2']);
    assert.ok(merged.totals.passed > 10);
    const testcases = (readFileSync(join(out, 'junit.xml'), 'utf8').match(/<testcase /g) ?? []).length;
    assert.equal(testcases, reference.totals.passed + reference.totals.failed + reference.totals.other);
    assert.equal((readFileSync(join(out, 'junit.xml'), 'utf8').match(/name="payconform.status"/g) ?? []).length, 1, 'one verdict, not one per shard');
    assert.match(readFileSync(join(out, 'report.html'), 'utf8'), /<html/);
    assert.deepEqual((await verifyBundle(out)).problems, []);
    assert.match(r.out, new RegExp(`^PASSED: ${reference.totals.passed} passed, 0 failed of 2 shards; bundle: `, 'm'));
  });

  it('refuses shards that do not belong together, with one line, exit 2', async () => {
    const other = join(dir, 'other-target');
    cpSync(two, other, { recursive: true });
    const summary = JSON.parse(readFileSync(join(other, 'summary.json'), 'utf8'));
    writeFileSync(join(other, 'summary.json'), JSON.stringify({ ...summary, target: 'https://elsewhere.example' }));
    const interrupted = join(dir, 'interrupted');
    cpSync(two, interrupted, { recursive: true });
    writeFileSync(join(interrupted, 'summary.json'), JSON.stringify({ ...summary, status: 'interrupted' }));
    const full = join(dir, 'not-empty');
    mkdirSync(full);
    writeFileSync(join(full, 'x'), 'x');
    for (const [args, line] of [
      [[one, other], `DIR: ${other} certified https://elsewhere.example, ${one} the embedded mock gateway (TEST-ONLY merchant): not shards of one run`],
      [[one, one], 'DIR: shard 1/2 is given twice'],
      [[one, interrupted], `DIR: ${interrupted} is an interrupted run; merge only shards that finished`],
      [[one], 'DIR: give the folders of at least two shards'],
      [[one, join(dir, 'nowhere')], `DIR: ${join(dir, 'nowhere')} has no summary.json: not a certify bundle`],
    ] as const) {
      const r = await runCli(['bundle', 'merge', ...args, '--out', join(dir, 'refused')]);
      assert.deepEqual([r.code, r.err], [2, `payconform bundle merge: ${line}\n`]);
    }
    const r = await runCli(['bundle', 'merge', one, two, '--out', full]);
    assert.deepEqual([r.code, r.err], [2, `payconform bundle merge: --out: ${full} exists and is not empty\n`]);
  });
});
