// The mock's clock (src/mock/clock.ts; A-53): set at start, advanced on the admin route; the OAuth timestamp window
// and the callback retry timeline read it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { endpointByOperation } from '../../src/catalogue/index.ts';
import { PayClient } from '../../src/client/client.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';
import { parseDuration } from '../../src/gateway/duration.ts';
import { clockOffset } from '../../src/mock/clock.ts';
import { startMock, type RunningMock } from '../../src/mock/server.ts';
import { sampleRequest } from '../../src/schemas/index.ts';
import { runCli } from '../support/cli.ts';

const merchant = testMerchant();
const credentials = {
  login: merchant.login,
  controlKey: merchant.merchantControlKey,
  privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
};

async function advance(mock: RunningMock, by: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await request(`${mock.url}/_payconform/clock`, {
    method: 'POST',
    headers: { authorization: `Bearer ${mock.adminToken}` },
    body: JSON.stringify({ advance: by }),
  });
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
}

describe("the mock's clock", () => {
  it('reads durations and start times', () => {
    assert.deepEqual(
      ['2h', '+90m', '-10m', '30s', '1d', '500ms'].map(parseDuration),
      [7_200_000, 5_400_000, -600_000, 30_000, 86_400_000, 500],
    );
    for (const bad of ['2', 'h', '2 hours', '1.5h', '', '+4000d']) assert.equal(parseDuration(bad), undefined, bad);
    const real = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(clockOffset('+2h', real), 7_200_000);
    assert.equal(clockOffset('2026-01-01T03:00:00Z', real), 10_800_000);
    assert.equal(clockOffset('2025-12-31T23:00:00-01:00', real), 0);
    assert.match(String(clockOffset('tomorrow', real)), /^must be an ISO time/);
    assert.match(String(clockOffset('+2 h', real)), /^must be an offset/);
  });

  it('refuses an OAuth timestamp 2 h ahead, and takes it once the clock is advanced 2 h', async () => {
    const mock = await startMock();
    const client = new PayClient({ baseUrl: mock.url, credentials, endpointId: '1001' });
    const ahead = String(Math.floor(Date.now() / 1000) + 7200);
    const payout = () =>
      client.send('PAYOUT_V4', sampleRequest(endpointByOperation('PAYOUT_V4')), { timestamp: ahead });
    try {
      const refused = await payout();
      assert.equal(refused.status, 403);
      assert.match(JSON.stringify(refused.body), /oauth_timestamp/);
      const moved = await advance(mock, '2h');
      assert.equal(moved.status, 200);
      assert.equal(moved.body.offsetMs, 7_200_000);
      assert.equal((await payout()).status, 200);
    } finally {
      await client.close();
      await mock.close();
    }
  });

  it('--clock +2h takes that timestamp from the start; a bad --clock is one line, exit 2', async () => {
    const mock = await startMock({ clockOffsetMs: clockOffset('+2h', Date.now()) as number });
    const client = new PayClient({ baseUrl: mock.url, credentials, endpointId: '1001' });
    try {
      const ahead = String(Math.floor(Date.now() / 1000) + 7200);
      const x = await client.send('PAYOUT_V4', sampleRequest(endpointByOperation('PAYOUT_V4')), { timestamp: ahead });
      assert.equal(x.status, 200);
    } finally {
      await client.close();
      await mock.close();
    }
    const bad = await runCli(['mock', '--clock', 'soon']);
    assert.deepEqual(
      [bad.code, bad.err],
      [
        2,
        'payconform mock: --clock: must be an ISO time with its zone (2030-01-01T12:00:00Z) within ten years, or an ' +
          'offset such as +2h\n',
      ],
    );
  });

  it('a callback retry due in a minute (real time) goes out right after the clock is advanced 1 h', async () => {
    const arrivals: number[] = [];
    const handler = createServer((_req, res) => {
      arrivals.push(Date.now());
      res.statusCode = arrivals.length === 1 ? 500 : 200;
      res.end();
    });
    await new Promise<void>((resolve) => handler.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(handler.address() as AddressInfo).port}/cb`;
    const mock = await startMock({ callbacks: { timeScale: 1, delayMs: 0, timeoutMs: 2000 } });
    const client = new PayClient({ baseUrl: mock.url, credentials, endpointId: '1001' });
    const waitFor = async (count: number, ms: number): Promise<void> => {
      for (let i = 0; i < ms / 10 && arrivals.length < count; i++) await new Promise((r) => setTimeout(r, 10));
    };
    try {
      const x = await client.send('SALE', sampleRequest(endpointByOperation('SALE'), [['notify_url', url]]));
      assert.equal(x.status, 200);
      await waitFor(1, 2000);
      await waitFor(2, 500);
      assert.equal(arrivals.length, 1, 'the retry waits its minute on the real clock');
      const advanced = Date.now();
      assert.equal((await advance(mock, '1h')).status, 200);
      await waitFor(2, 2000);
      assert.equal(arrivals.length, 2, 'the retry went once the clock passed its due time');
      assert.ok(arrivals[1]! - advanced < 1000, `the retry came ${arrivals[1]! - advanced} ms after the advance`);
      assert.deepEqual(
        mock.callbacks.deliveries.map((d) => [d.attempt, d.answered, d.outcome]),
        [
          [1, 500, 'retrying'],
          [2, 200, 'delivered'],
        ],
      );
    } finally {
      await client.close();
      await mock.close();
      handler.close();
    }
  });

  it('advances forward only', async () => {
    const mock = await startMock();
    try {
      assert.deepEqual(await advance(mock, '-1h'), {
        status: 400,
        body: { error: 'advance: must be a duration forward such as 2h, 90m, 30s, 1d' },
      });
    } finally {
      await mock.close();
    }
  });
});

describe("inspect's clock", () => {
  it('is the embedded mock clock: advanced, inspect judges a timestamp 2 h ahead inside the window', async () => {
    const { startListener } = await import('../../src/inspect/listener.ts');
    const listener = await startListener({ merchants: [merchant] });
    const client = new PayClient({ baseUrl: listener.url, credentials, endpointId: '1001' });
    const ahead = String(Math.floor(Date.now() / 1000) + 7200);
    const payout = () =>
      client.send('PAYOUT_V4', sampleRequest(endpointByOperation('PAYOUT_V4')), { timestamp: ahead });
    const windowCheck = () =>
      listener.records.at(-1)?.verdict.checks.find((c) => c.id === 'oauth-timestamp-window')?.outcome;
    try {
      assert.equal((await payout()).status, 403);
      assert.equal(windowCheck(), 'fail');
      const res = await request(`${listener.url}/_payconform/clock`, {
        method: 'POST',
        headers: { authorization: `Bearer ${listener.adminToken}` },
        body: '{"advance":"2h"}',
      });
      assert.equal(res.statusCode, 200);
      await res.body.text();
      assert.equal((await payout()).status, 200);
      assert.equal(windowCheck(), 'pass');
      assert.equal(listener.records.length, 2, 'the clock route is not recorded');
    } finally {
      await client.close();
      await listener.close();
    }
  });
});
