// A hosted-form sale through `payconform inspect`, paid by a "browser" (this test): the customer's
// requests to the embedded gateway's pages are served and shown apart, never judged, so the run
// passes; an integration that sends an API request by GET is still failed by method-post.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { THREE_DS_CARD } from '../../src/catalogue/index.ts';
import { TEST_CARDS } from '../../src/catalogue/test-cards.ts';
import { PayClient } from '../../src/client/client.ts';
import { prepareRequest } from '../../src/client/prepare.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';
import { startListening, type Listening } from '../support/listening.ts';

const merchant = testMerchant();
const credentials = {
  login: merchant.login,
  controlKey: merchant.merchantControlKey,
  privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
};
const dir = mkdtempSync(join(tmpdir(), 'payconform-hosted-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const startInspect = (args: string[]): Promise<Listening> => startListening(['inspect', '--port', '0', ...args]);

/** The merchant's shop: where the customer's browser returns (redirect_url); keeps what it was sent. */
async function startShop(): Promise<{ url: string; returns: URLSearchParams[]; server: Server }> {
  const returns: URLSearchParams[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      returns.push(new URLSearchParams(body));
      res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Thank you</p>');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/return`, returns, server };
}

/** The first form of a page: where it goes and its fields (hidden values and empty inputs alike). */
function formOf(html: string, pageUrl: string): { action: string; method: string; fields: Map<string, string> } {
  const form = /<form([^>]*)>([\s\S]*?)<\/form>/.exec(html);
  assert.ok(form, `a form on ${pageUrl}`);
  const attr = (tag: string, name: string): string | undefined => new RegExp(`${name}="([^"]*)"`).exec(tag)?.[1];
  const unescape = (s: string): string =>
    s.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n))).replace(/&amp;/g, '&');
  const fields = new Map<string, string>();
  for (const [input] of form[2]!.matchAll(/<input[^>]*>/g))
    fields.set(attr(input, 'name')!, unescape(attr(input, 'value') ?? ''));
  return {
    action: new URL(unescape(attr(form[1]!, 'action')!), pageUrl).href,
    method: attr(form[1]!, 'method')!.toUpperCase(),
    fields,
  };
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const field = (body: unknown, name: string): string => (body as Record<string, string>)[name]!;

describe('inspect serves the hosted pages to the customer and judges only the integration', () => {
  it("a hosted-form sale paid in the browser ends with 0 failures and exit 0; the customer's steps are context", async () => {
    const shop = await startShop();
    const report = join(dir, 'hosted');
    const inspect = await startInspect(['--report-dir', report, '--until-requests', '3', '--duration', '30']);
    const client = new PayClient({ baseUrl: `${inspect.url}/paynet`, credentials, endpointId: '1001' });
    try {
      const clientOrderId = `HOSTED-${process.pid}`;
      const form = await client.send(
        'SALEFORM',
        await prepareRequest(client, 'SALEFORM', [
          ['client_orderid', clientOrderId],
          ['redirect_url', shop.url],
        ]),
      );
      assert.equal(form.status, 200, JSON.stringify(form.body));
      const orderId = field(form.body, 'paynet-order-id');
      const redirect = field(form.body, 'redirect-url');
      assert.equal(redirect, `${inspect.url}/paynet/checkout/${orderId}`, "the checkout keeps the merchant's prefix");

      // The browser: open the page, fill its form as it asks, submit it, follow the page back to the shop.
      const page = await request(redirect, { headers: { accept: 'text/html' } });
      assert.equal(page.statusCode, 200);
      const checkout = formOf(await page.body.text(), redirect);
      assert.equal(checkout.method, 'POST');
      const typed: Record<string, string> = {
        credit_card_number: TEST_CARDS.approved,
        card_printed_name: 'JANE DOE',
        expire_month: '12',
        expire_year: '30',
        cvv2: '123',
      };
      const filled = new URLSearchParams(
        [...checkout.fields.keys()].map((name): [string, string] => [name, typed[name] ?? '']),
      );
      const paid = await request(checkout.action, { method: 'POST', headers: FORM, body: filled.toString() });
      assert.equal(paid.statusCode, 200);
      const back = formOf(await paid.body.text(), checkout.action);
      assert.deepEqual([back.method, back.action], ['POST', shop.url]);
      await request(back.action, {
        method: 'POST',
        headers: FORM,
        body: new URLSearchParams([...back.fields]).toString(),
      }).then((r) => r.body.dump());
      const returned = shop.returns[0];
      assert.deepEqual(
        [returned!.get('status'), returned!.get('orderid'), returned!.get('client_orderid')],
        ['approved', orderId, clientOrderId],
      );
      // SHA-1(status + orderid + client_orderid + merchant_control_key), computed here by hand.
      assert.equal(
        returned!.get('control'),
        createHash('sha1').update(`approved${orderId}${clientOrderId}${merchant.merchantControlKey}`).digest('hex'),
      );

      const status = () =>
        client.send('STATUS', [
          ['login', merchant.login],
          ['client_orderid', clientOrderId],
          ['orderid', orderId],
        ]);
      await status();
      assert.equal(field((await status()).body, 'status'), 'approved');
    } finally {
      await client.close();
      shop.server.close();
    }
    assert.equal(await inspect.exit, 0, inspect.out());
    const out = inspect.out();
    const id = /customer: GET checkout (\d+) → 200/.exec(out)?.[1];
    assert.ok(id, out);
    assert.match(out, new RegExp(`customer: POST checkout ${id} → 200 \\(paid: approved; back to redirect_url\\)`));
    assert.match(out, /3 passed, 0 failed/);
    assert.doesNotMatch(out, /FAIL/);

    const json = JSON.parse(readFileSync(join(report, 'report.json'), 'utf8'));
    assert.equal(json.summary.requests, 3, "only the integration's requests are counted");
    assert.deepEqual(
      json.requests.map((r: { verdict: { operation: string } }) => r.verdict.operation),
      ['SALEFORM', 'STATUS', 'STATUS'],
    );
    assert.deepEqual(
      json.customerSteps.map(
        (s: { method: string; page: string; orderId: string; path: string; status: number; paid?: object }) => [
          s.method,
          s.page,
          s.orderId,
          s.path,
          s.status,
          s.paid,
        ],
      ),
      [
        ['GET', 'checkout', id, `/paynet/checkout/${id}`, 200, undefined],
        ['POST', 'checkout', id, `/paynet/checkout/${id}`, 200, { orderStatus: 'approved', toRedirectUrl: true }],
      ],
    );
    const junit = readFileSync(join(report, 'junit.xml'), 'utf8');
    assert.match(junit, /failures="0"/);
    assert.doesNotMatch(junit, /<testcase[^>]*checkout/, 'no test case of a customer step');
    assert.match(junit, /<system-out>customer: GET checkout/);
    const html = readFileSync(join(report, 'report.html'), 'utf8');
    assert.match(
      html,
      /<section id="customer-steps">[\s\S]*customer: POST checkout \d+ → 200 \(paid: approved; back to redirect_url\)/,
    );
    for (const file of ['report.json', 'junit.xml', 'report.html']) {
      const text = readFileSync(join(report, file), 'utf8');
      for (const secret of [TEST_CARDS.approved, 'JANE DOE', 'cvv2=123', merchant.merchantControlKey])
        assert.ok(!text.includes(secret), `${file} holds ${secret}`);
    }
  });

  it('the 3-D Secure page is a customer step; an API request sent by GET, even to a -form path, still fails method-post', async () => {
    const report = join(dir, 'get');
    const inspect = await startInspect(['--report-dir', report, '--until-requests', '3', '--duration', '30']);
    const client = new PayClient({ baseUrl: `${inspect.url}/paynet`, credentials, endpointId: '1001' });
    try {
      const sale = await client.send(
        'SALE',
        await prepareRequest(client, 'SALE', [['credit_card_number', THREE_DS_CARD]]),
      );
      const orderId = field(sale.body, 'paynet-order-id');
      const status = await client.send(
        'STATUS',
        await prepareRequest(client, 'STATUS', [
          ['orderid', orderId],
          ['client_orderid', field(sale.body, 'merchant-order-id')],
        ]),
      );
      const tds = formOf(field(status.body, 'html'), `${inspect.url}/paynet/`);
      assert.equal(tds.action, `${inspect.url}/paynet/3ds/${orderId}`);
      assert.equal((await request(tds.action, { method: 'POST', headers: FORM, body: '' })).statusCode, 200);
      const wrong = await request(`${inspect.url}/paynet/api/v2/sale-form/1001`, {
        headers: { accept: 'application/vnd.pay+json' },
      });
      assert.equal(wrong.statusCode, 405);
      await wrong.body.dump();
    } finally {
      await client.close();
    }
    assert.equal(await inspect.exit, 1, inspect.out());
    const out = inspect.out();
    assert.match(out, /customer: POST 3ds \d+ → 200/);
    assert.match(out, /#3 SALEFORM → 405: FAIL method-post: method: only POST is allowed \(got GET\)\n/);
    assert.match(out, /2 passed, 1 failed/);
    const json = JSON.parse(readFileSync(join(report, 'report.json'), 'utf8'));
    assert.deepEqual(
      json.customerSteps.map((s: { method: string; page: string }) => `${s.method} ${s.page}`),
      ['POST 3ds'],
    );
  });
});
