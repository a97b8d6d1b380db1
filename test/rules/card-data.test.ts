// Card data where the page asks for none (A-37), and the vendor plugins' sale-form (A-36): a sale-form whose card
// fields are sent empty passes the mock and inspect; one that carries a card number or CVV is served (the family
// ignores fields a page does not list) but inspect reports it, by field, never by value.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { endpointByOperation } from '../../src/catalogue/index.ts';
import { buildRequest, PayClient, type SentRequest } from '../../src/client/client.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';
import { Inspector } from '../../src/inspect/inspector.ts';
import { startMock, type RunningMock } from '../../src/mock/server.ts';
import { cardDataWhereAsked } from '../../src/rules/card-data.ts';
import type { Pair } from '../../src/signing/form-body.ts';

const merchant = testMerchant();
const credentials = {
  login: merchant.login,
  controlKey: merchant.merchantControlKey,
  privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
};
const PAN = '4111111111111111';
let serial = 0;

// What the vendor's WooCommerce plugin posts to sale-form, written out by hand: every card field empty.
const pluginSaleForm = (): Pair[] => [
  ['client_orderid', `WC-${++serial}`],
  ['order_desc', 'Order from the shop'],
  ['amount', '25.50'],
  ['currency', 'EUR'],
  ['address1', 'Main Street 1'],
  ['city', 'Berlin'],
  ['zip_code', '10115'],
  ['country', 'DE'],
  ['phone', '+49 30 1234567'],
  ['ipaddress', '203.0.113.7'],
  ['email', 'payer@example.com'],
  ['redirect_url', 'https://shop.example/return'],
  ['credit_card_number', ''],
  ['card_printed_name', ''],
  ['expire_month', ''],
  ['expire_year', ''],
  ['cvv2', ''],
];
const withField = (pairs: Pair[], name: string, value: string): Pair[] =>
  pairs.map(([n, v]) => [n, n === name ? value : v]);

const signed = (operation: string, pairs: Pair[], base = 'http://127.0.0.1:8080/paynet'): SentRequest =>
  buildRequest(endpointByOperation(operation), { baseUrl: base, credentials, endpointId: '1001' }, pairs);

const failedChecks = (r: SentRequest) =>
  new Inspector({ merchants: [merchant] })
    .judge({ method: r.method, url: r.url, headers: r.headers, body: Buffer.from(r.body) })
    .checks.filter((c) => c.outcome === 'fail');

describe('inspect: card data where the page asks for none', () => {
  it("passes the plugin's sale-form with its card fields empty", () => {
    assert.deepEqual(failedChecks(signed('SALEFORM', pluginSaleForm())), []);
  });

  it('reports a card number or a CVV on a sale-form, naming the field and never the value', () => {
    for (const [field, value] of [
      ['credit_card_number', PAN],
      ['cvv2', '123'],
    ] as const) {
      const failed = failedChecks(signed('SALEFORM', withField(pluginSaleForm(), field, value)));
      assert.deepEqual(
        failed.map((c) => c.id),
        ['card-data-where-asked'],
        field,
      );
      const text = JSON.stringify(failed);
      assert.ok(text.includes(field) && !text.includes(value === PAN ? PAN : 'cvv2=123'), text);
    }
  });

  it('reports it on an order move too (return), and leaves a sale, whose page asks for the card, alone', () => {
    const ret = signed('RETURN', [
      ['login', merchant.login],
      ['client_orderid', 'R-1'],
      ['orderid', '100000001'],
      ['credit_card_number', PAN],
    ]);
    assert.deepEqual(
      failedChecks(ret).map((c) => c.id),
      ['card-data-where-asked'],
    );
    assert.equal(cardDataWhereAsked.refusals.length, 0, 'reported, not refused: the family ignores the field');
  });
});

describe('the mock: the plugin sale-form', () => {
  let mock: RunningMock;
  let client: PayClient;
  before(async () => {
    mock = await startMock({ prefix: '/paynet' });
    client = new PayClient({ baseUrl: `${mock.url}/paynet`, credentials, endpointId: '1001' });
  });
  after(async () => {
    await client.close();
    await mock.close();
  });

  it('starts a hosted payment for it, card fields empty or not (a gateway ignores them)', async () => {
    for (const pairs of [pluginSaleForm(), withField(pluginSaleForm(), 'cvv2', '123')]) {
      const x = await client.send('SALEFORM', pairs);
      assert.equal(x.status, 200, JSON.stringify(x.body));
      assert.equal((x.body as Record<string, string>).type, 'async-form-response');
    }
  });
});
