// The gateway's pages for the customer's browser (hosted checkout, 3-D Secure): which paths they are,
// and that each sits under the prefix of the request that made its order, on a mock with a fixed
// prefix and on one that serves any prefix (as inspect's does).
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { endpointByOperation, THREE_DS_CARD } from '../../src/catalogue/index.ts';
import { PayClient } from '../../src/client/client.ts';
import { customerPageOf } from '../../src/gateway/customer-pages.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';
import { startMock, type RunningMock } from '../../src/mock/server.ts';
import { sampleRequest } from '../../src/schemas/index.ts';
import type { Pair } from '../../src/signing/form-body.ts';

const merchant = testMerchant();
const credentials = {
  login: merchant.login,
  controlKey: merchant.merchantControlKey,
  privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
};
const open: Array<{ close(): Promise<void> }> = [];
after(async () => {
  for (const o of open.reverse()) await o.close();
});

async function gateway(options: Parameters<typeof startMock>[0]): Promise<RunningMock> {
  const mock = await startMock(options);
  open.push(mock);
  return mock;
}
function clientAt(baseUrl: string): PayClient {
  const client = new PayClient({ baseUrl, credentials, endpointId: '1001' });
  open.push(client);
  return client;
}
const sample = (operation: string, ...overrides: Pair[]) => sampleRequest(endpointByOperation(operation), overrides);
const field = (body: unknown, name: string): string => (body as Record<string, string>)[name]!;

describe('customer pages of the mock', () => {
  it('recognises exactly the checkout and 3-D Secure page paths, with any prefix, and never an API path', () => {
    assert.deepEqual(customerPageOf('/paynet/checkout/100000001'), {
      kind: 'checkout',
      prefix: '/paynet',
      orderId: '100000001',
    });
    assert.deepEqual(customerPageOf('/checkout/7'), { kind: 'checkout', prefix: '', orderId: '7' });
    assert.deepEqual(customerPageOf('/a/b/3ds/42'), { kind: '3ds', prefix: '/a/b', orderId: '42' });
    for (const path of [
      '/paynet/api/v2/sale-form/1001',
      '/api/v2/checkout/1',
      '/paynet/api/3ds/v1/upload-cres-result/1001',
      '/x/api/3ds/5',
      '/paynet/checkout/abc',
      '/paynet/checkout/1/more',
      '/paynet/checkout/',
      '/paynet/checkout',
      '/checkouts/1',
    ]) {
      assert.equal(customerPageOf(path), undefined, path);
    }
  });

  for (const [what, options] of [
    ['a mock serving /paynet', { prefix: '/paynet' }],
    ["a mock serving any prefix (inspect's)", { anyPrefix: true }],
  ] as const) {
    it(`${what}: a sale-form to /paynet/api/v2/sale-form/1001 is redirected to /paynet/checkout/{id}, which serves the page`, async () => {
      const mock = await gateway(options);
      const form = await clientAt(`${mock.url}/paynet`).send('SALEFORM', sample('SALEFORM'));
      assert.equal(form.status, 200, JSON.stringify(form.body));
      const id = field(form.body, 'paynet-order-id');
      assert.equal(field(form.body, 'redirect-url'), `${mock.url}/paynet/checkout/${id}`);
      const page = await request(field(form.body, 'redirect-url'));
      const html = await page.body.text();
      assert.equal(page.statusCode, 200);
      assert.match(
        html,
        new RegExp(`<form method="post" action="/paynet/checkout/${id}">`),
        'the page posts back under the same prefix',
      );
    });
  }

  it('a mock with a fixed prefix serves no page outside it: that path is judged as an API request', async () => {
    const mock = await gateway({ prefix: '/paynet' });
    const form = await clientAt(`${mock.url}/paynet`).send('SALEFORM', sample('SALEFORM'));
    const outside = await request(`${mock.url}/checkout/${field(form.body, 'paynet-order-id')}`);
    assert.equal(outside.statusCode, 405);
    assert.match(await outside.body.text(), /METHOD_NOT_ALLOWED/);
  });

  it("3-D Secure: the status answer's html form opens the mock's page under the prefix; the page moves nothing, the upload does", async () => {
    const mock = await gateway({ anyPrefix: true });
    const client = clientAt(`${mock.url}/shop/pay`);
    const sale = await client.send('SALE', sample('SALE', ['credit_card_number', THREE_DS_CARD]));
    const id = field(sale.body, 'paynet-order-id');
    const status = () => client.send('STATUS', sample('STATUS', ['orderid', id]));
    const answer = await status();
    const action = /action="([^"]+)"/.exec(field(answer.body, 'html'))?.[1];
    assert.equal(action, `${mock.url}/shop/pay/3ds/${id}`);
    const shown = await request(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    assert.equal(shown.statusCode, 200);
    assert.match(String(shown.headers['content-type']), /^text\/html/);
    assert.match(await shown.body.text(), /upload-cres-result/);
    assert.equal(field((await status()).body, 'status'), 'processing', 'the page alone does not authenticate');
    const upload = await client.send(
      'TDS_UPLOAD_CRES_RESULT',
      sample('TDS_UPLOAD_CRES_RESULT', ['orderid', id], ['client-order-id', field(sale.body, 'merchant-order-id')]),
    );
    assert.equal(upload.status, 200, JSON.stringify(upload.body));
    assert.equal((await request(action)).statusCode, 409, 'no step is pending any more');
    assert.equal((await request(`${mock.url}/shop/pay/3ds/1`)).statusCode, 404);
    assert.equal((await request(action, { method: 'PUT' })).statusCode, 405);
  });
});
