// sign, verify, explain and diagnose with --callback: the gateway's callback control, checked
// against sha1sum over a concatenation written here by hand.
import { execFileSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../support/cli.ts';

const KEY = 'SECRET-callback-7d1';
const sha1sum = (text: string): string =>
  execFileSync('sha1sum', { input: Buffer.from(text, 'utf8') })
    .toString()
    .slice(0, 40);
const fields = [
  '--param',
  'orderid=100000123',
  '--param',
  'merchant_order=ORD-1',
  '--param',
  'client_orderid=ORD-1',
  '--param',
  'amount=10.29',
  '--param',
  'status=approved',
  '--param',
  'type=sale',
];
const right = sha1sum(`approved100000123ORD-1${KEY}`);

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const r = await runCli(args, { PAYCONFORM_CONTROL_KEY: KEY });
  assert.ok(!(r.out + r.err).includes(KEY), 'the key is never printed');
  return r;
}

describe('--callback', () => {
  it('sign gives SHA-1(status + orderid + client_orderid + key): no amount', async () => {
    const { code, out } = await cli(['sign', '--callback', ...fields, '--json']);
    assert.equal(code, 0);
    const json = JSON.parse(out) as { control: string; controlInput: string };
    assert.equal(json.control, right);
    assert.equal(json.controlInput, 'approved100000123ORD-1<merchant_control_key>');
  });

  it('verify: exit 0 for the right control, 1 for another', async () => {
    assert.equal((await cli(['verify', '--callback', ...fields, '--control', right])).code, 0);
    const wrong = await cli(['verify', '--callback', ...fields, '--control', sha1sum(`declined100000123ORD-1${KEY}`)]);
    assert.equal(wrong.code, 1);
    assert.match(wrong.out, /invalid \(mismatch\)/);
  });

  it("verify names a missing and a malformed control in the callback rule's words; a missing formula field is bad input", async () => {
    const missing = await cli(['verify', '--callback', ...fields]);
    assert.equal(missing.code, 1);
    assert.match(missing.out, /invalid \(missing\)/);
    assert.match(missing.out, /control: missing in the callback/);
    const malformed = await cli(['verify', '--callback', ...fields, '--control', right.toUpperCase()]);
    assert.equal(malformed.code, 1);
    assert.match(malformed.out, /invalid \(malformed\)/);
    assert.match(malformed.out, /control: must be 40 lowercase hex digits \(SHA-1\)/);
    const noStatus = ['--param', 'orderid=100000123', '--param', 'client_orderid=ORD-1', '--control', right];
    const bad = await cli(['verify', '--callback', ...noStatus]);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /status: is missing; the CALLBACK control formula/);
  });

  it('diagnose names the amount added to the formula, the fields in another order and uppercase hex', async () => {
    const cases: Array<[string, string]> = [
      ['amount-in-formula', sha1sum(`approved100000123ORD-110.29${KEY}`)],
      ['amount-in-formula', sha1sum(`approved100000123ORD-11029${KEY}`)],
      ['fields-wrong-order', sha1sum(`100000123approvedORD-1${KEY}`)],
      ['uppercase-hex', right.toUpperCase()],
    ];
    for (const [defect, control] of cases) {
      const { code, out } = await cli(['diagnose', '--callback', ...fields, '--control', control, '--json']);
      assert.equal(code, 1);
      assert.ok((JSON.parse(out) as { defects: string[] }).defects.includes(defect), `${defect}: ${out}`);
    }
    const valid = await cli(['diagnose', '--callback', ...fields, '--control', right]);
    assert.equal(valid.code, 0);
  });

  it('diagnose reads a raw callback POST', async () => {
    const body = `orderid=100000123&merchant_order=ORD-1&client_orderid=ORD-1&amount=10.29&status=approved&type=sale&control=${sha1sum(`ORD-1approved100000123${KEY}`)}`;
    const raw = `POST /payment/callback HTTP/1.1\r\nHost: merchant.example\r\n\r\n${body}`;
    const dir = mkdtempSync(join(tmpdir(), 'payconform-callback-'));
    writeFileSync(join(dir, 'callback.http'), raw);
    const { code, out } = await cli(['diagnose', '--callback', '--request-file', join(dir, 'callback.http'), '--json']);
    rmSync(dir, { recursive: true, force: true });
    assert.equal(code, 1);
    assert.ok((JSON.parse(out) as { defects: string[] }).defects.includes('fields-wrong-order'));
  });

  it("diagnose reads a raw callback GET, as the public gateways send it: the fields from the query, the URL's own first", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payconform-callback-'));
    const query = (control: string): string =>
      `shop=main&orderid=100000123&merchant_order=ORD-1&client_orderid=ORD-1&amount=10.29&status=approved&type=sale&control=${control}`;
    writeFileSync(
      join(dir, 'wrong.http'),
      `GET /payment/callback.php?${query(sha1sum(`approved100000123ORD-110.29${KEY}`))} HTTP/1.1\r\nHost: merchant.example\r\n\r\n`,
    );
    writeFileSync(
      join(dir, 'right.http'),
      `GET /payment/callback.php?${query(right)} HTTP/1.1\r\nHost: merchant.example\r\n\r\n`,
    );
    const wrong = await cli(['diagnose', '--callback', '--request-file', join(dir, 'wrong.http'), '--json']);
    const ok = await cli(['diagnose', '--callback', '--request-file', join(dir, 'right.http')]);
    rmSync(dir, { recursive: true, force: true });
    assert.equal(wrong.code, 1);
    assert.ok((JSON.parse(wrong.out) as { defects: string[] }).defects.includes('amount-in-formula'), wrong.out);
    assert.equal(ok.code, 0, ok.out + ok.err);
  });

  it('diagnose refuses a raw callback GET whose Host makes no URL: one line naming the file, exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payconform-callback-'));
    for (const host of ['[', 'a b']) {
      writeFileSync(join(dir, 'bad.http'), `GET /cb?status=approved HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
      const { code, err } = await cli(['diagnose', '--callback', '--request-file', join(dir, 'bad.http')]);
      assert.equal(code, 2, err);
      assert.equal(err.trim().split('\n').length, 1, err);
      assert.match(err, /--request-file: a callback GET needs an absolute URL/);
      assert.doesNotMatch(err, /internal error|TypeError|\n\s+at /);
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('explain shows the formula, the concatenation and the digest', async () => {
    const { code, out } = await cli(['explain', '--callback', ...fields]);
    assert.equal(code, 0);
    assert.match(out, /SHA-1\(status \+ orderid \+ client_orderid \+ merchant_control_key\)/);
    assert.match(out, new RegExp(right));
  });

  it('refuses a request URL, and names a missing formula field', async () => {
    const url = await cli(['sign', '--callback', '--url', 'https://x.example/api/v2/sale/1', ...fields]);
    assert.equal(url.code, 2);
    assert.match(url.err, /--url: names a request to the gateway/);
    const missing = await cli(['sign', '--callback', '--param', 'status=approved', '--param', 'client_orderid=A']);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /orderid: is missing; the CALLBACK control formula/);
    assert.doesNotMatch(missing.err, /\n\s+at /, 'no stack trace');
  });
});
