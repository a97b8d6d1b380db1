// The debugger page's engine, in node: each form of pasted request, the steps with the key masked, the
// first difference, the diagnosis, and the exports (a vector `vectors check` accepts, the pack README, a
// link without keys). Expected digests are recomputed here with node:crypto from hand-written strings.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runCase } from '../../src/debugger/engine.ts';
import { inputFromFragment } from '../../src/debugger/export-case.ts';
import { readRequest } from '../../src/debugger/request-text.ts';
import { checkVector } from '../../src/vectors/check.ts';
import { parseVectorFile } from '../../src/vectors/load.ts';
import { runCli } from '../support/cli.ts';

const KEY = 'TEST-ONLY k&y';
const sha1 = (s: string): string => createHash('sha1').update(s).digest('hex');
const RAW_SALE = (control: string): string =>
  'POST /paynet/api/v2/sale/1234 HTTP/1.1\r\nHost: sandbox.gateway.example\r\n' +
  `Content-Type: application/x-www-form-urlencoded\r\n\r\nclient_orderid=A-1&amount=10.00&email=a%40b.c&control=${control}`;
// SALE's formula (api-spec.md Scheme A): endpointId + client_orderid + amount in cents + email + key.
const SALE_CONTROL = sha1(`1234A-11000a@b.c${KEY}`);
const PEM_DIR = new URL('../../vectors/keys/', import.meta.url).pathname;
const PRIVATE_PEM = readFileSync(`${PEM_DIR}test-only-merchant-rsa-2048.pem`, 'utf8');
const PUBLIC_PEM = readFileSync(`${PEM_DIR}test-only-merchant-rsa-2048.pub.pem`, 'utf8');

