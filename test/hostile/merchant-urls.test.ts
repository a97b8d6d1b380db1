// A hostile (or careless) merchant's URL fields: notify_url, server_callback_url and redirect_url empty,
// blank, absent, of another scheme or no URL at all, on a SALE and on a hosted payment (sale-form) paid in
// the browser, through the mock, inspect (embedded mock, --callback-checks, --upstream) and the two commands.
// What the rule merchant-urls says (A-33, written out here by hand): blank or absent is no callback and the
// request passes (the vendor's shop plugin sends an empty notify_url); anything but an absolute http(s) URL
// is refused 400 FIELD_INVALID naming the field; a mandatory redirect_url is refused empty or missing.
// Whatever is sent, nothing rejects unhandled, the server answers the next request, inspect writes its report.
import { after, afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { request } from 'undici';
import { endpointByOperation } from '../../src/catalogue/index.ts';
import { TEST_CARDS } from '../../src/catalogue/test-cards.ts';
import { PayClient } from '../../src/client/client.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';
import { sendCallback } from '../../src/gateway/callback-delivery.ts';
import { CallbackChecker } from '../../src/inspect/callback-checks.ts';
import { startListener } from '../../src/inspect/listener.ts';
import { CallbackSender } from '../../src/mock/callbacks.ts';
import { startMock, type RunningMock } from '../../src/mock/server.ts';
import { sampleRequest } from '../../src/schemas/index.ts';
import type { Pair } from '../../src/signing/form-body.ts';
import { unicodeString } from '../arbitraries.ts';
import { fcParams } from '../seed.ts';
import { startListening } from '../support/listening.ts';
import { MerchantShop } from '../support/merchant-shop.ts';

const merchant = testMerchant();
const credentials = {
  login: merchant.login,
  controlKey: merchant.merchantControlKey,
  privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
};
const dir = mkdtempSync(join(tmpdir(), 'payconform-merchant-urls-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// An unhandled rejection is what killed `payconform mock` and `payconform inspect`: none may happen here.
const rejections: unknown[] = [];
process.on('unhandledRejection', (reason) => rejections.push(reason));
afterEach(() => assert.deepEqual(rejections.splice(0).map(String), [], 'no unhandled rejection'));

const ABSENT = undefined;
/** Blank values: not sent. */
const BLANK = ['', '  ', '\t'];
/** Values no gateway can call: refused. */
const UNUSABLE = ['not a url', 'ftp://127.0.0.1/cb', 'http://', 'javascript:alert(1)', '//127.0.0.1/cb'];
const CALLBACK_FIELDS = ['notify_url', 'server_callback_url'] as const;
const CALLBACK = { attempts: 2, timeScale: 60_000, delayMs: 0, timeoutMs: 500 };

let seq = 0;
const field = (body: unknown, name: string): string | undefined => (body as Record<string, string>)[name];

/** The request of `operation` with `name` set to `value` (left out when undefined). */
function requestWith(operation: string, name: string, value: string | undefined, ...more: Pair[]): Pair[] {
  const clientOrderId = `URL-${++seq}`;
  const pairs = sampleRequest(endpointByOperation(operation), [['client_orderid', clientOrderId], ...more]);
  const kept = pairs.filter(([n]) => n !== name);
  return value === undefined ? kept : [...kept, [name, value]];
}

/** What the rule book answers for a URL field's value (the table above). */
function expected(name: string, value: string | undefined): { status: number; code?: string; field?: string } {
  const blank = value === undefined || value.trim() === '';
  if (name === 'redirect_url' && blank)
    return { status: 400, code: value === undefined ? 'FIELD_MISSING' : 'FIELD_INVALID', field: name };
  return blank ? { status: 200 } : { status: 400, code: 'FIELD_INVALID', field: name };
}

/** The customer's browser pays the hosted page: opens it, fills its form with an approved card, submits it. */
async function payCheckout(redirect: string): Promise<void> {
  const page = await request(redirect, { headers: { accept: 'text/html' } });
  assert.equal(page.statusCode, 200);
  const html = await page.body.text();
  const action = /<form[^>]*action="([^"]*)"/.exec(html)?.[1];
  assert.ok(action !== undefined, 'the checkout page has a form');
  const typed: Record<string, string> = {
    credit_card_number: TEST_CARDS.approved,
    card_printed_name: 'JANE DOE',
    expire_month: '12',
    expire_year: '30',
    cvv2: '123',
  };
  const names = [...html.matchAll(/<input[^>]*name="([^"]*)"[^>]*>/g)].map((m) => m[1]!);
  const values = [...html.matchAll(/<input[^>]*>/g)].map((m) => /value="([^"]*)"/.exec(m[0])?.[1] ?? '');
  const body = new URLSearchParams(names.map((n, i): [string, string] => [n, typed[n] ?? values[i] ?? '']));
  const paid = await request(new URL(action.replace(/&amp;/g, '&'), redirect), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: body.toString(),
  });
  assert.equal(paid.statusCode, 200);
  await paid.body.dump();
}

