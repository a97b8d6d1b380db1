// The runner: the target reaches the steps through cucumber's worldParameters (process.env is left
// alone), runs in one process take turns and share the support code, and a live run is refused
// before anything is sent unless it is confirmed.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { TEST_MERCHANT_PRIVATE_KEY_FILE } from '../../src/gateway/merchants.ts';
import { runSuite } from '../../src/suite/run.ts';
import { resolveTarget } from '../../src/suite/target.ts';

const dir = mkdtempSync(join(tmpdir(), 'payconform-run-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const quiet = () => new Writable({ write: (_chunk, _encoding, done) => done() });

describe('runSuite', () => {
  it(
    'hands each run its own target through worldParameters, one run at a time, without touching process.env',
    { timeout: 60_000 },
    async () => {
      const envBefore = JSON.stringify(process.env);
      const lines: string[] = [];
      const run = (defect: 'lose-order' | undefined, name: string) =>
        runSuite(
          {
            target: resolveTarget({ live: false, defect }, {}),
            tags: '@endpoint:SALE and @positive',
            reportDir: join(dir, name),
          },
          { log: (line) => lines.push(line), progress: quiet() },
        );
      // Started together: the second waits for the first, and both find their step definitions.
      const [correct, broken] = await Promise.all([run(undefined, 'correct'), run('lose-order', 'broken')]);
      assert.deepEqual(
        [correct.passed, correct.summary.totals],
        [true, { passed: 1, failed: 0, other: 0, warned: 0, notApplicable: 0 }],
      );
      assert.deepEqual(
        [broken.passed, broken.summary.totals],
        [false, { passed: 0, failed: 1, other: 0, warned: 0, notApplicable: 0 }],
      );
      assert.equal(
        broken.summary.target,
        'the embedded mock gateway (TEST-ONLY merchant), deliberately broken: lose-order',
      );
      // A later run in the same process still has every step: the step modules were imported once.
      assert.deepEqual((await run(undefined, 'again')).summary.totals, {
        passed: 1,
        failed: 0,
        other: 0,
        warned: 0,
        notApplicable: 0,
      });
      assert.equal(JSON.stringify(process.env), envBefore);
      // Each run checks its selection before it waits its turn, so the two lines come in either order.
      // Each run also prints its generated checks' seed (docs/certify.md, "Generated checks").
      const described = lines.filter((l) => !l.startsWith('generated checks: seed '));
      assert.deepEqual(described.slice(0, 2).sort(), [
        `the embedded mock gateway (TEST-ONLY merchant), deliberately broken: lose-order; 1 scenario; reports in ${join(dir, 'broken')}`,
        `the embedded mock gateway (TEST-ONLY merchant); 1 scenario; reports in ${join(dir, 'correct')}`,
      ]);
      const summary = JSON.parse(readFileSync(join(dir, 'broken', 'summary.json'), 'utf8'));
      assert.deepEqual(
        [summary.live, summary.selection, summary.shard],
        [false, '(@endpoint:SALE and @positive)', null],
      );
      for (const file of ['report.html', 'junit.xml', 'messages.ndjson', 'manifest.json'])
        assert.ok(existsSync(join(dir, 'broken', file)), file);
    },
  );

  const gateway = {
    PAYCONFORM_ENDPOINT_ID: '1',
    PAYCONFORM_LOGIN: 'm',
    PAYCONFORM_CONTROL_KEY: 'k',
    PAYCONFORM_PRIVATE_KEY_FILE: TEST_MERCHANT_PRIVATE_KEY_FILE,
  };
  const liveTarget = resolveTarget(
    { baseUrl: 'https://sandbox.example/paynet/', live: true },
    { ...gateway, PAYCONFORM_MAX_AMOUNT: '2.50' },
  );

  it('says what a live run will do and stops, with nothing written, unless it is confirmed', async () => {
    for (const confirmLive of [() => Promise.resolve(false), undefined]) {
      const lines: string[] = [];
      const reportDir = join(dir, 'live');
      await assert.rejects(
        runSuite({ target: liveTarget, reportDir }, { log: (line) => lines.push(line), confirmLive }),
        { code: 'ERR_LIVE_RUN', message: 'live run: not confirmed; nothing was sent' },
      );
      assert.deepEqual(lines, [
        'LIVE run against https://sandbox.example/paynet as endpoint 1: only test cards, amounts up to 2.5, no retries, @mock-only scenarios left out.',
      ]);
      assert.equal(existsSync(reportDir), false);
    }
  });

  it('refuses a target that is not loopback and not live, however it was made', async () => {
    await assert.rejects(
      runSuite(
        { target: { ...liveTarget, live: false }, reportDir: join(dir, 'unsafe') },
        { log: () => {}, confirmLive: () => Promise.resolve(true) },
      ),
      { code: 'ERR_LIVE_RUN', field: '--live' },
    );
    assert.equal(existsSync(join(dir, 'unsafe')), false);
  });
});
