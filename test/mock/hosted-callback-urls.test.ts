// A hosted payment (sale-form, the customer's page submitted, status until final) with every callback URL
// (notify_url, server_callback_url) empty, absent or malformed, through the mock and through inspect's
// embedded mock (issue 43). What the rule merchant-urls says, written out here by hand: an empty or
// absent URL is no URL, so the payment goes through and nobody is called back; a malformed one is refused
// 400 FIELD_INVALID naming its field. Whatever is sent, nothing rejects unhandled and the server serves on.
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { endpointByOperation } from '../../src/catalogue/index.ts';
import { TEST_CARDS } from '../../src/catalogue/test-cards.ts';
import { PayClient } from '../../src/client/client.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';
import { startListener } from '../../src/inspect/listener.ts';
import { startMock } from '../../src/mock/server.ts';
import { sampleRequest } from '../../src/schemas/index.ts';
import type { Pair } from '../../src/signing/form-body.ts';

const merchant = testMerchant();
const credentials = {
  login: merchant.login,
  controlKey: merchant.merchantControlKey,
  privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
};

// An unhandled rejection is what killed `payconform mock` and `payconform inspect` on an empty notify_url.
const rejections: unknown[] = [];
process.on('unhandledRejection', (reason) => rejections.push(reason));
afterEach(() => assert.deepEqual(rejections.splice(0).map(String), [], 'no unhandled rejection'));

const FIELDS = ['notify_url', 'server_callback_url'] as const;
type Urls = Partial<Record<(typeof FIELDS)[number], string>>;

/** No callback URL at all: each field absent, empty or blank, in every combination of the two. */
const NONE: readonly string[] = [];
const NO_URL: readonly Urls[] = [undefined, '', '   '].flatMap((notify) =>
  [undefined, '', '\t'].map((server) => ({
    ...(notify === undefined ? {} : { notify_url: notify }),
    ...(server === undefined ? {} : { server_callback_url: server }),
  })),
);
/** Malformed: nothing a gateway could call. */
const MALFORMED = ['not a url', 'ftp://127.0.0.1/cb', 'http://', '//127.0.0.1/cb', 'javascript:alert(1)'];

let seq = 0;
const text = (body: unknown, name: string): string | undefined => (body as Record<string, string>)[name];

/** A sale-form request with exactly these callback URL fields (the sample's own left out). */
function saleForm(urls: Urls): Pair[] {
  const pairs = sampleRequest(endpointByOperation('SALEFORM'), [['client_orderid', `HOSTED-URL-${++seq}`]]);
  return [...pairs.filter(([n]) => !(FIELDS as readonly string[]).includes(n)), ...Object.entries(urls)];
}

/** The customer's browser: opens the hosted page, fills in its form with the approved card, submits it. */
async function payOnPage(redirect: string): Promise<void> {
  const page = await request(redirect, { headers: { accept: 'text/html' } });
  assert.equal(page.statusCode, 200);
  const html = await page.body.text();
  const action = /<form[^>]*action="([^"]*)"/.exec(html)?.[1];
  assert.ok(action !== undefined, 'the checkout page has a form');
  const card = { credit_card_number: TEST_CARDS.approved, card_printed_name: 'JANE DOE', expire_month: '12' };
  const paid = await request(new URL(action.replace(/&amp;/g, '&'), redirect), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...card, expire_year: '30', cvv2: '123' }).toString(),
  });
  assert.equal(paid.statusCode, 200);
  await paid.body.dump();
}

/** Status until a final status (the mock answers processing once): the order's end. */
async function finalStatus(client: PayClient, answer: unknown): Promise<Record<string, string>> {
  const ids: Pair[] = [
    ['client_orderid', text(answer, 'merchant-order-id') ?? ''],
    ['orderid', text(answer, 'paynet-order-id') ?? ''],
  ];
  for (let poll = 0; poll < 3; poll++) {
    const x = await client.send('STATUS', sampleRequest(endpointByOperation('STATUS'), ids));
    assert.equal(x.status, 200, JSON.stringify(x.body));
    if (text(x.body, 'status') !== 'processing') return x.body as Record<string, string>;
  }
  assert.fail('the hosted payment never reached a final status');
}

/** Drives every case against a gateway at `client`; `calledBack` is how many callbacks it has made or played. */
async function hostedPayments(client: PayClient, calledBack: () => Promise<readonly string[]>): Promise<void> {
  for (const urls of NO_URL) {
    const what = JSON.stringify(urls);
    const x = await client.send('SALEFORM', saleForm(urls));
    assert.equal(x.status, 200, `${what}: ${JSON.stringify(x.body)}`);
    await payOnPage(text(x.body, 'redirect-url')!);
    const end = await finalStatus(client, x.body);
    assert.deepEqual([end.status, end['transaction-type']], ['approved', 'sale'], what);
  }
  for (const name of FIELDS)
    for (const value of MALFORMED) {
      const x = await client.send('SALEFORM', saleForm({ [name]: value }));
      const what = `${name}=${JSON.stringify(value)}`;
      assert.equal(x.status, 400, `${what}: ${JSON.stringify(x.body)}`);
      assert.deepEqual([text(x.body, 'error-code'), text(x.body, 'field')], ['FIELD_INVALID', name], what);
    }
  // No order carried a URL: nobody was called back.
  assert.deepEqual(await calledBack(), NONE);
  // And the gateway serves on: one more hosted payment, with nothing in the URL fields.
  const x = await client.send('SALEFORM', saleForm({ notify_url: '', server_callback_url: '' }));
  assert.equal(x.status, 200, JSON.stringify(x.body));
}

describe('a hosted payment with every callback URL empty, absent or malformed', () => {
  it('the mock: empty or absent is no callback and the payment ends approved; malformed is refused', async () => {
    const mock = await startMock({ callbacks: { attempts: 1, delayMs: 0, timeoutMs: 500 } });
    const client = new PayClient({ baseUrl: mock.url, credentials, endpointId: '1001' });
    try {
      await hostedPayments(client, async () => {
        await mock.callbacks.idle(5000);
        return mock.callbacks.deliveries.map((d) => JSON.stringify(d));
      });
    } finally {
      await client.close();
      await mock.close();
    }
  });

  it('inspect (its embedded mock, --callback-checks): the same, and no callback check is played', async () => {
    const listener = await startListener({ merchants: [merchant], callbackChecks: { delayMs: 0, timeoutMs: 500 } });
    const client = new PayClient({ baseUrl: listener.url, credentials, endpointId: '1001' });
    try {
      await hostedPayments(client, async () => {
        await listener.callbackChecker!.idle(5000);
        return listener.callbackChecker!.records.map((r) => r.target);
      });
      const judged = listener.records.filter((r) => r.verdict.checks.some((c) => c.id === 'merchant-urls'));
      assert.ok(judged.length >= NO_URL.length + FIELDS.length * MALFORMED.length, 'inspect judged each request');
    } finally {
      await client.close();
      await listener.close();
    }
  });
});
