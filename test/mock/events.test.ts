// Events on demand from a running mock and from inspect's embedded mock (docs/callbacks.md, "Events on demand"):
// each delivered to a handler of this test (a node:http server) with exactly the family's fields, the control
// computed here by hand with node:crypto; `duplicate` arriving as two requests in flight at once; refusals for an
// unknown order or an impossible event; the order's state after a chargeback or reversal.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { endpointByOperation } from '../../src/catalogue/index.ts';
import { PayClient } from '../../src/client/client.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';
import { startMock, type RunningMock } from '../../src/mock/server.ts';
import { startListener } from '../../src/inspect/listener.ts';
import { sampleRequest } from '../../src/schemas/index.ts';

const merchant = testMerchant();
const KEY = merchant.merchantControlKey;
const credentials = {
  login: merchant.login,
  controlKey: KEY,
  privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
};
const sha1 = (text: string): string => createHash('sha1').update(text, 'utf8').digest('hex');

/** The pairs a callback must carry, in order, written from the family's field list. */
const callbackOf = (orderid: string, clientOrderId: string, amount: string, status: string, type: string) => [
  ['orderid', orderid],
  ['merchant_order', clientOrderId],
  ['client_orderid', clientOrderId],
  ['amount', amount],
  ['status', status],
  ['type', type],
  ['control', sha1(`${status}${orderid}${clientOrderId}${KEY}`)],
];

interface Received {
  readonly method: string | undefined;
  readonly pairs: string[][];
  /** Requests in flight when this one arrived, itself included. */
  readonly inFlight: number;
}

