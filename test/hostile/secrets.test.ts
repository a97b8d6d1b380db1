// A gateway that echoes card data and the control key (the echo-card-data and leak-control-key broken mocks):
// certify fails it under the rule made for it, and none of its echoes reaches summary.json, report.html,
// junit.xml, messages.ndjson, cucumber.html or the console; `payconform send` prints none of them either.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';

const entry = new URL('./payconform-tsx.ts', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'payconform-secrets-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const payconform = (args: string[]) => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', entry, ...args], {
    encoding: 'utf8',
    env: { ...process.env, CI: 'true' },
  });
  return { code: r.status, out: r.stdout + r.stderr };
};

const CONTROL_KEY = testMerchant().merchantControlKey;
// The card and CVV the suite sends in a SALE (the request schema's examples, src/schemas/requests.ts).
const PAN = '4111111111111111';
const CVV = '123';
/** What only an unredacted echo would show: the key, the whole card number, the CVV beside its name. */
function leaks(text: string): string[] {
  const found = [CONTROL_KEY, PAN].filter((s) => text.includes(s));
  const cvvInContext = new RegExp(String.raw`cvv2?(?:\\*"|%22|%3D|[\s:=])+${CVV}(?![0-9])`, 'i');
  if (cvvInContext.test(text)) found.push(`cvv2 … ${CVV}`);
  return found;
}

const FILES = ['summary.json', 'report.html', 'junit.xml', 'messages.ndjson', 'cucumber.html'];

describe('a gateway that echoes secrets', () => {
  it('echo-card-data: fails no-cvv-in-answer, and no file or console line shows the card number or CVV', () => {
    const report = join(dir, 'echo');
    const r = payconform([
      'certify',
      '--defect',
      'echo-card-data',
      '--tags',
      '@endpoint:SALE and (@negative:signature-wrong or @negative:signature-missing)',
      '--report-dir',
      report,
    ]);
    assert.equal(r.code, 1, r.out.slice(-2000));
    assert.match(r.out, /no-cvv-in-answer/, 'the rule is named on the console');
    const summary = readFileSync(join(report, 'summary.json'), 'utf8');
    assert.match(summary, /no-cvv-in-answer/, 'the rule is named in the certificate');
    assert.match(readFileSync(join(report, 'report.html'), 'utf8'), /no-cvv-in-answer/);
    // The echo was attached (so the files were tested with it in them), masked.
    const messages = readFileSync(join(report, 'messages.ndjson'), 'utf8');
    assert.match(messages, /x-card-check: card=411111\*{6}1111; cvv2=\*\*\*/);
    for (const file of FILES) assert.deepEqual(leaks(readFileSync(join(report, file), 'utf8')), [], file);
    assert.deepEqual(leaks(r.out), [], 'console');
  });

  it('leak-control-key: no file or console line shows the control key', () => {
    const report = join(dir, 'key');
    const r = payconform([
      'certify',
      '--defect',
      'leak-control-key',
      '--tags',
      '@endpoint:SALE and @scheme:control and @negative:signature-wrong',
      '--report-dir',
      report,
    ]);
    assert.equal(r.code, 1, r.out.slice(-2000));
    assert.match(readFileSync(join(report, 'summary.json'), 'utf8'), /no-control-key-in-answer/);
    assert.match(readFileSync(join(report, 'messages.ndjson'), 'utf8'), /then <redacted>/);
    for (const file of FILES) assert.deepEqual(leaks(readFileSync(join(report, file), 'utf8')), [], file);
    assert.deepEqual(leaks(r.out), [], 'console');
  });

  describe('a gateway of its own, run against without --strict: its echoes become warnings', () => {
    let server: Server;
    let url = '';
    before(async () => {
      // Refuses everything, its error code and message quoting the control key, the card and the CVV.
      const echo = `key ${CONTROL_KEY}, card ${PAN}, cvv2=${CVV}`;
      server = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          res.writeHead(400, { 'content-type': 'application/vnd.pay+json', 'x-echo': echo });
          res.end(JSON.stringify({ type: 'validation-error', 'error-code': echo, 'error-message': echo }));
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/paynet`;
    });
    after(() => server.close());

    it("writes a warning's actual (the gateway's own error code) redacted", async () => {
      const merchant = testMerchant();
      const report = join(dir, 'own');
      // Spawned, not spawnSync: the gateway answers from this process.
      const child = spawn(
        process.execPath,
        [
          ...['--import', 'tsx', entry, 'certify', '--base-url', url, '--report-dir', report],
          ...['--tags', '@endpoint:SALE and @negative:field-missing'],
        ],
        {
          env: {
            ...process.env,
            CI: 'true',
            PAYCONFORM_ENDPOINT_ID: '1001',
            PAYCONFORM_LOGIN: merchant.login,
            PAYCONFORM_CONTROL_KEY: CONTROL_KEY,
            PAYCONFORM_PRIVATE_KEY_FILE: TEST_MERCHANT_PRIVATE_KEY_FILE,
          },
        },
      );
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (out += c.toString()));
      await new Promise((resolve) => child.on('close', resolve));
      const bundle = report;
      assert.match(out, /PASSED WITH WARNINGS/, out.slice(-3000));
      const summary = readFileSync(join(bundle, 'summary.json'), 'utf8');
      assert.match(summary, /key <redacted>, card 411111\*{6}1111, cvv2=\*\*\*/, 'the warning was written, redacted');
      for (const file of FILES) assert.deepEqual(leaks(readFileSync(join(bundle, file), 'utf8')), [], file);
      assert.deepEqual(leaks(out), [], 'console');
    });
  });

  describe('payconform send', () => {
    let mock: ChildProcess;
    let url = '';
    before(async () => {
      mock = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          entry,
          'mock',
          '--port',
          '0',
          '--prefix',
          '/paynet',
          '--quiet',
          '--defect',
          'echo-card-data',
        ],
        { stdio: ['ignore', 'pipe', 'ignore'] },
      );
      url = await new Promise<string>((resolve) =>
        mock.stdout?.on('data', (c: Buffer) => {
          const m = /listening on (\S+)/.exec(c.toString());
          if (m?.[1] !== undefined) resolve(m[1]);
        }),
      );
    });
    after(() => mock.kill('SIGTERM'));

    it('prints the refusal without the card number or the CVV it echoes, as text and as JSON', () => {
      const merchant = testMerchant();
      const keyFile = join(dir, 'control-key');
      writeFileSync(keyFile, merchant.merchantControlKey);
      for (const json of [[], ['--json']]) {
        // A SALE without most of its fields: refused as FIELD_MISSING, after the card fields were read.
        const r = payconform([
          'send',
          'SALE',
          '--base-url',
          `${url}/paynet`,
          '--endpoint-id',
          '1001',
          '--login',
          merchant.login,
          '--control-key-file',
          keyFile,
          ...['client_orderid=PC-SECRETS-1', 'amount=10.00', 'email=a@example.com'].flatMap((p) => ['--param', p]),
          '--param',
          `credit_card_number=${PAN}`,
          '--param',
          `cvv2=${CVV}`,
          ...json,
        ]);
        // The leak rules rest on assumptions: send warns, and the refusal itself is the spec's.
        assert.equal(r.code, 0, r.out);
        assert.match(r.out, /echoes the CVV the request sent/, 'the rule found the echo');
        assert.deepEqual(leaks(r.out), [], r.out);
      }
    });
  });
});
