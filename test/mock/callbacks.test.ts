// The mock's callbacks to notify_url or server_callback_url: an HTTP GET with the fields after
// the URL's own query (a POST where asked), signed, sent when the order is final (by the card's
// outcome, a 3-D Secure upload or the hosted page), retried on anything but 200 on the compressed
// public timeline, refused for a host that is not loopback, a port a real gateway refuses logged,
// and the hosted page's return to redirect_url signed the same way. The handlers are the shop's own
// (test/support/merchant-shop.ts), written as the public examples are, and with the usual mistakes.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { endpointByOperation, THREE_DS_CARD } from '../../src/catalogue/index.ts';
import { TEST_CARDS } from '../../src/catalogue/test-cards.ts';
import { PayClient } from '../../src/client/client.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';
import { startMock, type RunningMock } from '../../src/mock/server.ts';
import { sampleRequest } from '../../src/schemas/index.ts';
import type { Pair } from '../../src/signing/form-body.ts';
import { callbackWaitMinutes, CALLBACK_ATTEMPTS, gatewayRefusesPort } from '../../src/catalogue/index.ts';
import { MerchantShop, type HandlerMistake } from '../support/merchant-shop.ts';

const merchant = testMerchant();
const credentials = {
  login: merchant.login,
  controlKey: merchant.merchantControlKey,
  privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
};
const sha1sum = (text: string): string =>
  execFileSync('sha1sum', { input: Buffer.from(text, 'utf8') })
    .toString()
    .slice(0, 40);
let seq = 0;

async function withMock<T>(
  settings: Parameters<typeof startMock>[0],
  body: (mock: RunningMock, client: PayClient) => Promise<T>,
): Promise<T> {
  const mock = await startMock({ callbacks: { timeScale: 3000, delayMs: 0, timeoutMs: 1000 }, ...settings });
  const client = new PayClient({ baseUrl: mock.url, credentials, endpointId: '1001' });
  try {
    return await body(mock, client);
  } finally {
    await client.close();
    await mock.close();
  }
}

/** The shop orders, then sends the order to the gateway with its callback URL. */
async function sale(
  client: PayClient,
  shop: MerchantShop,
  operation = 'SALE',
  ...more: Pair[]
): Promise<{ clientOrderId: string; orderid: string; body: Record<string, string> }> {
  const clientOrderId = `CB-${++seq}`;
  const order = shop.order(clientOrderId, '10.29');
  const x = await client.send(
    operation,
    sampleRequest(endpointByOperation(operation), [
      ['client_orderid', clientOrderId],
      ['amount', '10.29'],
      ['server_callback_url', shop.url],
      ...more,
    ]),
  );
  assert.equal(x.status, 200, JSON.stringify(x.body));
  const body = x.body as Record<string, string>;
  const orderid = body['paynet-order-id'];
  assert.ok(orderid !== undefined, JSON.stringify(body));
  order.orderid = orderid;
  return { clientOrderId, orderid, body };
}