/** A handler that keeps what it gets; while `holdForSecond`, the first request waits (1 s at most) for another. */
class Handler {
  readonly received: Received[] = [];
  holdForSecond = false;
  private inFlight = 0;
  private waiting: (() => void) | undefined;
  private server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/cb`;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    this.inFlight += 1;
    const query = new URL(req.url ?? '/', 'http://x').searchParams;
    this.received.push({ method: req.method, pairs: [...query.entries()], inFlight: this.inFlight });
    req.resume();
    const done = (): void => {
      this.inFlight -= 1;
      res.end('OK');
    };
    if (!this.holdForSecond) return done();
    if (this.waiting === undefined) {
      const timer = setTimeout(() => this.release(), 1000);
      this.waiting = () => {
        clearTimeout(timer);
        done();
      };
    } else {
      this.release();
      done();
    }
  }

  private release(): void {
    const wake = this.waiting;
    this.waiting = undefined;
    wake?.();
  }

  /** What arrived from `from` on, once `count` callbacks have (2 s at most). */
  async since(from: number, count: number): Promise<Received[]> {
    for (let i = 0; i < 200 && this.received.length < from + count; i++) await new Promise((r) => setTimeout(r, 10));
    return this.received.slice(from);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

let seq = 0;

/** A sale with a callback URL, final at once; resolves when its own callback has come. */
async function sale(
  client: PayClient,
  handler: Handler,
  urlField: 'notify_url' | 'server_callback_url' = 'notify_url',
  card = '4111111111111111',
): Promise<{ clientOrderId: string; orderid: string }> {
  const clientOrderId = `EV-${++seq}`;
  const from = handler.received.length;
  const x = await client.send(
    'SALE',
    sampleRequest(endpointByOperation('SALE'), [
      ['client_orderid', clientOrderId],
      ['amount', '10.29'],
      ['credit_card_number', card],
      [urlField, handler.url],
    ]),
  );
  assert.equal(x.status, 200, JSON.stringify(x.body));
  await handler.since(from, 1);
  return { clientOrderId, orderid: (x.body as Record<string, string>)['paynet-order-id']! };
}

/** POSTs to the admin route: its status and JSON answer. */
async function admin(
  base: string,
  body: unknown,
  token: string,
  route = 'events',
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await request(`${base}/_payconform/${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
}

/** The status answer's fields for the order (twice: the first status answer of an order may say processing). */
async function statusOf(client: PayClient, clientOrderId: string, orderid: string): Promise<Record<string, string>> {
  const x = await client.send(
    'STATUS',
    sampleRequest(endpointByOperation('STATUS'), [
      ['client_orderid', clientOrderId],
      ['orderid', orderid],
    ]),
  );
  return x.body as Record<string, string>;
}

describe('events on demand from the mock', () => {
  const handler = new Handler();
  let mock: RunningMock;
  let client: PayClient;
  before(async () => {
    await handler.start();
    mock = await startMock({ callbacks: { delayMs: 0, timeoutMs: 3000 } });
    client = new PayClient({ baseUrl: mock.url, credentials, endpointId: '1001' });
  });
  after(async () => {
    await client.close();
    await mock.close();
    await handler.close();
  });

  it('chargeback: type chargeback, status approved, the sale signed as the family signs; status says chargeback', async () => {
    const { clientOrderId, orderid } = await sale(client, handler);
    const from = handler.received.length;
    const answer = await admin(mock.url, { event: 'chargeback', order: clientOrderId }, mock.adminToken);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const [got] = await handler.since(from, 1);
    assert.deepEqual(got?.pairs, callbackOf(orderid, clientOrderId, '10.29', 'approved', 'chargeback'));
    assert.deepEqual(answer.body.callbacks, [
      {
        status: 'approved',
        type: 'chargeback',
        amount: '10.29',
        target: handler.url,
        outcome: 'delivered',
        answered: 200,
      },
    ]);
    assert.ok(!JSON.stringify(answer.body).includes(got.pairs[6]![1]!), 'the answer shows no control');
    const status = await statusOf(client, clientOrderId, orderid);
    assert.deepEqual([status.status, status['transaction-type']], ['approved', 'chargeback']);
    // Nothing is left: a second chargeback, or a reversal, cannot happen.
    const again = await admin(mock.url, { event: 'reversal', order: clientOrderId }, mock.adminToken);
    assert.deepEqual(
      [again.status, again.body],
      [409, { error: 'the order was charged back already: nothing is left for a reversal' }],
    );
  });

  it('reversal: type reversal, status approved; status then names a reversal', async () => {
    const { clientOrderId, orderid } = await sale(client, handler);
    const from = handler.received.length;
    const answer = await admin(mock.url, { event: 'reversal', order: clientOrderId }, mock.adminToken);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const [got] = await handler.since(from, 1);
    assert.deepEqual(got?.pairs, callbackOf(orderid, clientOrderId, '10.29', 'approved', 'reversal'));
    assert.equal((await statusOf(client, clientOrderId, orderid))['transaction-type'], 'reversal');
  });

  it('repeat sends the final callback again; late one with another final status', async () => {
    const { clientOrderId, orderid } = await sale(client, handler);
    const from = handler.received.length;
    assert.equal((await admin(mock.url, { event: 'repeat', order: clientOrderId }, mock.adminToken)).status, 200);
    assert.equal((await admin(mock.url, { event: 'late', order: clientOrderId }, mock.adminToken)).status, 200);
    const got = await handler.since(from, 2);
    assert.deepEqual(
      got.map((r) => r.pairs),
      [
        callbackOf(orderid, clientOrderId, '10.29', 'approved', 'sale'),
        callbackOf(orderid, clientOrderId, '10.29', 'declined', 'sale'),
      ],
    );
  });

  it('duplicate: two identical callbacks, both in flight at once', async () => {
    const { clientOrderId, orderid } = await sale(client, handler);
    const from = handler.received.length;
    handler.holdForSecond = true;
    try {
      const answer = await admin(mock.url, { event: 'duplicate', order: clientOrderId }, mock.adminToken);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
    } finally {
      handler.holdForSecond = false;
    }
    const got = await handler.since(from, 2);
    const genuine = callbackOf(orderid, clientOrderId, '10.29', 'approved', 'sale');
    assert.deepEqual(
      got.map((r) => r.pairs),
      [genuine, genuine],
    );
    // The second arrived while the first was held: two requests in flight together.
    assert.deepEqual(
      got.map((r) => r.inFlight),
      [1, 2],
    );
  });

  it('refuses an unknown order (404), a declined order charged back (409), server_callback_url only (409)', async () => {
    const unknown = await admin(mock.url, { event: 'repeat', order: 'NO-SUCH-ORDER' }, mock.adminToken);
    assert.deepEqual([unknown.status, unknown.body], [404, { error: 'no order with client_orderid NO-SUCH-ORDER' }]);
    const declined = await sale(client, handler, 'notify_url', '4000000000000002');
    const chargeback = await admin(mock.url, { event: 'chargeback', order: declined.clientOrderId }, mock.adminToken);
    assert.deepEqual(
      [chargeback.status, chargeback.body],
      [409, { error: 'a chargeback needs an approved order; this one is declined' }],
    );
    const serverOnly = await sale(client, handler, 'server_callback_url');
    const refused = await admin(mock.url, { event: 'chargeback', order: serverOnly.clientOrderId }, mock.adminToken);
    assert.equal(refused.status, 409);
    assert.match(String(refused.body.error), /server_callback_url only: the family reports a chargeback to notify_url/);
    // The final callback again is the initial transaction's: server_callback_url gets that one.
    const repeat = await admin(mock.url, { event: 'repeat', order: serverOnly.clientOrderId }, mock.adminToken);
    assert.equal(repeat.status, 200);
    const other = await admin(
      mock.url,
      { event: 'repeat', order: serverOnly.clientOrderId, merchant: 'x' },
      mock.adminToken,
    );
    assert.deepEqual(
      [other.status, other.body],
      [404, { error: `no order with client_orderid ${serverOnly.clientOrderId} of merchant x` }],
    );
  });
});

describe('events on demand from inspect', () => {
  it('delivers with --callback-checks (the mock posts no callbacks of its own), not recorded as a request', async () => {
    const handler = new Handler();
    await handler.start();
    const listener = await startListener({
      merchants: [merchant],
      callbackChecks: { delayMs: 0, timeoutMs: 2000 },
    });
    const client = new PayClient({ baseUrl: listener.url, credentials, endpointId: '1001' });
    try {
      const { clientOrderId, orderid } = await sale(client, handler);
      await listener.callbackChecker?.idle(5000);
      const records = listener.records.length;
      const from = handler.received.length;
      const answer = await admin(listener.url, { event: 'chargeback', order: clientOrderId }, listener.adminToken!);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const [got] = await handler.since(from, 1);
      assert.deepEqual(got?.pairs, callbackOf(orderid, clientOrderId, '10.29', 'approved', 'chargeback'));
      assert.equal(got?.method, 'GET');
      assert.equal(listener.records.length, records, 'the admin route is not a merchant request');
    } finally {
      await client.close();
      await listener.close();
      await handler.close();
    }
  });

  it('sends events by POST where --callback-method POST says the checks do', async () => {
    const handler = new Handler();
    await handler.start();
    const listener = await startListener({
      merchants: [merchant],
      callbackChecks: { delayMs: 0, timeoutMs: 2000, method: 'POST' },
    });
    const client = new PayClient({ baseUrl: listener.url, credentials, endpointId: '1001' });
    try {
      const { clientOrderId } = await sale(client, handler);
      await listener.callbackChecker?.idle(5000);
      const from = handler.received.length;
      const answer = await admin(listener.url, { event: 'repeat', order: clientOrderId }, listener.adminToken!);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const [got] = await handler.since(from, 1);
      assert.equal(got?.method, 'POST');
    } finally {
      await client.close();
      await listener.close();
      await handler.close();
    }
  });
});