/** Sends one request; an accepted hosted payment is paid, so its order is final and its callback due. */
async function sendAndFinish(client: PayClient, operation: string, pairs: Pair[]) {
  const x = await client.send(operation, pairs);
  const redirect = field(x.body, 'redirect-url');
  if (x.status === 200 && redirect !== undefined) await payCheckout(redirect);
  return x;
}

/** The server still answers: a status request for a new approved sale. */
async function stillServing(client: PayClient): Promise<void> {
  const sale = await client.send('SALE', requestWith('SALE', 'notify_url', ABSENT));
  assert.equal(sale.status, 200, JSON.stringify(sale.body));
  const status = await client.send(
    'STATUS',
    sampleRequest(endpointByOperation('STATUS'), [
      ['client_orderid', field(sale.body, 'merchant-order-id') ?? ''],
      ['orderid', field(sale.body, 'paynet-order-id') ?? ''],
    ]),
  );
  assert.equal(status.status, 200, JSON.stringify(status.body));
}

function assertVerdict(x: { status: number; body: unknown }, want: ReturnType<typeof expected>, what: string): void {
  assert.equal(x.status, want.status, `${what}: ${JSON.stringify(x.body)}`);
  if (want.code === undefined) return;
  assert.deepEqual([field(x.body, 'error-code'), field(x.body, 'field')], [want.code, want.field], what);
}

async function withMock(body: (mock: RunningMock, client: PayClient) => Promise<void>): Promise<void> {
  const mock = await startMock({ callbacks: CALLBACK });
  const client = new PayClient({ baseUrl: mock.url, credentials, endpointId: '1001' });
  try {
    await body(mock, client);
  } finally {
    await client.close();
    await mock.close();
  }
}

