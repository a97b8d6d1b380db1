// A merchant that sends its control key (in a body field, in a header, percent-encoded): the embedded mock refuses
// it, 400 CONTROL_KEY_SENT, without echoing it; inspect lists the finding first and marks it critical on the
// console line, in report.json, junit.xml and report.html; and no file of the report holds the key in any written
// form. A value that only shares a prefix with the key passes.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { endpointByOperation, OP } from '../../src/catalogue/index.ts';
import { buildRequest } from '../../src/client/client.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';
import { startListener, type InspectRecord } from '../../src/inspect/listener.ts';
import { recordLine, writeInspectReport } from '../../src/inspect/report.ts';
import { sampleRequest } from '../../src/schemas/index.ts';
import type { Pair } from '../../src/signing/form-body.ts';

const merchant = testMerchant();
const KEY = merchant.merchantControlKey;
const credentials = {
  login: merchant.login,
  controlKey: KEY,
  privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
};
const dir = mkdtempSync(join(tmpdir(), 'payconform-control-key-sent-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let serial = 0;

/** The key in the ways a report could hold it: as is, each dash escaped once and twice, the whole value encoded. */
const WRITTEN = [
  KEY,
  KEY.replaceAll('-', '%2D'),
  KEY.replaceAll('-', '%252D'),
  encodeURIComponent(encodeURIComponent(KEY)),
];

/**
 * Sends an operation signed by payconform's client with `more` pairs and headers, straight to the listener;
 * `unsigned` is added to the body after signing (the signature then fails, and its evidence holds the body).
 */
async function send(
  base: string,
  operation: string,
  more: Pair[],
  headers: Record<string, string> = {},
  unsigned = '',
) {
  const endpoint = endpointByOperation(operation);
  const r = buildRequest(
    endpoint,
    { baseUrl: `${base}/paynet`, credentials, endpointId: '1001' },
    sampleRequest(endpoint, [['client_orderid', `KEY-${++serial}`], ...more]),
  );
  const answer = await fetch(r.url, { method: 'POST', headers: { ...r.headers, ...headers }, body: r.body + unsigned });
  return { status: answer.status, text: await answer.text() };
}

describe('inspect: a request that carries the merchant control key', () => {
  it('is refused by the mock and reported first, critical, in every output; the key is in no file', async () => {
    const listener = await startListener({ merchants: [merchant] });
    const answers: Array<{ status: number; text: string }> = [];
    try {
      // The shop class that posts the key as a field, one that sends it in a header, one that encodes it twice;
      // an HMAC-signed payout that adds it after signing, whose signature evidence (the base string) holds it; and a
      // value that only starts like the key.
      answers.push(await send(listener.url, OP.SALE, [['merchant_control', KEY]]));
      answers.push(await send(listener.url, OP.SALE, [], { 'x-merchant-control': KEY }));
      answers.push(await send(listener.url, OP.SALE, [['control_key', KEY.replaceAll('-', '%2D')]]));
      answers.push(await send(listener.url, OP.PAYOUT, [], {}, `&merchant_control=${KEY}`));
      answers.push(await send(listener.url, OP.SALE, [['order_desc', KEY.slice(0, -2)]]));
      // The key in a header of a request a head rule refuses first (Accept): inspect still names the key first.
      answers.push(await send(listener.url, OP.SALE, [], { 'x-merchant-control': KEY, accept: '*/*' }));
    } finally {
      await listener.close();
    }
    for (const a of answers.slice(0, 4)) {
      assert.equal(a.status, 400, a.text);
      assert.equal((JSON.parse(a.text) as Record<string, string>)['error-code'], 'CONTROL_KEY_SENT');
      for (const form of WRITTEN) assert.ok(!a.text.includes(form), a.text);
    }
    assert.equal(answers[4]?.status, 200, answers[4]?.text);

    const records: readonly InspectRecord[] = listener.records;
    assert.equal(records.length, 6);
    assert.equal(answers[5]?.status, 406, answers[5]?.text);
    assert.match(recordLine(records[5]!), /^#6 SALE → 406: CRITICAL FAIL no-control-key-in-request: leak: [^;]*header/);
    const where = [
      'the form field "merchant_control"',
      'the header "x-merchant-control"',
      'the form field "control_key"',
    ];
    records.slice(0, 4).forEach((r, i) => {
      assert.match(recordLine(r), /^#\d+ \S+ → 400: CRITICAL FAIL no-control-key-in-request: leak: /);
      if (where[i]) assert.ok(recordLine(r).includes(where[i]), recordLine(r));
      assert.equal(r.verdict.critical, true);
    });
    assert.equal(records[4]?.verdict.checks.find((c) => c.id === 'no-control-key-in-request')?.outcome, 'pass');
    // The payout's signature failed too, its evidence redacted: the base string is there, the key is not.
    const payout = records[3]?.verdict.checks.find((c) => c.id === 'oauth-signature');
    assert.match(payout?.signature?.correct?.baseString ?? '', /merchant_control%3D<redacted>/);

    const out = join(dir, 'report');
    const now = new Date().toISOString();
    const meta = { target: listener.target, startedAt: now, finishedAt: now, version: 'test' };
    const summary = writeInspectReport(out, records, meta);
    assert.equal(summary.critical, 5);
    assert.equal(summary.causes[0]?.rule, 'no-control-key-in-request');
    assert.equal(summary.causes[0]?.critical, true);
    const json = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as {
      checks: Record<string, { severity?: string }>;
    };
    assert.equal(json.checks['no-control-key-in-request']?.severity, 'critical');
    // JUnit: each such request's first test case is the critical failure.
    const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
    const firstCases = [...junit.matchAll(/<testcase classname="request (\d+) [^"]*" name="([^"]*)"/g)].filter(
      (m, i, all) => i === 0 || all[i - 1]?.[1] !== m[1],
    );
    assert.deepEqual(
      firstCases.filter((m) => m[1] !== '5').map((m) => m[2]),
      Array(5).fill('the merchant control key is never sent [no-control-key-in-request]'),
    );
    assert.match(
      junit,
      /<failure message="CRITICAL: leak: the merchant control key is sent in [^"]*" type="critical">/,
    );
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    assert.match(html, /<p id="critical" class="critical"><strong>CRITICAL: 5 request\(s\)/);
    assert.match(
      html,
      /<article class="cause critical"><h3><strong class="critical">CRITICAL<\/strong> no-control-key/,
    );
    assert.ok(html.indexOf('class="cause critical"') < html.indexOf('class="cause"'), 'the critical cause leads');
    // Grep the bundle: no file holds the key.
    for (const file of readdirSync(out)) {
      const text = readFileSync(join(out, file), 'utf8');
      for (const form of WRITTEN) assert.ok(!text.includes(form), `${file} holds the key as ${form}`);
    }
  });

  it('behind --upstream is answered 400 by inspect and not forwarded; a request without the key is', async () => {
    // A sandbox that counts what reaches it and answers every request alike.
    const reached: string[] = [];
    const sandbox = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('latin1')));
      req.on('end', () => {
        reached.push(body);
        res.writeHead(200, { 'content-type': 'application/vnd.pay+json' });
        res.end('{}');
      });
    });
    await new Promise<void>((done) => sandbox.listen(0, '127.0.0.1', done));
    const { port } = sandbox.address() as AddressInfo;
    const listener = await startListener({ merchants: [merchant], upstream: `http://127.0.0.1:${port}` });
    try {
      const refused = await send(listener.url, OP.SALE, [['merchant_control', KEY]]);
      const clean = await send(listener.url, OP.SALE, []);
      assert.equal(refused.status, 400);
      assert.match(refused.text, /not forwarded/);
      assert.ok(!refused.text.includes(KEY), 'the refusal echoes the key');
      assert.equal(clean.status, 200, 'a request without the key is relayed');
      assert.equal(reached.length, 1, `${reached.length} requests reached the sandbox`);
      assert.ok(!reached.some((body) => body.includes(KEY)), 'the key reached the sandbox');
      const [first] = listener.records;
      assert.equal(first?.verdict.critical, true);
      assert.match(first?.refused ?? '', /not forwarded/);
    } finally {
      await listener.close();
      await new Promise((done) => sandbox.close(done));
    }
  });
});
