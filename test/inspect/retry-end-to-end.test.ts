// The integration under faults end to end: two small merchant clients written here, each sending
// through inspect's listener over real sockets to a gateway whose sale never answers, so inspect's relay times out
// and tells the inspector the answer was lost. The client that sends the sale again (under a new client_orderid,
// or the same one) fails the rule meant for it; the client that asks status passes every check of the faults part.
// The same against the embedded mock's own time-out (client_orderid=MOCK-TIMEOUT-1) runs once that fault is there.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { endpointByOperation, OP } from '../../src/catalogue/index.ts';
import { PayClient } from '../../src/client/client.ts';
import { DEFAULT_MAX_ANSWER_BYTES } from '../../src/capped-answer.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';
import { startListener, type InspectRecord, type RunningListener } from '../../src/inspect/listener.ts';
import { sampleRequest } from '../../src/schemas/index.ts';

const merchant = testMerchant();
const credentials = {
  login: merchant.login,
  controlKey: merchant.merchantControlKey,
  privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
};
const HABITS = ['order-id-unique', 'no-blind-retry', 'no-new-order-while-unknown'];
const failed = (r: InspectRecord): string[] => r.verdict.checks.filter((c) => c.outcome === 'fail').map((c) => c.id);
const habitsPass = (r: InspectRecord): boolean =>
  r.verdict.checks.every((c) => !HABITS.includes(c.id) || c.outcome !== 'fail');

/** A gateway whose sale never answers and whose status says the order is approved. */
async function silentGateway(): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume();
    if (!req.url?.includes('/status/')) return; // the sale: accepted, never answered
    req.once('end', () => {
      res.writeHead(200, { 'content-type': 'application/vnd.pay+json' });
      res.end(JSON.stringify({ type: 'status-response', status: 'approved', 'paynet-order-id': '7' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const sale = (id: string) => sampleRequest(endpointByOperation(OP.SALE), [['client_orderid', id]]);

/** A shop's client: its sale's outcome is unknown when it threw (no answer) or was answered 5xx. */
async function unknownAfterSale(client: PayClient, id: string): Promise<boolean> {
  const answer = await client.send(OP.SALE, sale(id)).catch(() => undefined);
  // A shop logs the failure before it acts on it: the listener has told inspect how the exchange ended by then.
  await sleep(100);
  return answer === undefined || answer.status >= 500;
}

/** The shop that sends the sale again after it ended unknown: under a new client_orderid, or the same one. */
async function resendingShop(client: PayClient, id: string, againAs: string): Promise<void> {
  if (await unknownAfterSale(client, id)) await client.send(OP.SALE, sale(againAs)).catch(() => undefined);
}

/**
 * The shop that asks status after its sale ended unknown: by client_orderid alone, as the status page allows when
 * "orderid is not received" (the family's formula then takes an empty orderid); signed here with node:crypto.
 */
async function statusAskingShop(client: PayClient, id: string): Promise<void> {
  if (!(await unknownAfterSale(client, id))) return;
  const control = createHash('sha1')
    .update(merchant.login + id + merchant.merchantControlKey)
    .digest('hex');
  await client
    .send(
      OP.STATUS,
      [
        ['login', merchant.login],
        ['client_orderid', id],
        ['control', control],
      ],
      { unsigned: true },
    )
    .catch(() => undefined);
}

/** The records of one shop's run through a fresh listener. */
async function run(
  listen: () => Promise<RunningListener>,
  shop: (client: PayClient) => Promise<void>,
  clientTimeoutMs: number,
): Promise<readonly InspectRecord[]> {
  const listener = await listen();
  const client = new PayClient({
    baseUrl: `${listener.url}/paynet`,
    credentials,
    endpointId: '1001',
    timeoutMs: clientTimeoutMs,
  });
  try {
    await shop(client);
    return [...listener.records];
  } finally {
    await client.close();
    await listener.close();
  }
}

describe('a merchant client after its sale times out, through inspect (relay time-out upstream)', () => {
  let gateway: Server;
  before(async () => {
    gateway = await silentGateway();
  });
  after(() => new Promise<void>((resolve) => gateway.close(() => resolve())));

  const listen = () =>
    startListener({
      merchants: [merchant],
      upstream: `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`,
      relayBounds: { timeoutMs: 300, maxAnswerBytes: DEFAULT_MAX_ANSWER_BYTES },
    });

  it('sending the sale again under a new client_orderid fails no-new-order-while-unknown, and only that', async () => {
    const records = await run(listen, (c) => resendingShop(c, 'E2E-1', 'E2E-2'), 5_000);
    assert.equal(records.length, 2);
    assert.deepEqual('error' in records[0]!.answer, true, 'the sale was not answered');
    assert.deepEqual(failed(records[0]!), []);
    assert.deepEqual(failed(records[1]!), ['no-new-order-while-unknown']);
  });

  it('sending the same sale again fails no-blind-retry, naming the lost answer, and only that', async () => {
    const records = await run(listen, (c) => resendingShop(c, 'E2E-3', 'E2E-3'), 5_000);
    assert.deepEqual(failed(records[1]!), ['no-blind-retry']);
    assert.match(
      records[1]!.verdict.checks.find((c) => c.id === 'no-blind-retry')!.message!,
      /^sent again after its answer was lost \(timeout\), with no status request/,
    );
  });

  it('asking status by client_orderid alone passes every check, as does the sale (A-61)', async () => {
    const records = await run(listen, (c) => statusAskingShop(c, 'E2E-4'), 5_000);
    assert.deepEqual(
      records.map((r) => r.verdict.operation),
      [OP.SALE, OP.STATUS],
    );
    assert.deepEqual(failed(records[0]!), []);
    assert.ok(records.every(habitsPass));
    assert.deepEqual(failed(records[1]!), []);
    assert.equal((records[1]!.answer as { status: number }).status, 200);
  });
});

describe('the same against the embedded mock, client_orderid=MOCK-TIMEOUT-1 (the client gives up)', () => {
  const listen = () => startListener({ merchants: [merchant] });

  it('sending the sale again under a new client_orderid fails no-new-order-while-unknown', async () => {
    const records = await run(listen, (c) => resendingShop(c, 'MOCK-TIMEOUT-1', 'E2E-5'), 1_000);
    // By order id, not by position: the listener may record the sale it held after the one sent next.
    const second = records.find((r) => r.verdict.clientOrderId === 'E2E-5');
    assert.deepEqual(second && failed(second), ['no-new-order-while-unknown']);
  });

  it('sending the same sale again fails no-blind-retry', async () => {
    const records = await run(listen, (c) => resendingShop(c, 'MOCK-TIMEOUT-1', 'MOCK-TIMEOUT-1'), 1_000);
    // The first sale passes and the second fails, whichever the listener recorded first.
    assert.deepEqual(records.map(failed).sort(), [[], ['no-blind-retry']]);
  });

  it('asking status by client_orderid alone passes every check, and finds the order the time-out made', async () => {
    const records = await run(listen, (c) => statusAskingShop(c, 'MOCK-TIMEOUT-1'), 1_000);
    assert.deepEqual(records.map(failed), [[], []]);
    const status = records.find((r) => r.verdict.operation === OP.STATUS);
    const answer = status?.answer as { status?: number; type?: string; paynetOrderId?: string } | undefined;
    assert.equal(answer?.status, 200);
    assert.equal(answer?.type, 'status-response');
    assert.ok(answer?.paynetOrderId, 'the order the timed-out sale made');
  });
});