describe('mock callbacks', () => {
  const shop = new MerchantShop(merchant.merchantControlKey);
  before(() => shop.start());
  after(() => shop.close());

  it('sends the signed callback of an approved sale by GET, once, and status says final from then on', async () => {
    await withMock({}, async (mock, client) => {
      const { clientOrderId, orderid } = await sale(client, shop);
      await mock.callbacks.idle(5000);
      const got = shop.received.filter((r) => r.fields.client_orderid === clientOrderId);
      assert.equal(got.length, 1);
      const f = got[0]!.fields;
      assert.deepEqual(Object.keys(f), [
        'orderid',
        'merchant_order',
        'client_orderid',
        'amount',
        'status',
        'type',
        'control',
      ]);
      assert.deepEqual(
        { ...f, control: undefined },
        {
          orderid,
          merchant_order: clientOrderId,
          client_orderid: clientOrderId,
          amount: '10.29',
          status: 'approved',
          type: 'sale',
          control: undefined,
        },
      );
      assert.equal(f.control, sha1sum(`approved${orderid}${clientOrderId}${merchant.merchantControlKey}`));
      assert.equal(got[0]!.answered, 200);
      assert.deepEqual([got[0]!.method, got[0]!.own], ['GET', { shop: 'main' }]);
      assert.equal(shop.orders.get(clientOrderId)!.status, 'approved');
      assert.deepEqual(
        mock.callbacks.deliveries.map((d) => [d.orderid, d.attempt, d.method, d.outcome, d.answered]),
        [[orderid, 1, 'GET', 'delivered', 200]],
      );
      const status = await client.send(
        'STATUS',
        sampleRequest(endpointByOperation('STATUS'), [
          ['orderid', orderid],
          ['client_orderid', clientOrderId],
        ]),
      );
      assert.equal((status.body as { status: string }).status, 'approved');
    });
  });

  it('sends nothing for an order that stays processing, nor without server_callback_url', async () => {
    await withMock({}, async (mock, client) => {
      await sale(client, shop, 'SALE', ['credit_card_number', TEST_CARDS['stays processing']]);
      const x = await client.send('SALE', sampleRequest(endpointByOperation('SALE'), [['client_orderid', 'NO-CB']]));
      assert.equal(x.status, 200);
      await mock.callbacks.idle(1000);
      assert.deepEqual(mock.callbacks.deliveries, []);
    });
  });

  it('a declined card: the callback says declined', async () => {
    await withMock({}, async (mock, client) => {
      const { clientOrderId } = await sale(client, shop, 'SALE', ['credit_card_number', TEST_CARDS.declined]);
      await mock.callbacks.idle(5000);
      assert.equal(shop.received.find((r) => r.fields.client_orderid === clientOrderId)!.fields.status, 'declined');
    });
  });

  it('3-D Secure: no callback while the order waits, the callback once the result is uploaded', async () => {
    await withMock({}, async (mock, client) => {
      const { clientOrderId, orderid } = await sale(client, shop, 'SALE', ['credit_card_number', THREE_DS_CARD]);
      await mock.callbacks.idle(1000);
      assert.equal(mock.callbacks.deliveries.length, 0);
      const upload = await client.send(
        'TDS_UPLOAD_CRES_RESULT',
        sampleRequest(endpointByOperation('TDS_UPLOAD_CRES_RESULT'), [
          ['orderid', orderid],
          ['client-order-id', clientOrderId],
        ]),
      );
      assert.equal(upload.status, 200, JSON.stringify(upload.body));
      await mock.callbacks.idle(5000);
      assert.deepEqual(
        mock.callbacks.deliveries.map((d) => [d.orderid, d.status, d.outcome]),
        [[orderid, 'approved', 'delivered']],
      );
    });
  });

  it('the hosted page: the callback when it is paid, and the customer returns to redirect_url with the signed fields', async () => {
    await withMock({}, async (mock, client) => {
      const { clientOrderId, orderid, body } = await sale(client, shop, 'SALEFORM', [
        'redirect_url',
        'https://shop.example/return?x=1',
      ]);
      await mock.callbacks.idle(500);
      assert.equal(mock.callbacks.deliveries.length, 0, 'nothing before the page is paid');
      const paid = await request(body['redirect-url']!, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `credit_card_number=${TEST_CARDS.declined}&card_printed_name=J&expire_month=12&expire_year=30&cvv2=123`,
      });
      const html = await paid.body.text();
      assert.equal(paid.statusCode, 200);
      const form = /<form id="return" method="post" action="([^"]+)">(.*?)<\/form>/.exec(html);
      assert.ok(form, html);
      assert.equal(form[1], 'https://shop.example/return?x=1');
      const inputs = Object.fromEntries(
        [...form[2]!.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]]),
      );
      assert.deepEqual(inputs, {
        status: 'declined',
        orderid,
        merchant_order: clientOrderId,
        client_orderid: clientOrderId,
        control: sha1sum(`declined${orderid}${clientOrderId}${merchant.merchantControlKey}`),
      });
      await mock.callbacks.idle(5000);
      assert.deepEqual(
        mock.callbacks.deliveries.map((d) => [d.orderid, d.status, d.outcome]),
        [[orderid, 'declined', 'delivered']],
      );
    });
  });

  it('retries a failing handler with a growing back-off, and gives up after the last attempt', async () => {
    const flaky = new MerchantShop(merchant.merchantControlKey, 'fails-first', 2);
    await flaky.start();
    try {
      // A scale of 2000: the timeline's 1 and 2 minutes last 30 and 60 ms.
      await withMock({ callbacks: { timeScale: 2000, delayMs: 0, attempts: 4 } }, async (mock, client) => {
        const { orderid } = await sale(client, flaky);
        await mock.callbacks.idle(5000);
        const d = mock.callbacks.deliveries;
        assert.deepEqual(
          d.map((x) => [x.attempt, x.answered, x.outcome]),
          [
            [1, 503, 'retrying'],
            [2, 503, 'retrying'],
            [3, 200, 'delivered'],
          ],
        );
        const gaps = d.slice(1).map((x, i) => Date.parse(x.at) - Date.parse(d[i]!.at));
        assert.ok(gaps[0]! >= 25 && gaps[1]! >= 55, `back-off grows: ${gaps.join(', ')} ms`);
        assert.equal(flaky.orders.size, 1);
        void orderid;
      });
      const down = new MerchantShop(merchant.merchantControlKey, 'fails-first', 99);
      await down.start();
      await withMock({ callbacks: { timeScale: 12_000, delayMs: 0, attempts: 3 } }, async (mock, client) => {
        await sale(client, down);
        await mock.callbacks.idle(5000);
        assert.deepEqual(
          mock.callbacks.deliveries.map((x) => x.outcome),
          ['retrying', 'retrying', 'failed'],
        );
      });
      await down.close();
    } finally {
      await flaky.close();
    }
  });

  it('a handler that does not answer in time is retried; one that is not listening too', async () => {
    await withMock(
      { callbacks: { timeScale: 12_000, delayMs: 0, attempts: 2, timeoutMs: 100 } },
      async (mock, client) => {
        const silent = (await import('node:http')).createServer(() => {
          /* never answers */
        });
        await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
        const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}/cb`;
        const hanging = {
          url,
          order: (id: string, amount: string) => shop.order(id, amount),
        } as unknown as MerchantShop;
        await sale(client, hanging);
        await mock.callbacks.idle(5000);
        assert.deepEqual(
          mock.callbacks.deliveries.map((x) => [x.error, x.outcome]),
          [
            ['timeout', 'retrying'],
            ['timeout', 'failed'],
          ],
        );
        silent.closeAllConnections();
        silent.close();
      },
    );
  });

  it('calls no host but loopback unless allowed, and logs no field value', async () => {
    const lines: string[] = [];
    await withMock({ log: (l) => lines.push(l) }, async (mock, client) => {
      const away = {
        url: 'https://merchant.example/callback?token=s3cret',
        order: (id: string, amount: string) => shop.order(id, amount),
      } as unknown as MerchantShop;
      await sale(client, away);
      const { clientOrderId } = await sale(client, shop);
      await mock.callbacks.idle(5000);
      assert.deepEqual(
        mock.callbacks.deliveries.map((x) => [x.target, x.outcome]),
        [
          ['https://merchant.example/callback', 'refused'],
          [shop.target, 'delivered'],
        ],
      );
      const log = lines.filter((l) => l.includes('CALLBACK')).join('\n');
      assert.match(log, /CALLBACK GET https:\/\/merchant\.example\/callback host not allowed/);
      const control = shop.received.find((r) => r.fields.client_orderid === clientOrderId)!.fields.control;
      for (const secret of ['s3cret', control, merchant.merchantControlKey])
        assert.ok(!lines.join('\n').includes(secret!), secret);
    });
  });
  it("GET: the fields follow the URL's own query after &, in order, the control recomputed by hand", async () => {
    const urls: string[] = [];
    const raw = (await import('node:http')).createServer((req, res) => {
      urls.push(`${req.method} ${req.url}`);
      res.end('OK');
    });
    await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(raw.address() as { port: number }).port}/cb.php`;
    try {
      await withMock({}, async (mock, client) => {
        const custom = {
          url: `${base}?shop=main&lang=en%20GB`,
          order: (id: string, amount: string) => shop.order(id, amount),
        } as unknown as MerchantShop;
        const { clientOrderId, orderid } = await sale(client, custom);
        const simple = {
          url: base,
          order: (id: string, amount: string) => shop.order(id, amount),
        } as unknown as MerchantShop;
        const second = await sale(client, simple);
        await mock.callbacks.idle(5000);
        const control = sha1sum(`approved${orderid}${clientOrderId}${merchant.merchantControlKey}`);
        const control2 = sha1sum(`approved${second.orderid}${second.clientOrderId}${merchant.merchantControlKey}`);
        assert.deepEqual(
          urls.sort(),
          [
            `GET /cb.php?orderid=${second.orderid}&merchant_order=${second.clientOrderId}&client_orderid=${second.clientOrderId}&amount=10.29&status=approved&type=sale&control=${control2}`,
            `GET /cb.php?shop=main&lang=en%20GB&orderid=${orderid}&merchant_order=${clientOrderId}&client_orderid=${clientOrderId}&amount=10.29&status=approved&type=sale&control=${control}`,
          ].sort(),
        );
      });
    } finally {
      raw.close();
    }
  });

  it('a handler written the public way takes it; the usual wrong ones refuse it, and the mock retries until 200', async () => {
    const outcomes = async (mistake: HandlerMistake | undefined, method?: 'GET' | 'POST'): Promise<string[]> => {
      const handler = new MerchantShop(merchant.merchantControlKey, mistake);
      await handler.start();
      try {
        return await withMock(
          { callbacks: { timeScale: 60_000, delayMs: 0, attempts: 2, ...(method ? { method } : {}) } },
          async (mock, client) => {
            await sale(client, handler);
            await mock.callbacks.idle(5000);
            return mock.callbacks.deliveries.map((d) => `${d.method} ${d.answered} ${d.outcome}`);
          },
        );
      } finally {
        await handler.close();
      }
    };
    assert.deepEqual(await outcomes(undefined), ['GET 200 delivered']);
    assert.deepEqual(await outcomes('reads-post-body'), ['GET 403 retrying', 'GET 403 failed']);
    assert.deepEqual(await outcomes('amount-in-formula'), ['GET 403 retrying', 'GET 403 failed']);
    assert.deepEqual(await outcomes('refuses-own-query'), ['GET 400 retrying', 'GET 400 failed']);
    assert.deepEqual(await outcomes('answers-204'), ['GET 204 retrying', 'GET 204 failed']);
    // Where a gateway POSTs, the handler that reads the body is the right one, and the $_GET one is not.
    assert.deepEqual(await outcomes('reads-post-body', 'POST'), ['POST 200 delivered']);
    assert.deepEqual(await outcomes(undefined, 'POST'), ['POST 403 retrying', 'POST 403 failed']);
  });

  it('notify_url: called back like server_callback_url, in its place when both are given, and told of a later reversal', async () => {
    const other = new MerchantShop(merchant.merchantControlKey);
    await other.start();
    try {
      // The shop's handler knows no reversal (409): one attempt each keeps the test short.
      await withMock({ callbacks: { delayMs: 0, attempts: 1 } }, async (mock, client) => {
        const clientOrderId = `NT-${++seq}`;
        shop.order(clientOrderId, '10.29');
        const x = await client.send(
          'SALE',
          sampleRequest(endpointByOperation('SALE'), [
            ['client_orderid', clientOrderId],
            ['amount', '10.29'],
            ['notify_url', shop.url],
            ['server_callback_url', other.url],
          ]),
        );
        const orderid = (x.body as Record<string, string>)['paynet-order-id'];
        assert.ok(orderid !== undefined, JSON.stringify(x.body));
        await mock.callbacks.idle(5000);
        assert.deepEqual(
          shop.received
            .filter((r) => r.fields.client_orderid === clientOrderId)
            .map((r) => [r.fields.type, r.fields.status]),
          [['sale', 'approved']],
        );
        assert.equal(other.received.length, 0, 'notify_url takes the place of server_callback_url');
        const back = await client.send(
          'RETURN',
          sampleRequest(endpointByOperation('RETURN'), [
            ['orderid', orderid],
            ['client_orderid', clientOrderId],
            ['amount', '10.29'],
          ]),
        );
        assert.equal(back.status, 200, JSON.stringify(back.body));
        await mock.callbacks.idle(5000);
        const reversal = shop.received.filter((r) => r.fields.client_orderid === clientOrderId).map((r) => r.fields)[1];
        assert.equal(reversal!.type, 'reversal');
        assert.equal(
          reversal!.control,
          sha1sum(`${reversal!.status}${reversal!.orderid}${clientOrderId}${merchant.merchantControlKey}`),
        );
        // A sale with server_callback_url only: its reversal is not reported.
        const plain = await sale(client, other);
        await mock.callbacks.idle(5000);
        await client.send(
          'RETURN',
          sampleRequest(endpointByOperation('RETURN'), [
            ['orderid', plain.orderid],
            ['client_orderid', plain.clientOrderId],
            ['amount', '10.29'],
          ]),
        );
        await mock.callbacks.idle(5000);
        assert.deepEqual(
          other.received.map((r) => r.fields.type),
          ['sale'],
        );
      });
    } finally {
      await other.close();
    }
  });

  it('logs, and still calls, a port a real gateway refuses (only 80, 8080 for http; 443, 8443 for https)', async () => {
    assert.equal(gatewayRefusesPort(new URL('http://shop.test/cb')), undefined);
    assert.equal(gatewayRefusesPort(new URL('http://shop.test:8080/cb')), undefined);
    assert.equal(gatewayRefusesPort(new URL('https://shop.test/cb')), undefined);
    assert.equal(gatewayRefusesPort(new URL('https://shop.test:8443/cb')), undefined);
    assert.match(gatewayRefusesPort(new URL('https://shop.test:8080/cb'))!, /^port 8080 \(/);
    assert.match(gatewayRefusesPort(new URL('http://shop.test:443/cb'))!, /^port 443 \(/);
    const lines: string[] = [];
    await withMock({ log: (l) => lines.push(l) }, async (mock, client) => {
      const { orderid } = await sale(client, shop);
      await mock.callbacks.idle(5000);
      assert.equal(mock.callbacks.deliveries.at(-1)!.outcome, 'delivered');
      const port = new URL(shop.url).port;
      assert.ok(
        lines.some((l) =>
          l.includes(
            `CALLBACK ${shop.target} order ${orderid}: sent anyway, though a real gateway would refuse port ${port} (it calls back only on 80, 8080 for http and 443, 8443 for https), A-31`,
          ),
        ),
        lines.join('\n'),
      );
    });
  });

  it('the retry timeline: 30 attempts, waits doubling from 1 minute to 1024 and then 1024 each, about 14 days', () => {
    const waits = Array.from({ length: CALLBACK_ATTEMPTS - 1 }, (_, i) => callbackWaitMinutes(i + 1));
    assert.equal(CALLBACK_ATTEMPTS, 30);
    assert.deepEqual(waits.slice(0, 12), [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 1024]);
    // By hand: 1 + 2 + … + 1024 = 2047, then 18 more waits of 1024: 20,479 minutes.
    const total = waits.reduce((a, b) => a + b, 0);
    assert.equal(total, 2047 + 18 * 1024);
    assert.ok(total / 1440 > 13.5 && total / 1440 < 14.5, `${total / 1440} days`);
  });
});