describe('a merchant URL field the mock cannot call back', () => {
  for (const operation of ['SALE', 'SALEFORM'])
    it(`${operation}: every callback URL absent, blank or unusable is judged by merchant-urls, and the mock serves on`, async () => {
      await withMock(async (mock, client) => {
        for (const name of [...CALLBACK_FIELDS, 'redirect_url'])
          for (const value of [ABSENT, ...BLANK, ...UNUSABLE]) {
            const x = await sendAndFinish(client, operation, requestWith(operation, name, value));
            assertVerdict(x, expected(name, value), `${operation} ${name}=${JSON.stringify(value)}`);
            await mock.callbacks.idle(5000);
          }
        // Nothing was called back: no order carried a URL.
        assert.deepEqual(mock.callbacks.deliveries, []);
        await stillServing(client);
      });
    });

  it("the vendor plugin's request: an empty notify_url leaves the callback to server_callback_url", async () => {
    const shop = new MerchantShop(merchant.merchantControlKey);
    await shop.start();
    try {
      await withMock(async (mock, client) => {
        for (const operation of ['SALE', 'SALEFORM']) {
          const pairs = requestWith(operation, 'notify_url', '', ['server_callback_url', shop.url]);
          const id = pairs.find(([n]) => n === 'client_orderid')![1];
          const order = shop.order(id, '10.00');
          const x = await sendAndFinish(client, operation, pairs);
          assert.equal(x.status, 200, JSON.stringify(x.body));
          order.orderid = field(x.body, 'paynet-order-id');
          await mock.callbacks.idle(5000);
          const got = shop.received.filter((r) => r.fields.client_orderid === id);
          assert.equal(got.length, 1, `${operation}: one callback to server_callback_url`);
          assert.equal(got[0]!.answered, 200);
        }
        await stillServing(client);
      });
    } finally {
      await shop.close();
    }
  });

  it('any text as notify_url: answered as the rule says, never a crash, and the mock serves on (fast-check)', async () => {
    const text = fc.oneof(
      fc.string({ maxLength: 30 }),
      unicodeString({ maxLength: 30 }),
      fc
        .tuple(fc.constantFrom('http://', 'https://', 'ftp://', 'http:', ' http://127.0.0.1'), fc.string())
        .map(([a, b]) => a + b),
    );
    await withMock(async (mock, client) => {
      await fc.assert(
        fc.asyncProperty(text, async (value) => {
          const x = await client.send('SALE', requestWith('SALE', 'notify_url', value));
          // The grammar of A-33, restated: blank is none; else written http(s):// and read by the URL parser.
          const trimmed = value.trim();
          const usable = trimmed === '' || (/^https?:\/\//i.test(trimmed) && URL.canParse(trimmed));
          assertVerdict(x, usable ? { status: 200 } : expected('notify_url', value), JSON.stringify(value));
        }),
        fcParams(60),
      );
      await mock.callbacks.idle(10_000);
      await stillServing(client);
    });
  });
});

describe('inspect with a merchant URL field it cannot call back', () => {
  it('judges each request by merchant-urls, answers the next, and plays --callback-checks only where a URL is', async () => {
    const shop = new MerchantShop(merchant.merchantControlKey);
    await shop.start();
    const listener = await startListener({ merchants: [merchant], callbackChecks: { delayMs: 0, timeoutMs: 1000 } });
    const client = new PayClient({ baseUrl: listener.url, credentials, endpointId: '1001' });
    try {
      for (const operation of ['SALE', 'SALEFORM'])
        for (const name of CALLBACK_FIELDS)
          for (const value of [ABSENT, ...BLANK, ...UNUSABLE]) {
            const x = await sendAndFinish(client, operation, requestWith(operation, name, value));
            assertVerdict(x, expected(name, value), `${operation} ${name}=${JSON.stringify(value)}`);
            const record = listener.records.at(-1)!;
            const urls = record.verdict.checks.find((c) => c.id === 'merchant-urls');
            assert.equal(urls?.outcome, expected(name, value).status === 200 ? 'pass' : 'fail');
          }
      const pairs = requestWith('SALE', 'notify_url', '', ['server_callback_url', shop.url]);
      shop.order(pairs.find(([n]) => n === 'client_orderid')![1], '10.00').orderid = field(
        (await client.send('SALE', pairs)).body,
        'paynet-order-id',
      );
      await stillServing(client);
      assert.equal(await listener.callbackChecker!.idle(10_000), 0);
      // One order carried a callback URL (the plugin's), and its callbacks went to the shop.
      assert.deepEqual(
        listener.callbackChecker!.records.map((r) => r.target),
        [new URL(shop.url).origin + new URL(shop.url).pathname],
      );
    } finally {
      await client.close();
      await listener.close();
      await shop.close();
    }
  });

  it('behind --upstream, a sandbox that takes an unusable notify_url: the callbacks are recorded as not played', async () => {
    // The sandbox: any order is taken, and approved on the first status request.
    const sandbox = createServer((req, res) => {
      req.resume();
      const status = req.url?.includes('/status/') ? 'approved' : 'processing';
      const type = status === 'approved' ? 'status-response' : 'async-response';
      res.writeHead(200, { 'content-type': 'application/vnd.pay+json' });
      res.end(
        JSON.stringify({ type, status, 'paynet-order-id': '777', 'merchant-order-id': 'U', 'serial-number': '1' }),
      );
    });
    await new Promise<void>((resolve) => sandbox.listen(0, '127.0.0.1', resolve));
    const upstream = `http://127.0.0.1:${(sandbox.address() as { port: number }).port}`;
    const listener = await startListener({ merchants: [merchant], upstream, callbackChecks: { delayMs: 0 } });
    const client = new PayClient({ baseUrl: listener.url, credentials, endpointId: '1001' });
    try {
      const pairs = requestWith('SALE', 'notify_url', 'not a url?token=SECRET-1');
      assert.equal((await client.send('SALE', pairs)).status, 200);
      const status = sampleRequest(endpointByOperation('STATUS'), [
        ['client_orderid', pairs.find(([n]) => n === 'client_orderid')![1]],
        ['orderid', '777'],
      ]);
      assert.equal((await client.send('STATUS', status)).status, 200);
      assert.equal(await listener.callbackChecker!.idle(5000), 0);
      const [record] = listener.callbackChecker!.records;
      assert.ok(record !== undefined, 'the order is recorded');
      assert.equal(record.target, '(no http(s) URL)');
      assert.ok(record.checks.every((c) => c.outcome === 'fail' && c.message?.startsWith('not sent:')));
      assert.ok(!JSON.stringify(record).includes('SECRET-1'));
      assert.equal(listener.records[0]!.verdict.checks.find((c) => c.id === 'merchant-urls')?.outcome, 'fail');
      assert.equal((await client.send('STATUS', status)).status, 200, 'inspect answers the next request');
    } finally {
      await client.close();
      await listener.close();
      sandbox.close();
    }
  });
});

describe('the commands', () => {
  it('payconform mock serves on after an empty and an unusable notify_url on a final order', async () => {
    const mock = await startListening(['mock', '--port', '0', '--quiet']);
    const client = new PayClient({ baseUrl: mock.url, credentials, endpointId: '1001' });
    try {
      for (const value of ['', 'not a url', 'ftp://127.0.0.1/cb'])
        assertVerdict(
          await client.send('SALE', requestWith('SALE', 'notify_url', value)),
          expected('notify_url', value),
          JSON.stringify(value),
        );
      await new Promise((r) => setTimeout(r, 500)); // the callback's moment: the order was final at once
      await stillServing(client);
      assert.equal(mock.child.exitCode, null, mock.out());
    } finally {
      await client.close();
      mock.child.kill('SIGTERM');
      await mock.exit;
    }
  });

  it('payconform inspect serves on and writes its report: the blank URL passes, the unusable one fails', async () => {
    const report = join(dir, 'inspect');
    const inspect = await startListening(['inspect', '--port', '0', '--report-dir', report, '--until-requests', '3']);
    const client = new PayClient({ baseUrl: inspect.url, credentials, endpointId: '1001' });
    try {
      for (const [operation, value] of [
        ['SALEFORM', ''],
        ['SALE', 'not a url'],
        ['SALE', ''],
      ] as const) {
        const x = await sendAndFinish(client, operation, requestWith(operation, 'notify_url', value));
        assertVerdict(x, expected('notify_url', value), `${operation} ${JSON.stringify(value)}`);
        await new Promise((r) => setTimeout(r, 300));
      }
    } finally {
      await client.close();
    }
    assert.equal(await inspect.exit, 1, inspect.out());
    assert.ok(existsSync(join(report, 'report.html')));
    const json = JSON.parse(readFileSync(join(report, 'report.json'), 'utf8')) as {
      requests: { verdict: { operation: string; checks: { id: string; outcome: string; message?: string }[] } }[];
    };
    const verdicts = json.requests.map((r) => [
      r.verdict.operation,
      r.verdict.checks.find((c) => c.id === 'merchant-urls')?.outcome,
    ]);
    assert.deepEqual(verdicts, [
      ['SALEFORM', 'pass'],
      ['SALE', 'fail'],
      ['SALE', 'pass'],
    ]);
    assert.match(
      json.requests[1]!.verdict.checks.find((c) => c.id === 'merchant-urls')!.message!,
      /^notify_url: must be an absolute http:\/\/ or https:\/\/ URL/,
    );
  });
});

describe('callback delivery, whatever URL reaches it (defence in depth)', () => {
  const order = (callbackUrl: string) => ({
    facts: { orderid: '1', clientOrderId: 'C-1', amount: '1.00', status: 'approved', type: 'sale' },
    callbackUrl,
    merchant,
  });
  const urls = ['', 'not a url?token=SECRET-2', 'ftp://127.0.0.1/cb', 'http://', 'mailto:x@y'];

  it('sendCallback resolves with the reason when node:http cannot send at all', async () => {
    const outcome = await sendCallback(new URL('ftp://127.0.0.1/cb'), [], { method: 'GET', timeoutMs: 500 });
    assert.deepEqual(outcome, { error: 'ERR_INVALID_PROTOCOL' });
  });

  it("the mock's sender records a callback it cannot send, and never throws", async () => {
    const lines: string[] = [];
    const sender = new CallbackSender({ delayMs: 0, attempts: 1 }, (line) => lines.push(line));
    for (const url of urls) sender.final(order(url));
    await sender.idle(5000);
    assert.deepEqual(
      sender.deliveries.map((d) => [d.target, d.outcome]),
      urls.map(() => ['(no http(s) URL)', 'failed']),
    );
    assert.ok(!lines.join('\n').includes('SECRET-2'));
  });

  it("inspect's callback checks record an order whose URL is none as not played", async () => {
    const checker = new CallbackChecker({ delayMs: 0, timeoutMs: 500 });
    urls.forEach((url, i) => checker.check({ ...order(url), facts: { ...order(url).facts, orderid: String(i) } }));
    assert.equal(await checker.idle(5000), 0);
    assert.deepEqual(
      checker.records.map((r) => [r.target, r.passed]),
      urls.map(() => ['(no http(s) URL)', false]),
    );
  });
});
