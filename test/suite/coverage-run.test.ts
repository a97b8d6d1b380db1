// Coverage end to end (issue 29): certify against a gateway on a port (the mock, as a new user would
// try it) without an endpoint group says PARTIAL and names it; --require (or a profile's require)
// makes that a failure; the callbacks run there, since a gateway on loopback reaches this machine; a
// shard alone is PARTIAL and the merge of its shards PASSED. Expected words are the docs' (docs/certify.md).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { testMerchant } from '../../src/gateway/merchants.ts';
import { startMock, type RunningMock } from '../../src/mock/server.ts';
import { runSuite } from '../../src/suite/run.ts';
import { resolveTarget } from '../../src/suite/target.ts';
import { runCli } from '../support/cli.ts';
import { testMerchantEnv } from '../support/merchant-env.ts';

const merchant = testMerchant();
/** The TEST-ONLY merchant, without PAYCONFORM_ENDPOINT_GROUP_ID, PAYCONFORM_CALLBACK_URL or _PORT. */
const env = testMerchantEnv();
// The endpoint-group scenarios and the SALE callbacks: six scenarios, a few seconds.
const TAGS = '@capability:endpoint-groups or (@capability:callbacks and @endpoint:SALE)';
const NO_GROUP = 'the merchant has no endpoint group here: set PAYCONFORM_ENDPOINT_GROUP_ID to certify it';
const dir = mkdtempSync(join(tmpdir(), 'payconform-coverage-'));
let mock: RunningMock;
let runs = 0;
const reportDir = (): string => join(dir, `run-${++runs}`);
const summaryOf = (report: string) => JSON.parse(readFileSync(join(report, 'summary.json'), 'utf8'));

before(async () => {
  mock = await startMock();
});
after(async () => {
  await mock.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('certify against a gateway on a port: coverage before the verdict', () => {
  it('without an endpoint group: PARTIAL naming endpoint-groups, exit 0; callbacks exercised on loopback', async () => {
    const report = reportDir();
    const r = await runCli(['certify', '--base-url', mock.url, '--tags', TAGS, '--report-dir', report], env);
    assert.equal(r.code, 0, r.err + r.out);
    assert.match(r.out, /^PARTIAL: 2 passed, 0 failed, 0 with warnings, 4 not applicable, .*endpoint-groups/m);
    assert.match(
      r.out,
      /^not exercised: endpoint-groups \(not configured: .*\); to include it: PAYCONFORM_ENDPOINT_GROUP_ID$/m,
    );
    // Stated before the verdict.
    assert.ok(r.out.indexOf('not exercised: endpoint-groups') < r.out.indexOf('PARTIAL:'));
    const summary = summaryOf(report);
    assert.equal(summary.status, 'partial');
    assert.ok(summary.coverage.exercised.includes('callbacks'), 'the handler on loopback was reached');
    assert.deepEqual(
      summary.coverage.notExercised.filter((m: { capability: string }) => m.capability === 'endpoint-groups'),
      [
        {
          capability: 'endpoint-groups',
          why: 'not configured',
          detail: NO_GROUP,
          include: 'PAYCONFORM_ENDPOINT_GROUP_ID',
          inSelection: true,
        },
      ],
    );
    const junit = readFileSync(join(report, 'junit.xml'), 'utf8');
    assert.equal(junit.split(`<skipped message="${NO_GROUP}"/>`).length - 1, 4);
    const page = readFileSync(join(report, 'report.html'), 'utf8');
    assert.ok(page.indexOf('id="coverage"') < page.indexOf('id="verdict"'), 'the page states coverage first');
    const verdict = /<p id="verdict" class="v-partial">PARTIAL — [^<]*<\/p>/.exec(page)?.[0] ?? 'no PARTIAL verdict';
    assert.match(verdict, /not exercised: .*endpoint-groups/);
  });

  it('--require endpoint-groups turns the same run into FAILED naming it, exit 1', async () => {
    const args = ['certify', '--base-url', mock.url, '--tags', TAGS, '--require', 'endpoint-groups'];
    const r = await runCli([...args, '--report-dir', reportDir()], env);
    assert.equal(r.code, 1, r.err + r.out);
    assert.match(r.out, /^FAILED: 2 passed, 0 failed, .*; required but not exercised: endpoint-groups; bundle: /m);
  });

  it("a profile's require does the same", async () => {
    const profile = join(dir, 'requires.json');
    writeFileSync(profile, JSON.stringify({ name: 'requires groups', require: ['endpoint-groups'] }));
    const args = ['certify', '--base-url', mock.url, '--tags', TAGS, '--profile', profile];
    const r = await runCli([...args, '--report-dir', reportDir()], env);
    assert.equal(r.code, 1, r.err + r.out);
    assert.match(r.out, /^FAILED: .*required but not exercised: endpoint-groups;/m);
  });

  it('with PAYCONFORM_ENDPOINT_GROUP_ID every capability of the selection is exercised: PASSED', async () => {
    const args = ['certify', '--base-url', mock.url, '--tags', TAGS, '--require', 'endpoint-groups,callbacks'];
    const withGroup = { ...env, PAYCONFORM_ENDPOINT_GROUP_ID: merchant.endpointGroupIds[0] };
    const r = await runCli([...args, '--report-dir', reportDir()], withGroup);
    assert.equal(r.code, 0, r.err + r.out);
    assert.match(r.out, /^PASSED: 6 passed, 0 failed, 0 with warnings, 0 not applicable/m);
  });

  it('an unknown capability is bad input: one line naming --require or the profile key, exit 2', async () => {
    const r = await runCli(['certify', '--base-url', mock.url, '--require', 'callback'], env);
    assert.equal(r.code, 2);
    assert.match(r.err, /^payconform certify: --require: "callback" is not a capability \(/);
    assert.equal(r.err.trim().split('\n').length, 1, r.err);
    const profile = join(dir, 'unknown.json');
    writeFileSync(profile, JSON.stringify({ require: ['callbacks', 'groups'] }));
    const p = await runCli(['certify', '--base-url', mock.url, '--profile', profile], env);
    assert.equal(p.code, 2);
    assert.match(p.err, /--profile .*unknown\.json: \/require\/1: "groups" is not a capability/);
    assert.equal(p.err.trim().split('\n').length, 1, p.err);
  });
});

describe('bundle merge: coverage is the union of the shards', () => {
  it('each shard alone is PARTIAL (left out of this shard); the two merged are PASSED', async () => {
    const quiet = { log: () => {}, progress: new PassThrough().resume() };
    const shard = async (i: number): Promise<string> => {
      const report = reportDir();
      const target = resolveTarget({ live: false }, {});
      await runSuite({ target, tags: '@capability:endpoint-groups', shard: `${i}/2`, reportDir: report }, quiet);
      return report;
    };
    const one = await shard(1);
    const two = await shard(2);
    for (const report of [one, two]) {
      const summary = summaryOf(report);
      assert.equal(summary.status, 'partial', report);
      assert.ok(
        summary.coverage.notExercised.some(
          (m: { why: string; inSelection: boolean }) => m.why === 'left out of this shard' && m.inSelection,
        ),
      );
    }
    const out = join(dir, 'merged');
    const r = await runCli(['bundle', 'merge', one, two, '--out', out]);
    assert.equal(r.code, 0, r.err + r.out);
    assert.match(r.out, /^PASSED: 4 passed, 0 failed of 2 shards; bundle: /m);
    assert.equal(summaryOf(out).status, 'passed');
  });
});
