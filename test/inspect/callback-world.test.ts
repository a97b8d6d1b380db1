// inspect --callback-checks against the world (issue 44, item 3): a reference handler written here
// (test/support/callback-shop.ts, not the mock's code) passes every callback check for an approved and a declined
// order, and each of its four broken variants fails exactly the rule meant for it. With --callback-state the shop's
// paid amount judges what the callbacks did; without it the checks say what was not judged, and the answers are
// still judged. Known amounts are the order's (25.00) and the shop's own arithmetic, not payconform's.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { endpointByOperation } from '../../src/catalogue/index.ts';
import { TEST_CARDS } from '../../src/catalogue/test-cards.ts';
import { PayClient } from '../../src/client/client.ts';
import type { CallbackRecord } from '../../src/inspect/callback-checks.ts';
import { startListener } from '../../src/inspect/listener.ts';
import { CALLBACK_HANDLER_RULES } from '../../src/rules/book.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';
import { sampleRequest } from '../../src/schemas/index.ts';
import { CallbackShop, type CallbackShopFlaw } from '../support/callback-shop.ts';
import { MerchantShop } from '../support/merchant-shop.ts';

const merchant = testMerchant();
const credentials = {
  login: merchant.login,
  controlKey: merchant.merchantControlKey,
  privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
};
const dir = mkdtempSync(join(tmpdir(), 'payconform-callback-world-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let seq = 0;

type Card = 'approved' | 'declined';
const ALL = CALLBACK_HANDLER_RULES.map((r) => r.id);
const WORLD = [
  'callback-hostile-changes-nothing',
  'callback-duplicate-together',
  'callback-late-status',
  'callback-chargeback-not-payment',
  'callback-chargeback-booked',
  'callback-after-window',
];

/** The integration: the shop records its order and sends the sale with its callback URL. */
async function sale(client: PayClient, shop: { order(id: string, amount: string): unknown }, url: string, card: Card) {
  const clientOrderId = `WORLD-${++seq}`;
  shop.order(clientOrderId, '25.00');
  const x = await client.send(
    'SALE',
    sampleRequest(endpointByOperation('SALE'), [
      ['client_orderid', clientOrderId],
      ['amount', '25.00'],
      ['credit_card_number', TEST_CARDS[card]],
      ['server_callback_url', url],
    ]),
  );
  assert.equal(x.status, 200, JSON.stringify(x.body));
  return clientOrderId;
}

async function played(
  flaw: CallbackShopFlaw | undefined,
  card: Card,
  withState = true,
): Promise<{ record: CallbackRecord; shop: CallbackShop; clientOrderId: string }> {
  const shop = new CallbackShop(merchant.merchantControlKey, flaw);
  await shop.start();
  const listener = await startListener({
    merchants: [merchant],
    callbackChecks: { delayMs: 0, timeoutMs: 3000, ...(withState ? { stateUrl: new URL(shop.stateUrl) } : {}) },
  });
  const client = new PayClient({ baseUrl: listener.url, credentials, endpointId: '1001' });
  try {
    const clientOrderId = await sale(client, shop, shop.url, card);
    assert.equal(await listener.callbackChecker!.idle(20_000), 0);
    const records = listener.callbackChecker!.records;
    assert.equal(records.length, 1);
    return { record: records[0]!, shop, clientOrderId };
  } finally {
    await client.close();
    await listener.close();
    await shop.close();
  }
}

const idsWith = (r: CallbackRecord, outcome: string): string[] =>
  r.checks.filter((c) => c.outcome === outcome).map((c) => c.id);
const check = (r: CallbackRecord, id: string) => r.checks.find((c) => c.id === id)!;

describe('inspect --callback-checks against the world', () => {
  it('the reference handler passes every check for an approved order, each judged by the state too', async () => {
    const { record, shop, clientOrderId } = await played(undefined, 'approved');
    assert.deepEqual(
      record.checks.map((c) => c.id),
      ALL,
    );
    assert.deepEqual(idsWith(record, 'pass'), ALL, JSON.stringify(record.checks, null, 1));
    assert.ok(record.checks.every((c) => c.notJudged === undefined));
    // What the shop held, as its own arithmetic says: the sale booked once, then the chargeback took it back.
    assert.deepEqual(check(record, 'callback-duplicate-together').paid, { before: '0.00', after: '25.00' });
    assert.deepEqual(check(record, 'callback-late-status').paid, { before: '25.00', after: '25.00' });
    assert.deepEqual(check(record, 'callback-chargeback-booked').paid, { before: '25.00', after: '0.00' });
    assert.deepEqual(check(record, 'callback-after-window').paid, { before: '0.00', after: '0.00' });
    assert.equal(shop.paidCents(clientOrderId), 0);
    assert.equal(record.passed, true);
  });

  it('the reference handler passes for a declined order; the chargeback checks are not played, and say why', async () => {
    const { record } = await played(undefined, 'declined');
    assert.deepEqual(idsWith(record, 'fail'), []);
    assert.deepEqual(idsWith(record, 'skip'), ['callback-chargeback-not-payment', 'callback-chargeback-booked']);
    for (const id of idsWith(record, 'skip'))
      assert.equal(check(record, id).message, 'not played: a chargeback needs an approved order; this one is declined');
    assert.deepEqual(check(record, 'callback-duplicate-together').paid, { before: '0.00', after: '0.00' });
    assert.equal(record.passed, true);
  });

  const broken: Array<[CallbackShopFlaw, Card, string, RegExp]> = [
    ['books-twice', 'approved', 'callback-duplicate-together', /^paid: 50\.00 after two identical approved callbacks/],
    ['flips-late', 'declined', 'callback-late-status', /^paid: 0\.00 before the late callback, 25\.00 after/],
    ['chargeback-as-payment', 'approved', 'callback-chargeback-not-payment', /25\.00 before the chargeback, 50\.00/],
    ['ignores-chargeback', 'approved', 'callback-chargeback-booked', /expected 0\.00: the chargeback was ignored$/],
  ];
  for (const [flaw, card, rule, says] of broken) {
    it(`the handler that ${flaw} fails ${rule} and nothing else (${card} order)`, async () => {
      const { record } = await played(flaw, card);
      assert.deepEqual(idsWith(record, 'fail'), [rule], JSON.stringify(record.checks, null, 1));
      assert.match(check(record, rule).message!, says);
      assert.equal(record.passed, false);
    });
  }

  it('a chargeback booked as a payment is failed once: callback-chargeback-booked defers to not-payment', async () => {
    const { record } = await played('chargeback-as-payment', 'approved');
    assert.deepEqual(check(record, 'callback-chargeback-booked'), {
      id: 'callback-chargeback-booked',
      outcome: 'skip',
      message: 'paid grew: judged by callback-chargeback-not-payment',
      answered: 200,
      paid: { before: '25.00', after: '50.00' },
    });
  });

  it('without --callback-state: the answers are judged, and each check says what of the state was not', async () => {
    const { record } = await played('books-twice', 'approved', false);
    // The race goes unseen without the state: nothing fails, and the report must not read that as "booked once".
    assert.deepEqual(idsWith(record, 'fail'), []);
    assert.deepEqual(idsWith(record, 'skip'), ['callback-hostile-changes-nothing', 'callback-chargeback-not-payment']);
    assert.equal(
      check(record, 'callback-duplicate-together').notJudged,
      'booked once: not judged, no --callback-state',
    );
    assert.equal(
      check(record, 'callback-hostile-changes-nothing').message,
      'nothing changed: not judged, no --callback-state',
    );
    const partly = record.checks.filter((c) => c.notJudged !== undefined).map((c) => c.id);
    assert.deepEqual(
      partly,
      WORLD.filter((id) => !idsWith(record, 'skip').includes(id)),
    );
    for (const c of record.checks) assert.equal(c.paid, undefined);
  });

  it('without --callback-state a handler that fails on a repeat still fails the answer-judged world checks', async () => {
    const shop = new MerchantShop(merchant.merchantControlKey, 'error-on-repeat');
    await shop.start();
    const listener = await startListener({ merchants: [merchant], callbackChecks: { delayMs: 0, timeoutMs: 3000 } });
    const client = new PayClient({ baseUrl: listener.url, credentials, endpointId: '1001' });
    try {
      await sale(client, shop, shop.url, 'approved');
      await listener.callbackChecker!.idle(20_000);
      const record = listener.callbackChecker!.records[0]!;
      // Of two at once, one books and the other gets 500; every later callback names an order already final.
      assert.deepEqual(idsWith(record, 'fail'), [
        'callback-duplicate-together',
        'callback-genuine',
        'callback-genuine-again',
        'callback-late-status',
        'callback-chargeback-booked',
        'callback-after-window',
      ]);
      assert.match(check(record, 'callback-late-status').message!, /^answered 500 to a late callback/);
    } finally {
      await client.close();
      await listener.close();
      await shop.close();
    }
  });

  it('a state URL that cannot be read fails the state-judged checks with why, never passes them', async () => {
    const shop = new CallbackShop(merchant.merchantControlKey);
    await shop.start();
    const listener = await startListener({
      merchants: [merchant],
      callbackChecks: { delayMs: 0, timeoutMs: 3000, stateUrl: new URL(shop.url.replace('/callback', '/nothing')) },
    });
    const client = new PayClient({ baseUrl: listener.url, credentials, endpointId: '1001' });
    try {
      await sale(client, shop, shop.url, 'approved');
      await listener.callbackChecker!.idle(20_000);
      const record = listener.callbackChecker!.records[0]!;
      // The shop answers its unknown path as a callback: 403, no JSON.
      assert.deepEqual(idsWith(record, 'fail'), WORLD);
      assert.match(
        check(record, 'callback-duplicate-together').message!,
        /^paid: the shop's state could not be read \(answered 403, expected 200\)/,
      );
    } finally {
      await client.close();
      await listener.close();
      await shop.close();
    }
  });
});

describe('payconform inspect --callback-checks --callback-state', () => {
  const bin = new URL('../../bin/payconform.js', import.meta.url).pathname;

  async function inspectRun(shop: CallbackShop, card: Card, args: string[]) {
    const report = join(dir, `cli-${++seq}`);
    const child = spawn(
      process.execPath,
      [bin, 'inspect', '--callback-checks', ...args, '--until-requests', '1', '--report-dir', report],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
    while (!/listening on (http:\/\/\S+)/.test(out)) {
      if (child.exitCode !== null) assert.fail(`inspect ended before it listened:\n${out}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const client = new PayClient({
      baseUrl: /listening on (http:\/\/\S+)/.exec(out)?.[1] ?? 'no URL announced',
      credentials,
      endpointId: '1001',
    });
    await sale(client, shop, shop.url, card);
    await client.close();
    const code = await exit;
    return { code, out, report };
  }

  it('a handler that books a duplicate twice fails on the console, in report.json, junit.xml and report.html', async () => {
    const shop = new CallbackShop(merchant.merchantControlKey, 'books-twice');
    await shop.start();
    const { code, out, report } = await inspectRun(shop, 'approved', ['--callback-state', shop.stateUrl]);
    await shop.close();
    assert.equal(code, 1, out);
    assert.match(
      out,
      /callbacks of order \d+ \(WORLD-\d+, approved\) → http:\/\/127\.0\.0\.1:\d+\/payment\/callback: FAIL callback-duplicate-together: paid: 50\.00 after two identical approved callbacks at the same moment; expected 25\.00: booked twice\n/,
    );
    assert.match(out, /1 passed, 0 failed; callbacks of 1 orders played, 1 failed; report/);
    const json = JSON.parse(readFileSync(join(report, 'report.json'), 'utf8')) as {
      callbacks: CallbackRecord[];
      callbackState: string;
      summary: { callbackOrdersFailed: number; callbackChecksNotPlayed: number; callbackChecksNotJudged: number };
    };
    assert.equal(json.callbackState, shop.stateUrl);
    assert.deepEqual(
      [json.summary.callbackOrdersFailed, json.summary.callbackChecksNotPlayed, json.summary.callbackChecksNotJudged],
      [1, 0, 0],
    );
    assert.deepEqual(idsWith(json.callbacks[0]!, 'fail'), ['callback-duplicate-together']);
    const junit = readFileSync(join(report, 'junit.xml'), 'utf8');
    assert.match(junit, /\[callback-duplicate-together\]" time="0"><failure message="paid: 50\.00/);
    assert.match(junit, /failures="1"/);
    assert.match(junit, new RegExp(`skipped="${junit.match(/<skipped/g)?.length ?? 0}"`));
    const html = readFileSync(join(report, 'report.html'), 'utf8');
    assert.match(html, /data-check="callback-duplicate-together"/);
    // Each cell tells what the shop held before and after, on hover.
    assert.match(
      html,
      /<td class="fail" title="paid: 50\.00 after [^"]*; paid 0\.00 before, 50\.00 after">✗ 200<\/td>/,
    );
    assert.match(html, /judged by the shop's state \(http:\/\/127\.0\.0\.1:\d+\/payment\/state\)/);
  });

  it('a declined order without --callback-state: what was not played or judged is said everywhere', async () => {
    const shop = new CallbackShop(merchant.merchantControlKey);
    await shop.start();
    const { code, out, report } = await inspectRun(shop, 'declined', []);
    await shop.close();
    assert.equal(code, 0, out);
    assert.match(
      out,
      /: pass; NOT PLAYED OR NOT JUDGED: callback-hostile-changes-nothing \(nothing changed: not judged, no --callback-state\); callback-duplicate-together \(booked once: not judged, no --callback-state\);/,
    );
    assert.match(
      out,
      /callback-chargeback-booked \(not played: a chargeback needs an approved order; this one is declined\)/,
    );
    assert.match(
      out,
      /callbacks of 1 orders played, 0 failed \(3 checks not played, 3 judged by the answers alone \(no --callback-state\)\)/,
    );
    const json = JSON.parse(readFileSync(join(report, 'report.json'), 'utf8')) as {
      summary: { callbackChecksNotPlayed: number; callbackChecksNotJudged: number };
    };
    assert.deepEqual([json.summary.callbackChecksNotPlayed, json.summary.callbackChecksNotJudged], [3, 3]);
    const junit = readFileSync(join(report, 'junit.xml'), 'utf8');
    assert.match(junit, /\[callback-chargeback-booked\]" time="0"><skipped message="not played: a chargeback needs/);
    assert.match(junit, /\[callback-duplicate-together\]" time="0"><system-out>not judged: booked once: not judged/);
    assert.match(junit, new RegExp(`skipped="${junit.match(/<skipped/g)?.length ?? 0}"`));
    assert.equal(junit.match(/<skipped message="not played/g)?.length, 2);
    const html = readFileSync(join(report, 'report.html'), 'utf8');
    assert.match(html, /<div class="not-judged" data-check="callback-chargeback-not-payment"><h4>– [^<]*: not played/);
    assert.match(html, /data-check="callback-late-status"><h4>– [^<]*: not judged in part<\/h4><p>paid unchanged: not/);
    assert.match(html, /3 callback checks not played \(see each order\)\. 3 callback checks judged by the handler/);
  });

  it('refuses a --callback-state off loopback, or without --callback-checks: one line, exit 2', async () => {
    const cases: Array<[string[], string]> = [
      [
        ['inspect', '--callback-checks', '--callback-state', 'http://shop.example/state'],
        'payconform inspect: --callback-state: must be on a loopback host (127.0.0.1, ::1, localhost) or a host of ' +
          '--callback-hosts (got shop.example)',
      ],
      [
        ['inspect', '--callback-state', 'http://127.0.0.1:1/state'],
        'payconform inspect: --callback-state: needs --callback-checks',
      ],
      [
        ['inspect', '--callback-checks', '--callback-state', 'ftp://127.0.0.1/state'],
        'payconform inspect: --callback-state: must be an absolute http(s) URL such as http://127.0.0.1:8080/state',
      ],
    ];
    for (const [args, says] of cases) {
      const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      const exit = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      assert.equal(exit, 2, err);
      assert.equal(err.trim(), says);
    }
  });
});