describe('reading what was pasted into "Request"', () => {
  it('reads a raw request, a curl command and operation-and-fields into the same request', () => {
    const raw = readRequest(RAW_SALE('x'));
    const curl = readRequest(
      "curl -sS -X POST 'https://sandbox.gateway.example/paynet/api/v2/sale/1234' \\\n" +
        "  -H 'Content-Type: application/x-www-form-urlencoded' \\\n" +
        "  -d \"client_orderid=A-1\" --data-raw 'amount=10.00' --data-urlencode 'email=a@b.c' -d control=x",
    );
    const fields = readRequest('SALE 1234\nclient_orderid=A-1\namount=10.00\nemail=a@b.c\ncontrol=x');
    assert.deepEqual(
      [raw.format, curl.format, fields.format],
      ['raw HTTP request', 'curl command', 'operation and fields'],
    );
    for (const read of [curl, fields]) assert.deepEqual(read.request, raw.request);
    assert.equal(raw.request.url, 'https://sandbox.gateway.example/paynet/api/v2/sale/1234');
  });

  it('reads a HAR entry, or a whole HAR file by its first POST, as a browser exports it', () => {
    const url = 'https://sandbox.gateway.example/paynet/api/v2/sale/1234';
    const entry = {
      startedDateTime: '2026-11-28T10:00:01.000Z',
      request: {
        method: 'POST',
        url,
        headers: [{ name: 'Content-Type', value: 'application/x-www-form-urlencoded' }],
        postData: {
          mimeType: 'application/x-www-form-urlencoded',
          text: 'client_orderid=A-1&amount=10.00&email=a%40b.c&control=x',
        },
      },
      response: { status: 200, content: { text: '{}' } },
    };
    const raw = readRequest(RAW_SALE('x'));
    const one = readRequest(JSON.stringify(entry, null, 2));
    assert.equal(one.format, 'HAR');
    assert.deepEqual(one.request, raw.request);
    const page = { request: { method: 'GET', url: 'https://shop.example/', headers: [] }, response: { status: 200 } };
    const file = readRequest(JSON.stringify({ log: { version: '1.2', entries: [page, entry] } }));
    assert.deepEqual(file.request, raw.request);
    // postData's params when it has no text, and the Authorization header of an OAuth request.
    const oauth = {
      request: {
        method: 'POST',
        url,
        headers: [{ name: 'authorization', value: 'OAuth oauth_nonce="n"' }],
        postData: { params: [{ name: 'a', value: '1' }] },
      },
    };
    const read = readRequest(JSON.stringify(oauth));
    assert.equal(read.authorization, 'OAuth oauth_nonce="n"');
    assert.deepEqual(read.request.params, [['a', '1']]);
  });

  it("takes curl's Authorization header and $'…' quoting, and a callback's GET query", () => {
    const read = readRequest(
      'curl $\'https://gw.example/paynet/api/v4/sale/9\' -H "Authorization: OAuth oauth_nonce=\\"n\\"" -d \'a=1\'',
    );
    assert.equal(read.authorization, 'OAuth oauth_nonce="n"');
    assert.equal(read.request.method, 'POST');
    const callback = readRequest('GET /cb?status=approved&orderid=7 HTTP/1.1\nHost: merchant.example\n\n', true);
    assert.deepEqual(callback.request.params, [
      ['status', 'approved'],
      ['orderid', '7'],
    ]);
  });

  it('names the field "Request" and the rule in one line when it cannot read it', () => {
    for (const [text, rule] of [
      ['', /^Request: is empty/],
      ['curl https://a.example -d @body.txt', /^Request: curl -d @file cannot be read here/],
      ["curl 'https://a.example", /^Request: the curl command has an unclosed ' quote$/],
      ['SALE', /^Request: first line must be "OPERATION ENDPOINTID/],
      ['SALE 1234\nno equals sign', /^Request: line "no equals sign" is not name=value$/],
      ['POST /x HTTP/1.1\n\n', /^Request: needs a Host header/],
      ['{"log": ', /^Request: starts with "\{" but is not JSON/],
      ['{"log": {"entries": []}}', /^Request: the HAR file holds no POST request$/],
      ['{"request": {"method": "POST"}}', /^Request: a HAR request needs "method" and "url" strings$/],
    ] as const) {
      const r = runCase({ request: text });
      assert.match(r.error ?? '', rule, text);
      assert.ok(!(r.error ?? '').includes('\n'), 'one line');
    }
  });
});

describe('a control case', () => {
  it('shows every step with the key masked, and the verdict valid for the correct control', () => {
    const r = runCase({ request: RAW_SALE(SALE_CONTROL), controlKey: KEY });
    assert.equal(r.verdict, 'valid');
    assert.equal(r.endpoint, 'SALE /api/v2/sale/{endpointId}');
    assert.deepEqual(
      r.steps.map((s) => s.step),
      ['endpoint', 'formula', 'cents', 'concatenation', 'digest'],
    );
    assert.equal(r.steps.find((s) => s.step === 'cents')?.value, '1000');
    assert.equal(r.steps.find((s) => s.step === 'concatenation')?.value, '1234A-11000a@b.c<merchant_control_key>');
    assert.equal(r.steps.at(-1)?.value, SALE_CONTROL);
    assert.ok(!JSON.stringify(r).includes(KEY), 'the key appears nowhere unless shown');
    const shown = runCase({ request: RAW_SALE(SALE_CONTROL), controlKey: KEY, showKey: true });
    assert.equal(shown.steps.find((s) => s.step === 'concatenation')?.value, `1234A-11000a@b.c${KEY}`);
  });

  it('marks the first differing character and names the mistake that reproduces the value', () => {
    // The decimal amount instead of cents: "10.00" where "1000" belongs.
    const sent = sha1(`1234A-110.00a@b.c${KEY}`);
    const r = runCase({ request: RAW_SALE(sent), controlKey: KEY });
    assert.equal(r.verdict, 'invalid');
    assert.deepEqual(
      r.mistakes.map((m) => m.id),
      ['decimal-amount'],
    );
    let i = 0;
    while (SALE_CONTROL[i] === sent[i]) i++;
    assert.deepEqual([r.value?.correct, r.value?.sent, r.value?.difference?.position], [SALE_CONTROL, sent, i]);
    // What the partner concatenated against what the spec does: the first difference is at the amount.
    assert.equal(r.covered?.difference?.position, '1234A-110'.length);
  });

  it('says which field of the page to fill when the key is missing', () => {
    const r = runCase({ request: RAW_SALE(SALE_CONTROL) });
    assert.equal(r.error, 'Control key: missing (paste it into "Control key")');
  });
});

describe('an OAuth case', () => {
  it('recomputes HMAC-SHA1 with the nonce and timestamp sent, and finds the signature valid', () => {
    const base =
      'POST&https%3A%2F%2Fgw.example%2Fpaynet%2Fapi%2Fv2%2Fpayout%2F7&amount%3D10.00%26oauth_consumer_key%3Dm' +
      '%26oauth_nonce%3Dn1%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1700000000%26oauth_version%3D1.0';
    const signature = createHmac('sha1', 'TEST-ONLY%20k%26y&').update(base).digest('base64');
    const header =
      'OAuth oauth_consumer_key="m", oauth_nonce="n1", oauth_signature_method="HMAC-SHA1", ' +
      `oauth_timestamp="1700000000", oauth_version="1.0", oauth_signature="${encodeURIComponent(signature)}"`;
    const r = runCase({
      request: `PAYOUT 7 https://gw.example/paynet\namount=10.00\nAuthorization: ${header}`,
      controlKey: KEY,
    });
    assert.equal(r.steps.find((s) => s.step === 'base-string')?.value, base);
    assert.equal(r.verdict, 'valid', r.message);
    assert.equal(r.value?.difference, null);
    assert.match(r.steps.find((s) => s.step === 'key')?.value ?? '', /^enc\(<merchant_control_key>\)&$/);
    const shown = runCase({
      request: `PAYOUT 7 https://gw.example/paynet\namount=10.00\nAuthorization: ${header}`,
      controlKey: KEY,
      showKey: true,
    });
    assert.equal(shown.steps.find((s) => s.step === 'key')?.value, 'TEST-ONLY%20k%26y&');
  });

  it('verifies RSA-SHA256 with the public key alone, and signs with the private key', () => {
    const signed = runCase({
      request:
        'PAYOUT_V4_CHECK 12 https://gw.example/paynet\nclient_orderid=A\namount=1.00\nAuthorization: OAuth oauth_nonce="n", oauth_timestamp="1700000000"',
      login: 'm',
      privateKeyPem: PRIVATE_PEM,
    });
    const header = signed.steps.find((s) => s.step === 'authorization')?.value ?? '';
    assert.match(header, /oauth_signature_method="RSA-SHA256"/);
    const request = `PAYOUT_V4_CHECK 12 https://gw.example/paynet\nclient_orderid=A\namount=1.00\nAuthorization: ${header}`;
    const verified = runCase({ request, login: 'm', publicKeyPem: PUBLIC_PEM });
    assert.equal(verified.verdict, 'valid', verified.message);
    assert.match(verified.steps.find((s) => s.step === 'signature')?.title ?? '', /verified with the public key/);
    // The pack README shows the signature the spec gives, which only the private key makes.
    assert.match(verified.packReadmeMissing ?? '', /^Private key: missing \(paste it into "Private key"/);
    const tampered = runCase({
      request: request.replace('amount=1.00', 'amount=1.01'),
      login: 'm',
      publicKeyPem: PUBLIC_PEM,
    });
    assert.equal(tampered.verdict, 'invalid');
  });
});

describe('handing the case back', () => {
  it('exports a vector that vectors check accepts with the key filled in, and never holds the key', async () => {
    const sent = sha1(`1234A-110.00a@b.c${KEY}`);
    const r = runCase({ request: RAW_SALE(sent), controlKey: KEY });
    const text = r.vectorFile ?? '';
    assert.ok(!text.includes(KEY), 'the key is a placeholder');
    assert.throws(() => parseVectorFile(text, 'case.json'), /PAYCONFORM_CONTROL_KEY/);
    const file = parseVectorFile(text, 'case.json', { controlKey: KEY });
    const [vector] = file.vectors;
    assert.deepEqual(vector?.expected, { verdict: 'invalid', defect: 'decimal-amount' });
    assert.equal(vector && checkVector(vector).passed, true);
    // The command a partner runs on the saved file, with the key from the environment.
    const saved = join(mkdtempSync(join(tmpdir(), 'payconform-case-')), 'case.json');
    writeFileSync(saved, text);
    const cli = await runCli(['vectors', 'check', saved], { PAYCONFORM_CONTROL_KEY: KEY });
    assert.equal(cli.code, 0, cli.out + cli.err);
    assert.match(cli.out, /\b1 passed, 0 failed/);
    rmSync(dirname(saved), { recursive: true, force: true });
    // A broken export is noticed: the other verdict fails the check.
    const wrong = parseVectorFile(text.replace('"invalid"', '"valid"'), 'case.json', { controlKey: KEY });
    assert.equal(wrong.vectors[0] && checkVector(wrong.vectors[0]).passed, false);
  });

  it('gives the partner-pack README of the operation, with the key as a placeholder', () => {
    const r = runCase({ request: RAW_SALE(SALE_CONTROL), controlKey: KEY });
    assert.match(r.packReadme ?? '', /^# SALE: signature vectors/);
    assert.ok((r.packReadme ?? '').includes(SALE_CONTROL));
    assert.ok(!(r.packReadme ?? '').includes(KEY));
  });

  it('puts the request and login in the link, never a key', () => {
    const input = {
      request: RAW_SALE(SALE_CONTROL),
      login: 'm',
      controlKey: KEY,
      privateKeyPem: PRIVATE_PEM,
      publicKeyPem: PUBLIC_PEM,
      callback: false,
    };
    const { fragment } = runCase(input);
    // Read back as the page reads it: no field of the link holds a key, however it is encoded.
    const fields = [...new URLSearchParams(fragment.slice(1))];
    assert.deepEqual(fields.map(([name]) => name).sort(), ['login', 'request']);
    for (const [, value] of fields)
      for (const secret of [KEY, 'PRIVATE KEY', 'PUBLIC KEY']) assert.ok(!value.includes(secret), secret);
    assert.deepEqual(inputFromFragment(fragment), { request: input.request, login: 'm', callback: false });
  });
});
