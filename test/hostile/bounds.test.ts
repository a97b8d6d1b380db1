// Bounds at the edge (issue 41): a hostile peer on loopback (bounds-server.ts) trickles an answer, streams a big
// one or never answers, and payconform's client, inspect's relay, the callback sender and the long-running
// commands must each end within their deadline, keep at most their cap of an answer, and stop on SIGTERM within
// 5 s writing a report that says it was interrupted. The sizes asserted are counted by the hostile server itself;
// the upper time limits leave room for a loaded machine (two cores shared by many runs).
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { endpointByOperation } from '../../src/catalogue/index.ts';
import { PayClient } from '../../src/client/client.ts';
import { exchangeText } from '../../src/client/exchange-text.ts';
import { sendCallback } from '../../src/gateway/callback-delivery.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';
import { startListener } from '../../src/inspect/listener.ts';
import { sampleRequest } from '../../src/schemas/index.ts';
import { runCli } from '../support/cli.ts';
import { startHostile, type Behaviour, type HostileServer } from './bounds-server.ts';

const entry = new URL('./payconform-tsx.ts', import.meta.url).pathname;
const merchant = testMerchant();
const credentials = {
  login: merchant.login,
  controlKey: merchant.merchantControlKey,
  privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
};
const gatewayEnv = {
  PAYCONFORM_ENDPOINT_ID: '1001',
  PAYCONFORM_LOGIN: merchant.login,
  PAYCONFORM_CONTROL_KEY: merchant.merchantControlKey,
  PAYCONFORM_PRIVATE_KEY_FILE: TEST_MERCHANT_PRIVATE_KEY_FILE,
  CI: 'true',
};
const dir = mkdtempSync(join(tmpdir(), 'payconform-bounds-'));
const servers: HostileServer[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

const MiB = 1024 * 1024;

/** A hostile server that answers the start-up probe (a GET) plainly and every other request as `behaviour`. */
async function hostile(behaviour: Behaviour): Promise<HostileServer> {
  const server = await startHostile((req) =>
    req.method === 'GET' ? { kind: 'big', bytes: 2, status: 404, contentType: 'text/plain' } : behaviour,
  );
  servers.push(server);
  return server;
}

interface Spawned {
  readonly out: () => string;
  readonly exit: Promise<{ code: number | null; at: number }>;
  readonly kill: (signal: NodeJS.Signals) => void;
}

/** `payconform ARGS…` from source, killed with SIGKILL after `limitMs` whatever happens. */
function payconform(args: readonly string[], env: Record<string, string> = {}, limitMs = 60_000): Spawned {
  const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const limit = setTimeout(() => child.kill('SIGKILL'), limitMs);
  const exit = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(limit);
      resolve({ code, at: Date.now() });
    }),
  );
  return { out: () => out, exit, kill: (signal) => child.kill(signal) };
}

