// inspect --callback-checks against handlers written here: the correct one passes every callback
// check; each one with a typical mistake fails on its own check and no other. In front of the
// embedded mock (which says when an order is final) and behind --upstream (a status answer says so),
// and through the command line: report.json, junit.xml, report.html and the exit code.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { endpointByOperation } from '../../src/catalogue/index.ts';
import { TEST_CARDS } from '../../src/catalogue/test-cards.ts';
import { PayClient } from '../../src/client/client.ts';
import { otherAmount, type CallbackRecord } from '../../src/inspect/callback-checks.ts';
import { callbackJunitCases } from '../../src/inspect/callback-report.ts';
import { RULE_BY_ID, type RuleId } from '../../src/rules/book.ts';
import { startListener } from '../../src/inspect/listener.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';
import { startMock } from '../../src/mock/server.ts';
import { sampleRequest } from '../../src/schemas/index.ts';
import type { Pair } from '../../src/signing/form-body.ts';
import { MerchantShop, type HandlerMistake } from '../support/merchant-shop.ts';

const merchant = testMerchant();
const credentials = {
  login: merchant.login,
  controlKey: merchant.merchantControlKey,
  privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
};
const dir = mkdtempSync(join(tmpdir(), 'payconform-callback-checks-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let seq = 0;

/** The integration: the shop records its order, sends the sale with its callback URL, keeps the gateway's id. */
async function sale(client: PayClient, shop: MerchantShop, ...more: Pair[]): Promise<string> {
  const clientOrderId = `SHOP-${++seq}`;
  const order = shop.order(clientOrderId, '25.00');
  const x = await client.send(
    'SALE',
    sampleRequest(endpointByOperation('SALE'), [
      ['client_orderid', clientOrderId],
      ['amount', '25.00'],
      ['server_callback_url', shop.url],
      ...more,
    ]),
  );
  assert.equal(x.status, 200, JSON.stringify(x.body));
  const orderid = (x.body as Record<string, string | undefined>)['paynet-order-id'];
  assert.ok(orderid !== undefined, JSON.stringify(x.body));
  order.orderid = orderid;
  return orderid;
}

async function checked(mistake: HandlerMistake | undefined, method?: 'GET' | 'POST'): Promise<CallbackRecord> {
  const shop = new MerchantShop(merchant.merchantControlKey, mistake);
  await shop.start();
  const listener = await startListener({
    merchants: [merchant],
    callbackChecks: { delayMs: 0, timeoutMs: 2000, ...(method ? { method } : {}) },
  });
  const client = new PayClient({ baseUrl: listener.url, credentials, endpointId: '1001' });
  try {
    const orderid = await sale(client, shop);
    assert.equal(await listener.callbackChecker!.idle(10_000), 0);
    const records = listener.callbackChecker!.records;
    const [record] = records;
    assert.ok(record !== undefined && records.length === 1, `one record, not ${records.length}`);
    assert.equal(record.orderid, orderid);
    return record;
  } finally {
    await client.close();
    await listener.close();
    await shop.close();
  }
}

const failedIds = (r: CallbackRecord): string[] => r.checks.filter((c) => c.outcome === 'fail').map((c) => c.id);

/** The checks of a genuine callback, each of which must get 200: a handler that refuses the genuine one fails them. */
const TAKES_GENUINE = [
  'callback-duplicate-together',
  'callback-genuine',
  'callback-genuine-again',
  'callback-late-status',
  'callback-chargeback-booked',
  'callback-after-window',
];

describe('inspect --callback-checks', () => {
  it('a correct handler passes every check, hostile callbacks first', async () => {
    const r = await checked(undefined);
    assert.deepEqual(
      r.checks.map((c) => [c.id, c.outcome, c.answered]),
      [
        ['callback-forged-control', 'pass', 403],
        ['callback-other-amount', 'pass', 409],
        ['callback-unknown-order', 'pass', 404],
        // Without --callback-state (this shop has none) the checks judged by the shop's state alone are skipped.
        ['callback-hostile-changes-nothing', 'skip', undefined],
        ['callback-duplicate-together', 'pass', 200],
        ['callback-genuine', 'pass', 200],
        ['callback-genuine-again', 'pass', 200],
        ['callback-late-status', 'pass', 200],
        ['callback-chargeback-not-payment', 'skip', 200],
        ['callback-chargeback-booked', 'pass', 200],
        ['callback-after-window', 'pass', 200],
      ],
    );
    assert.equal(r.passed, true);
  });

  const mistakes: Array<[HandlerMistake, string]> = [
    ['no-control-check', 'callback-forged-control'],
    ['no-amount-check', 'callback-other-amount'],
    ['marks-unknown-paid', 'callback-unknown-order'],
  ];
  for (const [mistake, check] of mistakes) {
    it(`a handler with ${mistake} fails ${check}, and only that, with why and the fix`, async () => {
      const r = await checked(mistake);
      assert.deepEqual(failedIds(r), [check]);
      const failed = r.checks.find((c) => c.id === check)!;
      assert.ok(failed.message, JSON.stringify(failed));
      // The fix is the rule book's, read by the report.
      const hint = RULE_BY_ID.get(check as RuleId)!.hint;
      assert.ok(callbackJunitCases([r]).join('\n').includes(`fix: ${hint}`), hint);
    });
  }

  it('a handler with error-on-repeat fails every genuine callback after the first: the second of two at once too', async () => {
    const r = await checked('error-on-repeat');
    assert.deepEqual(failedIds(r), TAKES_GENUINE);
    assert.ok(r.checks.filter((c) => c.outcome === 'fail').every((c) => c.answered === 500));
  });

  // Handlers that get the callback wrong refuse every genuine one: each is the public example's handler with one
  // mistake, so the checks of a genuine callback fail and no other.
  const refusesGenuine: Array<[HandlerMistake, number]> = [
    ['reads-post-body', 403],
    ['amount-in-formula', 403],
    ['refuses-own-query', 400],
    ['answers-204', 204],
  ];
  for (const [mistake, status] of refusesGenuine) {
    it(`a handler with ${mistake} fails every check of a genuine callback (answered ${status})`, async () => {
      const r = await checked(mistake);
      assert.deepEqual(failedIds(r), TAKES_GENUINE);
      assert.deepEqual(
        r.checks.filter((c) => c.outcome === 'fail').map((c) => c.answered),
        TAKES_GENUINE.map(() => status),
      );
      const says = r.checks.find((c) => c.id === 'callback-genuine')!.message!;
      assert.match(says, new RegExp(`^answered ${status} to the GET; expected 200: `));
      // Every refusal of a genuine GET says where the fields are: the usual cause is a handler of the POST body.
      if (status !== 204)
        assert.match(says, /the public API sends callbacks as HTTP GET with the fields in the query string/);
    });
  }

  it('--callback-method POST: the handler of the POST body passes, the handler of the query fails', async () => {
    assert.deepEqual(failedIds(await checked('reads-post-body', 'POST')), []);
    const r = await checked(undefined, 'POST');
    assert.deepEqual(failedIds(r), TAKES_GENUINE);
    assert.doesNotMatch(
      r.checks.find((c) => c.id === 'callback-genuine')!.message!,
      /public API sends callbacks as HTTP GET/,
    );
  });

  it('a handler that refuses everything fails the genuine callbacks', async () => {
    const r = await checked('fails-first');
    // It answers 503 to its first two posts (forged, other amount: refusals, passes), then works.
    assert.deepEqual(failedIds(r), []);
    const down = new MerchantShop(merchant.merchantControlKey, 'fails-first', 99);
    await down.start();
    const listener = await startListener({ merchants: [merchant], callbackChecks: { delayMs: 0, timeoutMs: 2000 } });
    const client = new PayClient({ baseUrl: listener.url, credentials, endpointId: '1001' });
    await sale(client, down);
    try {
      await listener.callbackChecker!.idle(10_000);
      assert.deepEqual(failedIds(listener.callbackChecker!.records[0]!), TAKES_GENUINE);
    } finally {
      await client.close();
      await listener.close();
      await down.close();
    }
  });

  it('plays nothing for an order that is not final, and refuses a handler that is not on loopback', async () => {
    const shop = new MerchantShop(merchant.merchantControlKey);
    await shop.start();
    const listener = await startListener({ merchants: [merchant], callbackChecks: { delayMs: 0, timeoutMs: 2000 } });
    const client = new PayClient({ baseUrl: listener.url, credentials, endpointId: '1001' });
    await sale(client, shop, ['credit_card_number', TEST_CARDS['stays processing']]);
    const away = {
      url: 'https://shop.example/cb',
      order: (id: string, a: string) => shop.order(id, a),
    } as unknown as MerchantShop;
    await sale(client, away);
    await listener.callbackChecker!.idle(10_000);
    const records = listener.callbackChecker!.records;
    assert.equal(records.length, 1, 'only the final order');
    assert.deepEqual(new Set(records[0]!.checks.map((c) => c.outcome)), new Set(['fail']));
    assert.match(records[0]!.checks[0]!.message!, /not a loopback host/);
    assert.equal(shop.received.length, 0);
    await client.close();
    await listener.close();
    await shop.close();
  });

  it('behind --upstream: a final status answer starts the checks', async () => {
    const sandbox = await startMock({ callbacks: { allowedHosts: [], attempts: 1, delayMs: 0 } });
    const shop = new MerchantShop(merchant.merchantControlKey, 'no-amount-check');
    await shop.start();
    const listener = await startListener({
      merchants: [merchant],
      upstream: sandbox.url,
      callbackChecks: { delayMs: 0, timeoutMs: 2000 },
    });
    const client = new PayClient({ baseUrl: listener.url, credentials, endpointId: '1001' });
    try {
      const orderid = await sale(client, shop);
      // The sandbox delivers its own callback (loopback); inspect waits for a final status answer.
      await sandbox.callbacks.idle(5000);
      assert.equal(listener.callbackChecker!.records.length, 0);
      const poll = () =>
        client.send(
          'STATUS',
          sampleRequest(endpointByOperation('STATUS'), [
            ['orderid', orderid],
            ['client_orderid', `SHOP-${seq}`],
          ]),
        );
      await poll();
      await listener.callbackChecker!.idle(10_000);
      assert.deepEqual(failedIds(listener.callbackChecker!.records[0]!), ['callback-other-amount']);
    } finally {
      await client.close();
      await listener.close();
      await sandbox.close();
      await shop.close();
    }
  });

  it('another amount is always another: a cent, or a unit for a cent order', () => {
    assert.equal(otherAmount('25.00'), '0.01');
    assert.equal(otherAmount('0.01'), '1.00');
    assert.equal(otherAmount('0.00'), '1.00');
  });

  it('the command line: the checks on the console, in report.json, junit.xml and report.html, exit 1 on a failure', async () => {
    const shop = new MerchantShop(merchant.merchantControlKey, 'marks-unknown-paid');
    await shop.start();
    const report = join(dir, 'cli');
    const bin = new URL('../../bin/payconform.js', import.meta.url).pathname;
    const child = spawn(
      process.execPath,
      [bin, 'inspect', '--callback-checks', '--until-requests', '1', '--report-dir', report],
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
    await sale(client, shop);
    await client.close();
    assert.equal(await exit, 1, out);
    await shop.close();
    assert.match(
      out,
      /callbacks of order \d+ \(SHOP-\d+, approved\) → http:\/\/127\.0\.0\.1:\d+\/payment\/callback: FAIL callback-unknown-order: answered 200/,
    );
    assert.match(out, /1 passed, 0 failed; callbacks of 1 orders played, 1 failed/);
    const json = JSON.parse(readFileSync(join(report, 'report.json'), 'utf8')) as {
      callbacks: CallbackRecord[];
      summary: { callbackOrdersFailed: number };
    };
    assert.equal(json.summary.callbackOrdersFailed, 1);
    assert.deepEqual(failedIds(json.callbacks[0]!), ['callback-unknown-order']);
    const junit = readFileSync(join(report, 'junit.xml'), 'utf8');
    assert.match(
      junit,
      /name="a correctly signed callback for an order you never made is not accepted \[callback-unknown-order\]" time="0"><failure/,
    );
    assert.match(junit, /failures="1"/);
    const html = readFileSync(join(report, 'report.html'), 'utf8');
    assert.match(html, /data-check="callback-unknown-order"/);
    assert.ok(!(out + junit + html + JSON.stringify(json)).includes(merchant.merchantControlKey));
  });

  it('the command line refuses a --callback-method other than GET or POST: one line, exit 2', async () => {
    const bin = new URL('../../bin/payconform.js', import.meta.url).pathname;
    const child = spawn(process.execPath, [bin, 'inspect', '--callback-checks', '--callback-method', 'PUT'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const exit = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.equal(exit, 2);
    assert.equal(err.trim(), 'payconform inspect: --callback-method: must be GET or POST (got "PUT")');
  });
});
