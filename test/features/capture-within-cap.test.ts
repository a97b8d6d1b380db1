// Issue 42: a default live run failed its own "capture above the authorised amount" scenario, because it
// sent 10.01 and the default PAYCONFORM_MAX_AMOUNT (10.00, docs/certify.md) forbids anything above 10.00.
// The scenario now takes its amounts from the cap: run live, with the default cap, against a loopback mock,
// it sends both and passes.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { startMock, type RunningMock } from '../../src/mock/server.ts';
import { runSuite } from '../../src/suite/run.ts';
import { resolveTarget } from '../../src/suite/target.ts';
import { testMerchantEnv } from '../support/merchant-env.ts';

// No PAYCONFORM_MAX_AMOUNT: the default cap.
const env = testMerchantEnv();
const dir = mkdtempSync(join(tmpdir(), 'payconform-capture-cap-'));
let mock: RunningMock;
before(async () => {
  mock = await startMock({ prefix: '/paynet' });
});
after(async () => {
  await mock.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the capture-above-authorised scenario in a default live run', () => {
  it('sends amounts within the default cap and passes', async () => {
    const target = resolveTarget({ baseUrl: `${mock.url}/paynet`, live: true }, env);
    assert.equal(target.maxAmountCents, '1000', 'the default cap is 10.00 (docs/certify.md)');
    const { summary } = await runSuite(
      { target, tags: '@rule:capture-within-authorised', reportDir: join(dir, 'run') },
      { log: () => {}, progress: new PassThrough().resume(), confirmLive: () => Promise.resolve(true) },
    );
    assert.equal(summary.totals.passed, 1, JSON.stringify(summary.totals));
    assert.deepEqual(summary.failed, []);
  });
});
