import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/cli.ts';
import { oauthHeaderWithMistake } from '../../src/signing/diagnose/index.ts';
import { diagnosisVectors } from '../../src/vectors/diagnosis-vectors.ts';
import { diagnosesDoc } from '../../scripts/diagnoses-doc.ts';

const KEY = 'SECRET-diag-51e';
const PAN = '4111111111111111';
let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'payconform-diagnose-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function cli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; out: string; err: string }> {
  const { code, out, err } = await runCli(args, { PAYCONFORM_CONTROL_KEY: KEY, PAYCONFORM_LOGIN: 'm', ...env });
  assert.ok(!(out + err).includes(KEY) && !(out + err).includes(PAN), 'no key and no full card number in the output');
  return { code, out, err };
}

const url = 'https://sandbox.gateway.example/paynet/api/v2/payout/77';
const params: Array<[string, string]> = [
  ['order_desc', 'two words'],
  ['amount', '10.00'],
  ['credit_card_number', PAN],
];
const header = (mistake: string) =>
  oauthHeaderWithMistake(mistake, {
    request: { url, params },
    credentials: { login: 'm', controlKey: KEY },
    method: 'HMAC-SHA1',
    nonce: 'n',
    timestamp: '1700000000',
  })!;
const flags = ['--url', url, ...params.flatMap(([n, v]) => ['--param', `${n}=${v}`])];

describe('payconform diagnose', () => {
  it('exits 0 for a valid signature', async () => {
    assert.equal((await cli(['diagnose', ...flags, '--authorization', header('none')])).code, 0);
  });

  it('names the mistake, its fix and both base strings with a caret, and exits 1', async () => {
    const r = await cli(['diagnose', ...flags, '--authorization', header('plus-for-space')]);
    assert.equal(r.code, 1);
    assert.match(r.out, /defect\s+plus-for-space: "\+" for a space/);
    assert.match(r.out, /fix\s+Use RFC 3986 encoding/);
    assert.match(r.out, /correct\s+POST&.*two%2520words/);
    assert.match(r.out, /partner\s+POST&.*two%2Bwords/);
    assert.match(r.out, /\^ first difference at position \d+/);
  });

  it('names truncated-cents for a sale of 0.29 signed over 28 cents, with its fix', async () => {
    const sale = 'https://sandbox.gateway.example/paynet/api/v2/sale/77';
    // The concatenation a (int)($amount * 100) integration signs, written out: endpointId, order id, 28, email, key.
    const control = createHash('sha1').update(`77A-728e@x${KEY}`).digest('hex');
    const r = await cli([
      'diagnose',
      '--url',
      sale,
      '--param',
      'client_orderid=A-7',
      '--param',
      'amount=0.29',
      '--param',
      'email=e@x',
      '--control',
      control,
    ]);
    assert.equal(r.code, 1);
    assert.match(r.out, /defect\s+truncated-cents: cents truncated from amount × 100 in floating point/);
    assert.match(
      r.out,
      /fix\s+Compute cents from the decimal string with integer arithmetic, or round instead of truncating/,
    );
    assert.match(r.out, /correct\s+77A-729e@x<merchant_control_key>/);
    assert.match(r.out, /partner\s+77A-728e@x<merchant_control_key>/);
    assert.doesNotMatch(r.out, /^tried/m);
  });

  it('lists the mistakes it tried when none reproduces the signature', async () => {
    const unrelated = header('none').replace(
      /oauth_signature="[^"]*"/,
      'oauth_signature="AAAAAAAAAAAAAAAAAAAAAAAAAAA%3D"',
    );
    const r = await cli(['diagnose', ...flags, '--authorization', unrelated]);
    assert.equal(r.code, 1);
    assert.match(
      r.out,
      /reason\s+HMAC-SHA1 signature does not match; no known mistake reproduces it \(all 23 known OAuth mistakes/,
    );
    assert.match(r.out, /tried\s+double-encoding, query-not-decoded, plus-for-space, /);
    assert.doesNotMatch(r.out, /^defect/m);
  });

  it('reads a raw HTTP request from a file, and prints JSON', async () => {
    const file = join(dir, 'request.http');
    const body = params.map(([n, v]) => `${n}=${encodeURIComponent(v)}`).join('&');
    writeFileSync(
      file,
      `POST /paynet/api/v2/payout/77 HTTP/1.1\r\nHost: sandbox.gateway.example\r\nAuthorization: ${header('double-encoding')}\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\n${body}`,
    );
    const r = await cli(['diagnose', '--request-file', file, '--json']);
    assert.equal(r.code, 1);
    const d = JSON.parse(r.out);
    assert.deepEqual([d.verdict, d.defects], ['invalid', ['double-encoding']]);
  });

  it('refuses a bad request file or scheme with one line and exit 2', async () => {
    const file = join(dir, 'bad.http');
    writeFileSync(file, 'hello\n\n');
    for (const [args, message] of [
      [['--request-file', file], /first line must be like "POST/],
      [['--request-file', join(dir, 'none.http')], /cannot read/],
      [['--request-file', file, '--scheme', 'ftp'], /--scheme: must be http or https/],
    ] as const) {
      const r = await cli(['diagnose', ...args]);
      assert.equal(r.code, 2);
      assert.match(r.err, message);
      assert.equal(r.err.trim().split('\n').length, 1);
    }
  });
});

describe('generated diagnosis files', () => {
  it('vectors/diagnoses.json is what src/vectors/diagnosis-vectors.ts makes (npm run vectors:diagnoses)', () => {
    assert.equal(
      readFileSync(new URL('../../vectors/diagnoses.json', import.meta.url), 'utf8'),
      `${JSON.stringify(diagnosisVectors(), null, 2)}\n`,
    );
  });
  it('docs/diagnoses.md is what the mistake table makes (npm run docs:diagnoses)', () => {
    assert.equal(readFileSync(new URL('../../docs/diagnoses.md', import.meta.url), 'utf8'), diagnosesDoc());
  });
});
