// `payconform bundle diff A B`: a clean run against a run of a deliberately broken mock names each
// regressed scenario under its cause and exits 1; the other way round they are fixed and it exits 0.
// The expected scenarios and cause are the prove ledger's (features/expected-failures/pay-twice.json,
// written by hand), not this code's output. Hostile bundle texts cannot make Markdown of their own.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { diffBundles, regressed } from '../../src/report/bundle-diff.ts';
import { diffMarkdown } from '../../src/report/bundle-diff-text.ts';
import type { BundleView } from '../../src/report/bundle-view.ts';
import { mdItem, mdText } from '../../src/report/markdown.ts';
import type { ScenarioResult } from '../../src/report/run-record.ts';
import { defectNamed } from '../../src/mock/defects.ts';
import { runSuite } from '../../src/suite/run.ts';
import { resolveTarget } from '../../src/suite/target.ts';
import { runCli } from '../support/cli.ts';

const root = new URL('../..', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'payconform-diff-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const TAGS = '@area:payouts';
const quiet = { log: () => {}, progress: new PassThrough().resume() };
const ledger = JSON.parse(readFileSync(join(root, 'features/expected-failures/pay-twice.json'), 'utf8')) as {
  causes: string[];
  mustFail: Array<{ name: string }>;
};

async function certify(name: string, defect?: string): Promise<string> {
  const reportDir = join(dir, name);
  const target = resolveTarget({ live: false, ...(defect ? { defect: defectNamed(defect) } : {}) }, {});
  await runSuite({ target, tags: TAGS, reportDir }, quiet);
  return reportDir;
}

describe('payconform bundle diff', () => {
  let clean: string;
  let broken: string;
  before(async () => {
    clean = await certify('clean');
    broken = await certify('broken', 'pay-twice');
  });

  it('names each regressed scenario under its cause, and exits 1', async () => {
    const r = await runCli(['bundle', 'diff', clean, broken, '--format', 'json']);
    assert.equal(r.code, 1, r.err);
    const diff = JSON.parse(r.out) as ReturnType<typeof diffBundles>;
    assert.deepEqual(
      diff.regressions.map((g) => g.cause),
      ledger.causes,
    );
    assert.deepEqual(
      diff.regressions.flatMap((g) => g.scenarios.map((s) => [s.name, s.before, s.after])),
      ledger.mustFail.map((f) => [f.name, 'passed', 'failed']),
    );
    assert.deepEqual(diff.fixed, []);
    const md = await runCli(['bundle', 'diff', clean, broken]);
    assert.equal(md.code, 1);
    assert.match(md.out, /^\*\*REGRESSED\*\*: 1 scenario/m);
    assert.match(md.out, /^## Regressed under pay-once \(1\)$/m);
  });

  it('reads the other way round as fixed, and exits 0', async () => {
    const r = await runCli(['bundle', 'diff', broken, clean, '--format', 'json']);
    assert.equal(r.code, 0, r.err);
    const diff = JSON.parse(r.out) as ReturnType<typeof diffBundles>;
    assert.deepEqual(diff.regressions, []);
    assert.deepEqual(
      diff.fixed.map((s) => s.name),
      ledger.mustFail.map((f) => f.name),
    );
  });

  it('finds nothing between a run and itself', async () => {
    const r = await runCli(['bundle', 'diff', clean, clean]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^\*\*No regression\*\*/m);
  });

  it('refuses a bundle changed after its run, and bad usage, with one line and exit 2', async () => {
    const changed = join(dir, 'changed');
    cpSync(broken, changed, { recursive: true });
    writeFileSync(join(changed, 'messages.ndjson'), readFileSync(join(clean, 'messages.ndjson')));
    const r = await runCli(['bundle', 'diff', clean, changed]);
    assert.equal(r.code, 2);
    assert.match(r.err, /changed.* is not intact/);
    assert.equal(r.err.trim().split('\n').length, 1);
    assert.equal((await runCli(['bundle', 'diff', clean])).code, 2);
    assert.equal((await runCli(['bundle', 'diff', clean, clean, '--format', 'xml'])).code, 2);
  });
});

describe('bundle diff on hand-made runs', () => {
  const result = (name: string, outcome: ScenarioResult['outcome'], more: Partial<ScenarioResult> = {}) => ({
    name,
    uri: 'features/x.feature',
    tags: [],
    outcome,
    warnings: [],
    ...more,
  });
  const view = (results: ScenarioResult[], more: Partial<BundleView> = {}): BundleView => ({
    dir: 'd',
    payconform: '1.0.0',
    profile: 'p',
    status: 'passed',
    target: 't',
    selection: '',
    live: false,
    shard: null,
    required: [],
    envelopes: [],
    results,
    ...more,
  });

  it("pairs an outline's rows of one name in order, and counts lost coverage as a regression", () => {
    const a = view([
      result('row', 'passed'),
      result('row', 'failed'),
      result('callback', 'passed', { tags: ['@capability:callbacks'] }),
    ]);
    const b = view([result('row', 'failed'), result('row', 'passed')], { payconform: '1.1.0' });
    const d = diffBundles(a, b);
    assert.deepEqual(
      d.regressions.flatMap((g) => g.scenarios.map((s) => s.name)),
      ['row'],
    );
    assert.deepEqual(
      d.fixed.map((s) => s.name),
      ['row (2)'],
    );
    assert.deepEqual(d.onlyInA, ['callback']);
    assert.deepEqual(d.coverageLost, ['callbacks']);
    assert.ok(regressed(d));
    assert.match(d.caveats.join(), /other payconform versions \(1\.0\.0, 1\.1\.0\): scenarios matched by name/);
  });

  it('counts a new warning, and a new failing scenario as a regression', () => {
    const warning = { assumption: 'A-9', check: 'error code', expected: 'x', actual: 'y' };
    const d = diffBundles(view([]), view([result('w', 'passed', { warnings: [warning] }), result('n', 'failed')]));
    assert.deepEqual(d.newWarnings, [{ scenario: 'w', assumption: 'A-9', check: 'error code' }]);
    assert.deepEqual(
      d.regressions.flatMap((g) => g.scenarios.map((s) => [s.name, s.before])),
      [['n', 'absent']],
    );
  });

  it('writes hostile names as text: no cell break, link, tag, mention or line of their own', () => {
    const hostile = 'a | b\n## heading <img src=x onerror=alert(1)> [x](javascript:1) @team #1 `c` *e*';
    const md = diffMarkdown(diffBundles(view([result(hostile, 'passed')]), view([result(hostile, 'failed')])));
    const row = md.find((l) => l.includes('heading')) ?? '';
    assert.equal(row.split(/(?<!\\)\|/).length, 5, `three cells and the outer bars: ${row}`);
    // Each mark of Markdown in the name comes escaped, so it reads as the character.
    for (const mark of ['<', ']', '@', '#', '`', '*'])
      assert.doesNotMatch(row, new RegExp(`(?<!\\\\)\\${mark}`), `${mark} unescaped in ${row}`);
    assert.ok(!row.includes('\n'));
    assert.ok(md.every((l) => !l.startsWith('## heading')));
    assert.equal(mdItem('1. item'), '- \\1. item');
    assert.equal(mdText('version 1.0'), 'version 1.0');
    assert.equal(mdText('x'.repeat(400)).length, 301);
  });
});