/** Resolves when `test` holds, polling; rejects after `ms`. */
async function until(test: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Sends SIGTERM once `ready` holds, and returns how long the process took to exit after it. */
async function terminated(
  p: Spawned,
  ready: () => boolean,
  what: string,
): Promise<{ code: number | null; ms: number }> {
  await until(ready, 40_000, what);
  const sent = Date.now();
  p.kill('SIGTERM');
  const { code, at } = await p.exit;
  return { code, ms: at - sent };
}

describe('answers are read up to a cap', () => {
  it('keeps the first maxAnswerBytes of a 20 MiB answer and tells its whole size', async () => {
    const server = await hostile({ kind: 'big', bytes: 20 * MiB });
    const client = new PayClient({ baseUrl: server.url, credentials, endpointId: '1001', maxAnswerBytes: 4096 });
    try {
      const x = await client.send('SALE', sampleRequest(endpointByOperation('SALE'), []));
      assert.equal(x.seen.text.length, 4096);
      assert.deepEqual(x.truncated, { total: server.written(), kept: 4096, endless: false });
      assert.equal(server.written(), 20 * MiB);
      const problem = x.problems.find((p) => p.rule === 'answer-json-body');
      assert.match(problem?.message ?? '', new RegExp(`body: ${server.written()} bytes, of which the first 4096`));
      // The evidence attached to a failing step shows a page of it, and says how much more there is.
      const evidence = exchangeText(x);
      assert.ok(evidence.length < 4096 + 4000, `${evidence.length} characters`);
      assert.match(evidence, new RegExp(`\\[truncated: the answer is ${server.written()} bytes`));
    } finally {
      await client.close();
    }
  });

  it('attaches at most a page of an answer as evidence, and says how much more there was', async () => {
    const server = await hostile({ kind: 'big', bytes: 200 * 1024, status: 200 });
    const client = new PayClient({ baseUrl: server.url, credentials, endpointId: '1001' });
    try {
      const x = await client.send('SALE', sampleRequest(endpointByOperation('SALE'), []));
      const evidence = exchangeText(x);
      assert.ok(evidence.length < 16 * 1024 + 4000, `${evidence.length} characters`);
      assert.match(
        evidence,
        new RegExp(`\\[… ${server.written() - 16 * 1024} more characters of the answer not shown\\]`),
      );
    } finally {
      await client.close();
    }
  });

  it('send prints the first part marked truncated, with the size', async () => {
    const server = await hostile({ kind: 'big', bytes: 20 * MiB, contentType: 'text/plain' });
    const r = await runCli(
      ['send', 'SALE', '--base-url', server.url, '--endpoint-id', '1001', '--prepare', '--max-answer-bytes', '1000'],
      { PAYCONFORM_LOGIN: merchant.login, PAYCONFORM_CONTROL_KEY: merchant.merchantControlKey },
    );
    assert.equal(r.code, 1, r.err);
    assert.ok(r.out.length < 20_000, `${r.out.length} characters printed`);
    assert.match(r.out, new RegExp(`\\[truncated: the answer is ${server.written()} bytes, of which the first 1000`));
  });

  for (const command of ['send', 'certify', 'inspect'])
    it(`${command} refuses a --max-answer-bytes that is not a whole number of bytes, in one line`, async () => {
      const rest = command === 'send' ? ['SALE', '--base-url', 'http://127.0.0.1:9', '--endpoint-id', '1'] : [];
      for (const bad of ['0', 'lots', '1e6', '268435457']) {
        const r = await runCli([command, ...rest, '--max-answer-bytes', bad]);
        assert.equal(r.code, 2, r.err);
        assert.match(r.err, /^payconform \S+: --max-answer-bytes: must be a whole number from 1 to 268435456\n$/);
      }
    });

  it("inspect relays an upstream's 20 MiB answer whole, and keeps only the first part in its record", async () => {
    const server = await hostile({ kind: 'big', bytes: 20 * MiB, status: 200 });
    const listener = await startListener({
      merchants: [merchant],
      upstream: server.url,
      relayBounds: { timeoutMs: 20_000, maxAnswerBytes: 2048 },
    });
    try {
      const r = await request(`${listener.url}/paynet/api/v2/sale/1001`, { method: 'POST', body: 'amount=1.00' });
      let received = 0;
      for await (const chunk of r.body) received += (chunk as Buffer).length;
      assert.equal(received, server.written());
      const answer = listener.records[0]?.answer;
      assert.ok(answer && 'status' in answer, JSON.stringify(answer));
      assert.deepEqual(answer.truncated, { total: server.written(), kept: 2048, endless: false });
    } finally {
      await listener.close();
    }
  });
});

describe('every request has a total deadline', () => {
  it('the client gives up on an answer trickled a byte every 100 ms at its deadline, naming it', async () => {
    const server = await hostile({ kind: 'trickle', everyMs: 100, bytes: 300 });
    const client = new PayClient({ baseUrl: server.url, credentials, endpointId: '1001', timeoutMs: 1000 });
    const started = Date.now();
    try {
      await assert.rejects(client.send('SALE', sampleRequest(endpointByOperation('SALE'), [])), (err: Error) =>
        /^SALE: no whole answer within 1000 ms, the request's deadline \(--timeout-ms\)/.test(err.message),
      );
      const ms = Date.now() - started;
      assert.ok(ms >= 950 && ms < 4000, `${ms} ms`);
    } finally {
      await client.close();
    }
  });

  it('send --timeout-ms 3000 ends about 3 s after its request reached a server trickling a byte per 500 ms', async () => {
    const server = await hostile({ kind: 'trickle', everyMs: 500, bytes: 60 });
    const p = payconform(
      ['send', 'SALE', '--base-url', server.url, '--endpoint-id', '1001', '--prepare', '--timeout-ms', '3000'],
      { PAYCONFORM_LOGIN: merchant.login, PAYCONFORM_CONTROL_KEY: merchant.merchantControlKey },
      20_000,
    );
    let reached = 0;
    await until(() => server.requests() > 0 && (reached = Date.now()) > 0, 15_000, 'the request reached the server');
    const { code, at } = await p.exit;
    assert.equal(code, 2, p.out());
    const ms = at - reached;
    assert.ok(ms >= 2900 && ms < 5500, `${ms} ms after the request`);
    const lines = p.out().trim().split('\n');
    assert.equal(lines.length, 1, p.out());
    assert.match(lines[0]!, /^payconform send: SALE: no whole answer within 3000 ms, the request's deadline/);
  });

  it('inspect --upstream cuts a trickled answer at its deadline and records why', async () => {
    const server = await hostile({ kind: 'trickle', everyMs: 100, bytes: 300 });
    const listener = await startListener({
      merchants: [merchant],
      upstream: server.url,
      relayBounds: { timeoutMs: 800, maxAnswerBytes: 1024 },
    });
    try {
      const started = Date.now();
      const r = await request(`${listener.url}/paynet/api/v2/sale/1001`, { method: 'POST', body: 'amount=1.00' });
      await assert.rejects(async () => {
        for await (const _ of r.body);
      }, 'the merchant sees the answer cut, not finished');
      assert.ok(Date.now() - started < 4000, `${Date.now() - started} ms`);
      await until(() => listener.records.length > 0, 2000, 'the request recorded');
      assert.deepEqual(listener.records[0]?.answer, { error: `no answer from ${server.url} (deadline of 800 ms)` });
    } finally {
      await listener.close();
    }
  });

  it("a callback whose handler drips its answer ends at the callback's deadline, and at once when closed", async () => {
    const server = await startHostile({ kind: 'trickle', everyMs: 100, bytes: 300 });
    servers.push(server);
    const url = new URL(`${server.url}/callback`);
    let started = Date.now();
    assert.deepEqual(await sendCallback(url, [['status', 'approved']], { method: 'POST', timeoutMs: 700 }), {
      error: 'timeout',
    });
    assert.ok(Date.now() - started < 3000, `${Date.now() - started} ms`);
    const closing = new AbortController();
    started = Date.now();
    setTimeout(() => closing.abort(), 200);
    const outcome = await sendCallback(url, [['status', 'approved']], {
      method: 'GET',
      timeoutMs: 60_000,
      signal: closing.signal,
    });
    assert.deepEqual(outcome, { error: 'timeout' });
    assert.ok(Date.now() - started < 2500, `${Date.now() - started} ms`);
  });

  it('certify against a trickling gateway ends within its deadline, the cause named on the console', async () => {
    const server = await hostile({ kind: 'trickle', everyMs: 200, bytes: 1000 });
    const report = join(dir, 'certify-trickle');
    // A 3 s step timeout: the deadline (by default a second less) must end the request, and nothing wait for it.
    const p = payconform(
      ['certify', '--base-url', `${server.url}/paynet`, '--tags', '@rule:accept-header', '--report-dir', report],
      { ...gatewayEnv, PAYCONFORM_STEP_TIMEOUT_MS: '3000' },
      45_000,
    );
    const { code } = await p.exit;
    assert.equal(code, 1, p.out().slice(-3000));
    assert.match(p.out(), /no whole answer within (N|2000) ms, the request's deadline/);
    assert.doesNotMatch(p.out(), /hook errored/);
    assert.match(readFileSync(join(report, 'summary.json'), 'utf8'), /"status": "failed"/);
  });

  it('certify refuses a --timeout-ms that does not end before the step timeout, in one line', async () => {
    const r = await runCli(['certify', '--timeout-ms', '3000'], { PAYCONFORM_STEP_TIMEOUT_MS: '3000' });
    assert.equal(r.code, 2, r.err);
    assert.equal(r.err, 'payconform certify: --timeout-ms: must be a whole number from 1 to 2999\n');
  });
});

describe('SIGTERM ends a long-running command within 5 s, with a report that says so', () => {
  it('certify, against a gateway that never answers', async () => {
    const server = await hostile({ kind: 'silent' });
    const report = join(dir, 'certify-term');
    const p = payconform(
      ['certify', '--base-url', `${server.url}/paynet`, '--tags', '@endpoint:SALE', '--report-dir', report],
      gatewayEnv,
    );
    const { code, ms } = await terminated(p, () => server.requests() > 1, 'certify sent its requests');
    assert.ok(ms < 5000, `${ms} ms after SIGTERM`);
    assert.equal(code, 130, p.out());
    assert.match(readFileSync(join(report, 'summary.json'), 'utf8'), /"status": "interrupted"/);
  });

  it('inspect --upstream, with a request to an upstream that never answers under way', async () => {
    const server = await hostile({ kind: 'silent' });
    const report = join(dir, 'inspect-upstream-term');
    const p = payconform(['inspect', '--port', '0', '--upstream', server.url, '--report-dir', report]);
    await until(() => /listening on http:\/\/\S+/.test(p.out()), 20_000, 'inspect listening');
    const url = /listening on (http:\/\/\S+)/.exec(p.out())![1]!;
    const pending = request(`${url}/paynet/api/v2/sale/1001`, { method: 'POST', body: 'amount=1.00' }).catch(
      () => undefined,
    );
    const { ms } = await terminated(p, () => server.requests() > 1, 'the request relayed');
    await pending;
    assert.ok(ms < 5000, `${ms} ms after SIGTERM`);
    const json = JSON.parse(readFileSync(join(report, 'report.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(json.interrupted, true);
    assert.equal(json.stoppedBy, 'SIGTERM');
    // The page a certifier reads says it too, not only the JSON.
    assert.match(readFileSync(join(report, 'report.html'), 'utf8'), /id="interrupted"><strong>Interrupted by SIGTERM/);
  });

  it('inspect in front of the embedded mock', async () => {
    const report = join(dir, 'inspect-term');
    const p = payconform(['inspect', '--port', '0', '--report-dir', report]);
    const { ms } = await terminated(p, () => /listening on http/.test(p.out()), 'inspect listening');
    assert.ok(ms < 5000, `${ms} ms after SIGTERM`);
    const json = JSON.parse(readFileSync(join(report, 'report.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(json.interrupted, true);
  });

  it("inspect --callback-checks, while the merchant's handler drips its answer", async () => {
    const handler = await startHostile({ kind: 'trickle', everyMs: 200, bytes: 1000 });
    servers.push(handler);
    const report = join(dir, 'inspect-callbacks-term');
    const p = payconform(['inspect', '--port', '0', '--callback-checks', '--report-dir', report]);
    await until(() => /listening on http/.test(p.out()), 20_000, 'inspect listening');
    const url = /listening on (http:\/\/\S+)/.exec(p.out())![1]!;
    await saleWithCallback(`${url}/paynet`, `${handler.url}/callback`);
    const { ms } = await terminated(p, () => handler.requests() > 0, 'the callback reached the handler');
    assert.ok(ms < 5000, `${ms} ms after SIGTERM`);
    const json = JSON.parse(readFileSync(join(report, 'report.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(json.interrupted, true);
  });

  it("mock, while a merchant's handler drips its answer to a callback", async () => {
    const handler = await startHostile({ kind: 'trickle', everyMs: 200, bytes: 1000 });
    servers.push(handler);
    // Real time: the retry after the cut attempt would wait minutes, and must not begin.
    const p = payconform(['mock', '--port', '0', '--quiet', '--callback-time-scale', '1']);
    await until(() => /listening on http/.test(p.out()), 20_000, 'mock listening');
    const url = /listening on (http:\/\/\S+)/.exec(p.out())![1]!;
    await saleWithCallback(url, `${handler.url}/callback`);
    const { ms } = await terminated(p, () => handler.requests() > 0, 'the callback reached the handler');
    assert.ok(ms < 5000, `${ms} ms after SIGTERM`);
  });
});

/** A SALE accepted at `baseUrl` whose final order calls back `callbackUrl`. */
async function saleWithCallback(baseUrl: string, callbackUrl: string): Promise<void> {
  const client = new PayClient({ baseUrl, credentials, endpointId: '1001' });
  try {
    const x = await client.send(
      'SALE',
      sampleRequest(endpointByOperation('SALE'), [['server_callback_url', callbackUrl]]),
    );
    assert.equal(x.status, 200, JSON.stringify(x.body));
  } finally {
    await client.close();
  }
}
