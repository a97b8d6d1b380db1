// HAR record and replay: a session recorded against one mock (written as inspect writes it, redacted)
// replays against a fresh mock with no difference, though every order id and signature is new; one
// request altered shows exactly that difference; a HAR as a browser exports it is read; a bad file is
// one line and exit 2; a card that is no test card is never sent.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PayClient } from '../../src/client/client.ts';
import { prepareRequest } from '../../src/client/prepare.ts';
import { OP } from '../../src/catalogue/index.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';
import { runSuite } from '../../src/suite/run.ts';
import { resolveTarget } from '../../src/suite/target.ts';
import { PassThrough } from 'node:stream';
import { startMock } from '../../src/mock/index.ts';
import { harEntryOf, harOf, type HarEntry } from '../../src/report/har.ts';
import { writeRecordedHar } from '../../src/report/har-file.ts';
import { encodeForm, type Pair } from '../../src/signing/form-body.ts';
import { runCli } from '../support/cli.ts';
import { startListening } from '../support/listening.ts';

const dir = mkdtempSync(join(tmpdir(), 'payconform-replay-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const merchant = testMerchant();
const quiet = { log: () => {}, progress: new PassThrough().resume() };
const credentials = { login: merchant.login, controlKey: merchant.merchantControlKey };
const cli = (file: string, url: string, more: string[] = []) =>
  runCli(['replay', file, '--base-url', url, ...more], {
    PAYCONFORM_LOGIN: merchant.login,
    PAYCONFORM_CONTROL_KEY: merchant.merchantControlKey,
  });

/** A session against a mock, each exchange recorded as inspect records it. */
async function recordSession(): Promise<HarEntry[]> {
  const mock = await startMock();
  const client = new PayClient({ baseUrl: mock.url, credentials, endpointId: merchant.endpointIds[0] });
  const entries: HarEntry[] = [];
  let n = 0;
  const orderId = () => `REC-${++n}`;
  try {
    const send = async (operation: string, params: readonly Pair[]) => {
      const started = new Date();
      const x = await client.send(operation, params);
      entries.push(
        harEntryOf(
          {
            startedAt: started,
            ms: 1,
            method: 'POST',
            url: x.request.url,
            requestHeaders: x.request.headers,
            body: x.request.body,
            answer: { status: x.status, headers: x.headers, text: JSON.stringify(x.body) },
          },
          [merchant.merchantControlKey],
        ),
      );
      return x;
    };
    const sale = await send(OP.SALE, await prepareRequest(client, OP.SALE, [], orderId));
    const saleId = (sale.body as Record<string, string>)['paynet-order-id'] ?? '';
    const status: Pair[] = [
      ['login', merchant.login],
      ['client_orderid', 'REC-1'],
      ['orderid', saleId],
    ];
    await send(OP.STATUS, status);
    await send(OP.STATUS, status);
    const preauth = await send(OP.PREAUTH, await prepareRequest(client, OP.PREAUTH, [['amount', '5.00']], orderId));
    const preauthId = (preauth.body as Record<string, string>)['paynet-order-id'] ?? '';
    await send(
      OP.CAPTURE,
      await prepareRequest(client, OP.CAPTURE, [
        ['orderid', preauthId],
        ['amount', '5.00'],
      ]),
    );
  } finally {
    await client.close();
    await mock.close();
  }
  return entries;
}

describe('payconform replay', async () => {
  const entries = await recordSession();
  const recorded = join(dir, 'session.har');
  writeFileSync(recorded, JSON.stringify(harOf(entries, 'test'), null, 2));

  it('writes the session redacted: no card number, CVV, control or key', () => {
    const text = readFileSync(recorded, 'utf8');
    assert.ok(!text.includes('4111111111111111'), 'the card number is masked');
    assert.ok(text.includes('411111******1111'));
    assert.ok(!text.includes(merchant.merchantControlKey));
    assert.match(text, /"name": "cvv2",\s+"value": "\*\*\*"/);
    assert.match(text, /"name": "control",\s+"value": "<redacted>"/);
  });

  it('replays against a fresh mock with no difference, though every order id is new', async () => {
    const mock = await startMock();
    try {
      const r = await cli(recorded, mock.url);
      assert.equal(r.code, 0, r.out + r.err);
      assert.match(r.out, /^SAME: 5 request\(s\) replayed, 0 differ/m);
      assert.match(r.out, /^#5 CAPTURE: same \(200 async-response/m);
    } finally {
      await mock.close();
    }
  });

  it('shows exactly the difference of one altered request', async () => {
    const altered = JSON.parse(readFileSync(recorded, 'utf8')) as ReturnType<typeof harOf>;
    const capture = altered.log.entries[4];
    assert.ok(capture?.request.postData);
    // The capture asks for more than the preauth holds: the mock refuses it now.
    const params = capture.request.postData.params.map(({ name, value }) => [name, name === 'amount' ? '9.00' : value]);
    (capture.request.postData as { text: string }).text = encodeForm(params as Array<[string, string]>);
    const file = join(dir, 'altered.har');
    writeFileSync(file, JSON.stringify(altered));
    const mock = await startMock();
    try {
      const r = await cli(file, mock.url);
      assert.equal(r.code, 1, r.out + r.err);
      const differing = r.out.split('\n').filter((l) => l.includes('DIFFERS:') && l.startsWith('#'));
      assert.deepEqual(differing, [
        '#5 CAPTURE: DIFFERS: HTTP 200 → 400; type: async-response → validation-error; status: processing → (none); ' +
          'error-code: (none) → AMOUNT_EXCEEDS',
      ]);
    } finally {
      await mock.close();
    }
  });

  it('reads a HAR as a browser exports it, skipping what is not an API request', async () => {
    const mock = await startMock();
    const sale = {
      client_orderid: 'BROWSER-1',
      order_desc: 'Order',
      amount: '10.00',
      currency: 'EUR',
      address1: '1 Test Street',
      city: 'Testville',
      zip_code: '10115',
      country: 'DE',
      phone: '+49 30 1234567',
      ipaddress: '192.0.2.10',
      email: 'jane@example.com',
      redirect_url: 'https://merchant.example/return',
      card_printed_name: 'JANE DOE',
      credit_card_number: '4000000000000002',
      expire_month: '12',
      expire_year: '30',
      cvv2: '123',
      control: '0'.repeat(40),
    };
    const answer = JSON.stringify({ type: 'async-response', status: 'processing', 'paynet-order-id': '7' });
    const browser = {
      log: {
        version: '1.2',
        creator: { name: 'WebInspector', version: '537.36' },
        pages: [{ startedDateTime: '2026-11-28T10:00:00.000Z', id: 'page_1', title: 'shop', pageTimings: {} }],
        entries: [
          {
            _initiator: { type: 'other' },
            _priority: 'VeryHigh',
            pageref: 'page_1',
            startedDateTime: '2026-11-28T10:00:00.000Z',
            time: 12.5,
            request: {
              method: 'GET',
              url: `${mock.url}/shop/checkout`,
              httpVersion: 'HTTP/1.1',
              headers: [{ name: 'Accept', value: 'text/html' }],
              queryString: [],
              cookies: [{ name: 'sid', value: 'x' }],
              headersSize: -1,
              bodySize: 0,
            },
            response: {
              status: 200,
              statusText: 'OK',
              httpVersion: 'HTTP/1.1',
              headers: [],
              cookies: [],
              content: { size: 5, mimeType: 'text/html', text: '<p/>' },
              redirectURL: '',
              headersSize: -1,
              bodySize: -1,
              _transferSize: 300,
            },
            cache: {},
            timings: { blocked: 1, dns: -1, ssl: -1, connect: -1, send: 0, wait: 10, receive: 1.5 },
            serverIPAddress: '127.0.0.1',
          },
          {
            startedDateTime: '2026-11-28T10:00:01.000Z',
            time: 20,
            request: {
              method: 'POST',
              url: `${mock.url}/api/v2/sale/1001`,
              httpVersion: 'HTTP/1.1',
              headers: [
                { name: 'Content-Type', value: 'application/x-www-form-urlencoded' },
                { name: 'Accept', value: 'application/vnd.pay+json' },
              ],
              queryString: [],
              cookies: [],
              postData: { mimeType: 'application/x-www-form-urlencoded', text: encodeForm(Object.entries(sale)) },
              headersSize: -1,
              bodySize: 400,
            },
            response: {
              status: 200,
              statusText: 'OK',
              httpVersion: 'HTTP/1.1',
              headers: [{ name: 'Content-Type', value: 'application/vnd.pay+json' }],
              cookies: [],
              content: {
                size: answer.length,
                mimeType: 'application/vnd.pay+json',
                text: Buffer.from(answer).toString('base64'),
                encoding: 'base64',
              },
              redirectURL: '',
              headersSize: -1,
              bodySize: -1,
            },
            cache: {},
            timings: { send: 1, wait: 18, receive: 1 },
          },
        ],
      },
    };
    const file = join(dir, 'browser.har');
    writeFileSync(file, JSON.stringify(browser));
    try {
      const r = await cli(file, mock.url);
      assert.equal(r.code, 0, r.out + r.err);
      assert.match(r.out, /^#2 SALE: same \(200 async-response processing\)$/m);
      assert.match(r.out, /^#1: skipped: not a request of the API \(GET\)$/m);
      // A card that is no test card is never sent.
      sale.credit_card_number = '5105105105105100';
      browser.log.entries[1]!.request.postData = {
        mimeType: 'application/x-www-form-urlencoded',
        text: encodeForm(Object.entries(sale)),
      };
      writeFileSync(file, JSON.stringify(browser));
      const real = await cli(file, mock.url);
      assert.equal(real.code, 1);
      assert.match(real.out, /^#2 SALE: NOT SENT: credit_card_number is no test card/m);
      assert.equal(mock.orders.size, 1, 'only the first replay made an order');
    } finally {
      await mock.close();
    }
  });

  it('certify --record writes every exchange, redacted; replayed, only the signatures sent wrong on purpose differ', async () => {
    const har = join(dir, 'certify.har');
    const reportDir = join(dir, 'certify-bundle');
    const target = resolveTarget({ live: false }, {});
    await runSuite({ target, tags: '@area:payouts', reportDir, record: har }, quiet);
    const text = readFileSync(har, 'utf8');
    const recorded = JSON.parse(text) as ReturnType<typeof harOf>;
    assert.ok(recorded.log.entries.length > 20, `${recorded.log.entries.length} entries`);
    assert.ok(!text.includes(merchant.merchantControlKey));
    assert.doesNotMatch(text, /oauth_signature=\\"[^<]/, 'no OAuth signature');
    // Sent wrong on purpose: the requests the mock refused for their signature, which a replay signs anew.
    const wrongOnPurpose = recorded.log.entries.flatMap((e, i) =>
      (e.response.content.text ?? '').includes('SIGNATURE_INVALID') ? [`#${i + 1}`] : [],
    );
    assert.ok(wrongOnPurpose.length > 0);
    const mock = await startMock({ prefix: '/paynet' });
    try {
      const r = await cli(har, `${mock.url}/paynet`, ['--private-key-file', TEST_MERCHANT_PRIVATE_KEY_FILE]);
      const differing = r.out.split('\n').filter((l) => l.includes(': DIFFERS: '));
      assert.deepEqual(
        differing.map((l) => l.split(' ')[0]),
        wrongOnPurpose,
      );
      assert.ok(differing.every((l) => l.endsWith('error-code: SIGNATURE_INVALID → (none)')));
    } finally {
      await mock.close();
    }
    const again = await runCli(['certify', '--record', har, '--tags', '@area:payouts']);
    assert.equal(again.code, 2);
    assert.match(again.err, /--record: .*certify\.har exists; give a new file/);
  });

  it('inspect --record writes a session that replays against a fresh mock with no difference', async () => {
    const har = join(dir, 'inspect.har');
    const inspect = await startListening([
      'inspect',
      '--port',
      '0',
      '--report-dir',
      join(dir, 'inspect-report'),
      '--until-requests',
      '3',
      '--record',
      har,
    ]);
    const client = new PayClient({ baseUrl: `${inspect.url}/paynet`, credentials, endpointId: '1001' });
    try {
      let n = 0;
      const sale = await client.send(OP.SALE, await prepareRequest(client, OP.SALE, [], () => `INS-${++n}`));
      const id = (sale.body as Record<string, string>)['paynet-order-id'] ?? '';
      const status: Pair[] = [
        ['login', merchant.login],
        ['client_orderid', 'INS-1'],
        ['orderid', id],
      ];
      await client.send(OP.STATUS, status);
      await client.send(OP.STATUS, status);
    } finally {
      await client.close();
    }
    assert.equal(await inspect.exit, 0, inspect.out());
    assert.match(inspect.out(), /inspect: 3 exchanges recorded in .*inspect\.har/);
    const text = readFileSync(har, 'utf8');
    assert.ok(!text.includes(merchant.merchantControlKey) && !text.includes('4111111111111111'));
    assert.deepEqual(
      (JSON.parse(text) as ReturnType<typeof harOf>).log.entries.map((e) => e._payconform),
      [
        { passed: true, failed: [] },
        { passed: true, failed: [] },
        { passed: true, failed: [] },
      ],
    );
    const mock = await startMock({ prefix: '/paynet' });
    try {
      const r = await cli(har, `${mock.url}/paynet`);
      assert.equal(r.code, 0, r.out + r.err);
      assert.match(r.out, /^SAME: 3 request\(s\) replayed, 0 differ/m);
      assert.match(r.out, /^#3 STATUS: same \(200 status-response approved\)$/m);
    } finally {
      await mock.close();
    }
  });

  it('writes a recording only as a new file: one that appeared meanwhile is left as it was, no part left', () => {
    const lines = mkdtempSync(join(dir, 'lines-'));
    writeFileSync(join(lines, '1.ndjson'), `${JSON.stringify(entries[0])}\n`);
    const target = join(dir, 'raced.har');
    writeFileSync(target, 'a second run wrote this first');
    assert.throws(
      () => writeRecordedHar(lines, target, 'test'),
      (err: Error) => /^--record: .*raced\.har was not written \(EEXIST\); nothing of it is left$/.test(err.message),
    );
    assert.equal(readFileSync(target, 'utf8'), 'a second run wrote this first');
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.endsWith('.tmp')),
      [],
    );
    assert.equal(writeRecordedHar(lines, join(dir, 'fresh.har'), 'test'), 1);
  });

  it('refuses a file that is not a HAR with one line and exit 2', async () => {
    const bad = join(dir, 'bad.har');
    writeFileSync(bad, '{"log": {"entries": [{"request": {"method": 1}}]}}');
    const r = await cli(bad, 'http://127.0.0.1:9');
    assert.equal(r.code, 2);
    assert.match(r.err, /bad\.har: \/log\/entries\/0: must have required property 'response'$/m);
    assert.equal(r.err.trim().split('\n').length, 1);
    writeFileSync(bad, 'not json');
    assert.match((await cli(bad, 'http://127.0.0.1:9')).err, /bad\.har: not JSON/);
  });
});
