// Inspect's embedded mock injects the same faults as the mock (docs/inspect.md, "Faults"): the integration sees each
// over a real socket, and inspect's history hears how each exchange ended (contract C2: AnswerOutcome), which the
// rules across requests read. Read here without a rule: through the session's inspector.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startListener, type RunningListener } from '../../src/inspect/listener.ts';
import { testMerchant } from '../../src/gateway/merchants.ts';
import type { AnswerOutcome } from '../../src/rules/history.ts';
import { sendRaw } from '../support/faulted-exchange.ts';

const merchant = testMerchant();
let listener: RunningListener;
before(async () => {
  listener = await startListener({ merchants: [merchant] });
});
after(async () => {
  await listener.close();
});

/** How inspect's history says the last request that started `clientOrderId` ended. */
function lastAnswer(clientOrderId: string): AnswerOutcome | undefined {
  const { history } = listener.inspector.request({ method: 'POST', url: `${listener.url}/`, headers: {} }).context;
  return history?.earlier(merchant.login, clientOrderId)?.lastAnswer;
}

/** Waits until inspect has recorded `n` requests (a record is written once the exchange has ended). */
async function recorded(n: number): Promise<void> {
  for (let i = 0; i < 100 && listener.records.length < n; i++) await new Promise((r) => setTimeout(r, 20));
}

describe('faults injected by inspect, and the outcome in its history', () => {
  it('MOCK-TIMEOUT: the integration times out; history: lost, timeout', async () => {
    const seen = await sendRaw(listener.url, 'SALE', [['client_orderid', 'MOCK-TIMEOUT']], 300);
    assert.deepEqual([seen.ended, seen.error], ['error', 'AbortError']);
    assert.deepEqual(lastAnswer('MOCK-TIMEOUT'), { kind: 'lost', fault: 'timeout' });
  });

  it('MOCK-RESET: ECONNRESET; history: lost, reset', async () => {
    const seen = await sendRaw(listener.url, 'SALE', [['client_orderid', 'MOCK-RESET']]);
    assert.deepEqual([seen.ended, seen.error], ['error', 'ECONNRESET']);
    assert.deepEqual(lastAnswer('MOCK-RESET'), { kind: 'lost', fault: 'reset' });
  });

  it('MOCK-LOST-ANSWER: an answer cut after its headers; history: lost, lost-answer', async () => {
    const seen = await sendRaw(listener.url, 'SALE', [['client_orderid', 'MOCK-LOST-ANSWER']]);
    assert.deepEqual([seen.status, seen.ended], [200, 'cut']);
    assert.deepEqual(lastAnswer('MOCK-LOST-ANSWER'), { kind: 'lost', fault: 'lost-answer' });
  });

  it('MOCK-502 and MOCK-503: the statuses, Retry-After on 503; history: answered with the status', async () => {
    const bad = await sendRaw(listener.url, 'SALE', [['client_orderid', 'MOCK-502']]);
    assert.deepEqual([bad.status, bad.headers?.['content-type']], [502, 'text/html']);
    assert.deepEqual(lastAnswer('MOCK-502'), { kind: 'answered', status: 502 });
    const busy = await sendRaw(listener.url, 'SALE', [['client_orderid', 'MOCK-503']]);
    assert.deepEqual([busy.status, busy.headers?.['retry-after']], [503, '1']);
    assert.deepEqual(lastAnswer('MOCK-503'), { kind: 'answered', status: 503 });
  });

  it('MOCK-SLOW-200: answered late; history: answered 200', async () => {
    const seen = await sendRaw(listener.url, 'SALE', [['client_orderid', 'MOCK-SLOW-200']]);
    assert.deepEqual([seen.status, seen.ended], [200, 'whole']);
    assert.ok(seen.ms >= 195 && seen.ms < 1_500, `${seen.ms} ms`);
    assert.deepEqual(lastAnswer('MOCK-SLOW-200'), { kind: 'answered', status: 200 });
  });

  it('MOCK-SLOW that the integration gives up on: history: lost, client-gave-up', async () => {
    const seen = await sendRaw(listener.url, 'SALE', [['client_orderid', 'MOCK-SLOW-800-1']], 150);
    assert.deepEqual([seen.ended, seen.error], ['error', 'AbortError']);
    const before = listener.records.length;
    await new Promise((r) => setTimeout(r, 100));
    await recorded(before);
    assert.deepEqual(lastAnswer('MOCK-SLOW-800-1'), { kind: 'lost', fault: 'client-gave-up' });
  });

  it('an injected fault is not the gateway refusing: the record says what happened, not "refused"', async () => {
    await recorded(7);
    const faulted = listener.records.filter((r) => r.verdict.clientOrderId?.startsWith('MOCK-'));
    assert.ok(faulted.length >= 6, JSON.stringify(listener.records.map((r) => r.answer)));
    assert.deepEqual(
      faulted.filter((r) => r.refused !== undefined),
      [],
    );
    const reset = faulted.find((r) => r.verdict.clientOrderId === 'MOCK-RESET');
    assert.deepEqual(reset?.answer, { error: 'no whole answer: fault=reset (client_orderid), reset' });
  });

  it('a normal sale is told answered 200, as before', async () => {
    const seen = await sendRaw(listener.url, 'SALE', [['client_orderid', 'plain-1']]);
    assert.equal(seen.status, 200);
    assert.deepEqual(lastAnswer('plain-1'), { kind: 'answered', status: 200 });
  });
});

describe('a relayed answer the integration gave up on', () => {
  it('is told client-gave-up, not a time-out of the sandbox', async () => {
    // A sandbox that answers after 600 ms; the integration waits 150 ms.
    const sandbox = createServer((_req, res) => {
      const timer = setTimeout(() => res.end('{}'), 600);
      res.once('close', () => clearTimeout(timer));
    });
    await new Promise<void>((resolve) => sandbox.listen(0, '127.0.0.1', resolve));
    const upstream = `http://127.0.0.1:${(sandbox.address() as AddressInfo).port}`;
    // The relay runs on to its deadline after the integration left (relay.ts): a short one keeps the test short.
    const relayBounds = { timeoutMs: 1_000, maxAnswerBytes: 1 << 20 };
    const relaying = await startListener({ merchants: [merchant], upstream, relayBounds });
    try {
      const seen = await sendRaw(relaying.url, 'SALE', [['client_orderid', 'gave-up-1']], 150);
      assert.deepEqual([seen.ended, seen.error], ['error', 'AbortError']);
      for (let i = 0; i < 150 && relaying.records.length < 1; i++) await new Promise((r) => setTimeout(r, 20));
      const { history } = relaying.inspector.request({ method: 'POST', url: `${relaying.url}/`, headers: {} }).context;
      assert.deepEqual(history?.earlier(merchant.login, 'gave-up-1')?.lastAnswer, {
        kind: 'lost',
        fault: 'client-gave-up',
      });
    } finally {
      await relaying.close();
      await new Promise((resolve) => sandbox.close(resolve));
    }
  });
});
