// Faults per request (magic client_orderid values, docs/mock.md "Faults"): over a real socket the client sees exactly
// the fault (its own time-out, ECONNRESET, an answer cut after its headers, a proxy's 502/503, a late answer), and a
// status asked afterwards says whether the gateway made the order. The expectations are the (44, item 1).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { MAGIC_FAULTS } from '../../src/gateway/faults.ts';
import { startMock, type RunningMock } from '../../src/mock/server.ts';
import { sendRaw } from '../support/faulted-exchange.ts';

let mock: RunningMock;
const log: string[] = [];
before(async () => {
  mock = await startMock({ log: (line) => log.push(line) });
});
after(async () => {
  await mock.close();
});

/** A normal sale's paynet-order-id. */
async function normalSale(): Promise<string> {
  const seen = await sendRaw(mock.url, 'SALE', [['client_orderid', 'plain-order']]);
  assert.equal(seen.status, 200, seen.body);
  return (JSON.parse(seen.body) as Record<string, string>)['paynet-order-id'] ?? '';
}

/**
 * Whether the request just sent with `clientOrderId` made an order: ids are consecutive, so a sale sent now gets the
 * next one, and a status for the id before it names the order's client_orderid if the faulted request made it.
 */
async function orderMade(clientOrderId: string): Promise<boolean> {
  const before = String(Number(await normalSale()) - 1);
  const seen = await sendRaw(mock.url, 'STATUS', [
    ['orderid', before],
    ['client_orderid', clientOrderId],
  ]);
  assert.equal(seen.status, 200, `a status for ${clientOrderId} answers normally: ${seen.body}`);
  return (JSON.parse(seen.body) as Record<string, string>)['merchant-order-id'] === clientOrderId;
}

describe('faults per request, by magic client_orderid (mock)', () => {
  it('MOCK-TIMEOUT: no answer until the client gives up; the order was made', async () => {
    const seen = await sendRaw(mock.url, 'SALE', [['client_orderid', 'MOCK-TIMEOUT']], 400);
    assert.deepEqual([seen.ended, seen.error, seen.status], ['error', 'AbortError', undefined]);
    assert.ok(seen.ms >= 390, `waited ${seen.ms} ms`);
    assert.equal(await orderMade('MOCK-TIMEOUT'), true);
  });

  it('MOCK-TIMEOUT-7: the prefix matches, for a second order', async () => {
    const seen = await sendRaw(mock.url, 'SALE', [['client_orderid', 'MOCK-TIMEOUT-7']], 300);
    assert.deepEqual([seen.ended, seen.error], ['error', 'AbortError']);
    assert.equal(await orderMade('MOCK-TIMEOUT-7'), true);
  });

  it('MOCK-SLOW-300: the normal answer, after at least 300 ms and not much more; the order was made', async () => {
    const seen = await sendRaw(mock.url, 'SALE', [['client_orderid', 'MOCK-SLOW-300-2']]);
    assert.deepEqual([seen.ended, seen.status], ['whole', 200]);
    assert.equal((JSON.parse(seen.body) as Record<string, string>)['merchant-order-id'], 'MOCK-SLOW-300-2');
    assert.ok(seen.ms >= 295 && seen.ms < 1_500, `answered after ${seen.ms} ms`);
    assert.equal(await orderMade('MOCK-SLOW-300-2'), true);
  });

  it('MOCK-RESET: the connection reset before any answer; no order', async () => {
    const seen = await sendRaw(mock.url, 'SALE', [['client_orderid', 'MOCK-RESET']]);
    assert.deepEqual([seen.ended, seen.error, seen.status], ['error', 'ECONNRESET', undefined]);
    assert.equal(await orderMade('MOCK-RESET'), false);
  });

  it('MOCK-LOST-ANSWER: headers with Content-Length, part of the body, then the connection gone; the order exists', async () => {
    const seen = await sendRaw(mock.url, 'SALE', [['client_orderid', 'MOCK-LOST-ANSWER']]);
    assert.equal(seen.status, 200);
    assert.equal(seen.ended, 'cut');
    const promised = Number(seen.headers?.['content-length']);
    assert.ok(Buffer.byteLength(seen.body) > 0 && Buffer.byteLength(seen.body) < promised, seen.body);
    assert.equal(await orderMade('MOCK-LOST-ANSWER'), true);
  });

  it("MOCK-502 and MOCK-503: a proxy's text/html page, 503 with Retry-After; no order", async () => {
    const bad = await sendRaw(mock.url, 'SALE', [['client_orderid', 'MOCK-502']]);
    assert.deepEqual([bad.status, bad.ended, bad.headers?.['content-type']], [502, 'whole', 'text/html']);
    assert.match(bad.body, /502 Bad Gateway/);
    assert.equal(await orderMade('MOCK-502'), false);
    const busy = await sendRaw(mock.url, 'SALE', [['client_orderid', 'MOCK-503-2']]);
    assert.deepEqual(
      [busy.status, busy.headers?.['retry-after'], busy.headers?.['content-type']],
      [503, '1', 'text/html'],
    );
    assert.equal(await orderMade('MOCK-503-2'), false);
  });

  it('MOCK-SERVER-ERROR-2: the prefix matches the 500 too', async () => {
    const seen = await sendRaw(mock.url, 'SALE', [['client_orderid', 'MOCK-SERVER-ERROR-2']]);
    assert.equal(seen.status, 500);
    assert.equal((JSON.parse(seen.body) as Record<string, string>)['error-code'], 'SERVER_ERROR');
  });

  it('a value that only looks like one is no fault (MOCK-5020, MOCK-SLOW-x), and a refused request stays refused', async () => {
    for (const id of ['MOCK-5020', 'MOCK-SLOW-x', 'MOCK-TIMEOUTS']) {
      const seen = await sendRaw(mock.url, 'SALE', [['client_orderid', id]]);
      assert.deepEqual([seen.status, seen.ended], [200, 'whole'], id);
    }
    const refused = await sendRaw(mock.url, 'SALE', [
      ['client_orderid', 'MOCK-TIMEOUT'],
      ['expire_month', '13'],
    ]);
    assert.deepEqual([refused.status, refused.ended], [400, 'whole']);
  });

  it('the request log says the fault, and no client_orderid', () => {
    const line = log.find((l) => l.includes('fault=reset'));
    assert.ok(line, log.join('\n'));
    assert.match(line, /fault=reset \(client_orderid\) lost:reset/);
    assert.ok(!log.some((l) => l.includes('MOCK-')), 'no field value in the log');
  });

  it('close() ends at once with a request held by MOCK-TIMEOUT', async () => {
    const other = await startMock();
    const held = sendRaw(other.url, 'SALE', [['client_orderid', 'MOCK-TIMEOUT']], 10_000);
    await new Promise((r) => setTimeout(r, 150));
    const started = performance.now();
    await other.close();
    assert.ok(performance.now() - started < 1_000);
    const seen = await held;
    assert.notEqual(seen.error, 'AbortError', 'the server, not the client, ended it');
  });
});

describe('docs/mock.md', () => {
  it('has a row of the magic table for every fault, saying whether the order exists', () => {
    const doc = readFileSync(new URL('../../docs/mock.md', import.meta.url), 'utf8');
    for (const { id, orderMade } of MAGIC_FAULTS) {
      const row = doc.split('\n').find((line) => line.startsWith(`| \`${id}\` |`));
      assert.ok(row, `docs/mock.md has no row for ${id}`);
      assert.match(row.split('|')[3] ?? '', orderMade ? /yes/ : /no/, row);
    }
  });
});
