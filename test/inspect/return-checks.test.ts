// inspect --return-checks against a shop's return page written here (test/support/merchant-shop.ts: it verifies
// control with node:crypto over the Final Redirect page's concatenation, looks the order up, and answers 303 to its
// result page): the correct page passes every check; a page that books any "approved" return unchecked fails the
// forged control; each other mistake fails its own check. Orders become final by a status answer and by the payer's
// paid checkout on the embedded mock's hosted page; the command line writes the checks into every report file.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { endpointByOperation, OP } from '../../src/catalogue/index.ts';
import { TEST_CARDS } from '../../src/catalogue/test-cards.ts';
import { PayClient } from '../../src/client/client.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';
import { startListener, type RunningListener } from '../../src/inspect/listener.ts';
import type { ReturnRecord } from '../../src/inspect/return-checks.ts';
import { sampleRequest } from '../../src/schemas/index.ts';
import type { Pair } from '../../src/signing/form-body.ts';
import { MerchantShop, resultPage, type ReturnMistake } from '../support/merchant-shop.ts';

const merchant = testMerchant();
const KEY = merchant.merchantControlKey;
const credentials = {
  login: merchant.login,
  controlKey: KEY,
  privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
};
const dir = mkdtempSync(join(tmpdir(), 'payconform-return-checks-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let seq = 0;

/** The shop's sale with its redirect_url, then status until final: the order's returns are played then. */
async function saleAndStatus(client: PayClient, shop: MerchantShop, ...more: Pair[]): Promise<string> {
  const clientOrderId = `RET-${++seq}`;
  const order = shop.order(clientOrderId, '25.00');
  const x = await client.send(
    OP.SALE,
    sampleRequest(endpointByOperation(OP.SALE), [
      ['client_orderid', clientOrderId],
      ['amount', '25.00'],
      ['redirect_url', shop.returnUrl],
      ...more,
    ]),
  );
  const orderid = (x.body as Record<string, string | undefined>)['paynet-order-id'];
  assert.ok(x.status === 200 && orderid !== undefined, JSON.stringify(x.body));
  order.orderid = orderid;
  // The gateway answers processing to the first status (A-23): the integration polls until a final status.
  for (let poll = 0; poll < 2; poll++)
    await client.send(
      OP.STATUS,
      sampleRequest(endpointByOperation(OP.STATUS), [
        ['orderid', orderid],
        ['client_orderid', clientOrderId],
      ]),
    );
  return orderid;
}

async function played(mistake: ReturnMistake | undefined, ...more: Pair[]): Promise<ReturnRecord> {
  const shop = new MerchantShop(KEY);
  shop.returnMistake = mistake;
  await shop.start();
  const listener = await startListener({ merchants: [merchant], returnChecks: { delayMs: 0, timeoutMs: 2000 } });
  const client = new PayClient({ baseUrl: listener.url, credentials, endpointId: '1001' });
  try {
    const orderid = await saleAndStatus(client, shop, ...more);
    return await onlyRecord(listener, orderid);
  } finally {
    await client.close();
    await listener.close();
    await shop.close();
  }
}

async function onlyRecord(listener: RunningListener, orderid: string): Promise<ReturnRecord> {
  assert.equal(await listener.returnChecker!.idle(10_000), 0);
  const records = listener.returnChecker!.records;
  assert.equal(records.length, 1, JSON.stringify(records));
  assert.equal(records[0]!.orderid, orderid);
  return records[0]!;
}

const failedIds = (r: ReturnRecord): string[] => r.checks.filter((c) => c.outcome === 'fail').map((c) => c.id);

describe('inspect --return-checks', () => {
  it("the shop's return page, written after the Final Redirect page, takes a return signed by hand", async () => {
    // Known answer independent of payconform's signer: SHA-1 over the page's concatenation, by node:crypto here.
    const shop = new MerchantShop(KEY);
    await shop.start();
    shop.order('HAND-1', '1.00').orderid = '77';
    const control = createHash('sha1').update(`approved77HAND-1${KEY}`).digest('hex');
    const post = (fields: Record<string, string>) =>
      fetch(shop.returnUrl, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });
    const fields = { status: 'approved', orderid: '77', merchant_order: 'HAND-1', client_orderid: 'HAND-1', control };
    const taken = await post(fields);
    assert.equal(taken.status, 303);
    assert.equal(taken.headers.get('location'), resultPage('HAND-1'));
    assert.equal(
      (await post({ ...fields, control: control.replace(/^./, (c) => (c === '0' ? '1' : '0')) })).status,
      403,
    );
    await shop.close();
  });

  it('a page that verifies control passes every check, hostile returns first', async () => {
    const r = await played(undefined);
    assert.deepEqual(
      r.checks.map((c) => [c.id, c.outcome, c.answered]),
      [
        ['return-forged-control', 'pass', 403],
        ['return-other-status', 'pass', 403],
        ['return-unknown-order', 'pass', 404],
        ['return-genuine', 'pass', 303],
        ['return-genuine-again', 'pass', 303],
      ],
    );
    assert.equal(r.status, 'approved');
    assert.equal(r.passed, true);
  });

  it('a page that books any "approved" return without checking its control fails the forged control', async () => {
    const r = await played('books-approved-unchecked');
    assert.deepEqual(failedIds(r), ['return-forged-control']);
    assert.match(
      r.checks[0]!.message!,
      /^answered 303 to \/payment\/result\?order=RET-\d+, the genuine return's page; expected a refusal/,
    );
  });

  it('for a declined order, the same page takes the status the payer changed to "approved"', async () => {
    // The forged control goes with the order's own status, declined, which this page does check.
    const r = await played('books-approved-unchecked', ['credit_card_number', TEST_CARDS.declined]);
    assert.equal(r.status, 'declined');
    assert.deepEqual(failedIds(r), ['return-other-status']);
  });

  const mistakes: Array<[ReturnMistake, string]> = [
    ['return-unknown-taken', 'return-unknown-order'],
    ['return-error-on-repeat', 'return-genuine-again'],
  ];
  for (const [mistake, check] of mistakes)
    it(`a page with ${mistake} fails ${check}, and only that`, async () => {
      assert.deepEqual(failedIds(await played(mistake)), [check]);
    });

  it("plays the returns once the payer's checkout on the hosted page is paid, no status asked", async () => {
    const shop = new MerchantShop(KEY);
    await shop.start();
    const listener = await startListener({ merchants: [merchant], returnChecks: { delayMs: 0, timeoutMs: 2000 } });
    const client = new PayClient({ baseUrl: listener.url, credentials, endpointId: '1001' });
    try {
      const clientOrderId = `RET-${++seq}`;
      shop.order(clientOrderId, '25.00');
      const x = await client.send(
        'SALEFORM',
        sampleRequest(endpointByOperation('SALEFORM'), [
          ['client_orderid', clientOrderId],
          ['amount', '25.00'],
          ['redirect_url', shop.returnUrl],
        ]),
      );
      const body = x.body as Record<string, string>;
      shop.orders.get(clientOrderId)!.orderid = body['paynet-order-id'];
      assert.equal(listener.returnChecker!.records.length, 0);
      const paid = await fetch(body['redirect-url']!, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          credit_card_number: TEST_CARDS.approved,
          card_printed_name: 'JANE DOE',
          expire_month: '12',
          expire_year: '30',
          cvv2: '123',
        }).toString(),
      });
      assert.equal(paid.status, 200, await paid.text());
      const r = await onlyRecord(listener, body['paynet-order-id']!);
      assert.equal(r.passed, true, JSON.stringify(r));
    } finally {
      await client.close();
      await listener.close();
      await shop.close();
    }
  });

  it('the command line: --return-checks on the console, in report.json, junit.xml and report.html, exit 1', async () => {
    const shop = new MerchantShop(KEY);
    shop.returnMistake = 'books-approved-unchecked';
    await shop.start();
    const report = join(dir, 'cli');
    const bin = new URL('../../bin/payconform.js', import.meta.url).pathname;
    const child = spawn(
      process.execPath,
      [bin, 'inspect', '--return-checks', '--until-requests', '3', '--report-dir', report],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
    while (!/listening on (http:\/\/\S+)/.test(out)) await new Promise((r) => setTimeout(r, 20));
    const client = new PayClient({
      baseUrl: /listening on (http:\/\/\S+)/.exec(out)?.[1] ?? 'no URL announced',
      credentials,
      endpointId: '1001',
    });
    await saleAndStatus(client, shop);
    await client.close();
    assert.equal(await exit, 1, out);
    await shop.close();
    assert.match(
      out,
      /returns of order \d+ \(RET-\d+, approved\) → http:\/\/127\.0\.0\.1:\d+\/payment\/return: FAIL return-forged-control: answered 303/,
    );
    assert.match(out, /3 passed, 0 failed; customer returns of 1 orders played, 1 failed/);
    const json = JSON.parse(readFileSync(join(report, 'report.json'), 'utf8')) as {
      returns: ReturnRecord[];
      summary: { returnOrdersFailed: number };
    };
    assert.equal(json.summary.returnOrdersFailed, 1);
    assert.deepEqual(failedIds(json.returns[0]!), ['return-forged-control']);
    const junit = readFileSync(join(report, 'junit.xml'), 'utf8');
    assert.match(
      junit,
      /classname="returns of order \d+ RET-\d+" name="a customer return with a forged control is not taken \[return-forged-control\]" time="0"><failure/,
    );
    const html = readFileSync(join(report, 'report.html'), 'utf8');
    assert.match(html, /<section id="returns"><h2>Customer-return checks<\/h2>/);
    assert.match(html, /data-check="return-forged-control"/);
    assert.ok(!(out + junit + html + JSON.stringify(json)).includes(KEY));
  });
});
