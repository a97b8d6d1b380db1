// `payconform certify`: a full run against the embedded mock writes a bundle whose manifest holds;
// a run against a separately started mock with a wrong control key fails, attaches the exchanges,
// and neither bundle nor console shows a secret or a full card number.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAGIC_CARDS } from '../src/mock/magic.ts';
import { scenarioResults } from '../src/report/bundle.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../src/mock/merchants.ts';
import { runCli } from './support/cli.ts';

const bin = new URL('../bin/payconform.js', import.meta.url).pathname;
const merchant = testMerchant();
const dir = mkdtempSync(join(tmpdir(), 'payconform-certify-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function certify(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [bin, 'certify', ...args], {
    encoding: 'utf8',
    env: { ...process.env, CI: 'true', ...env },
  });
  return { code: r.status, out: r.stdout + r.stderr };
}

const filesOf = (d: string): string[] =>
  readdirSync(d, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesOf(join(d, e.name)) : [join(d, e.name)],
  );

/** Every secret of the run, and patterns that only an unredacted value would match. */
function leaks(text: string): string[] {
  const keyBody = readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8').split('\n')[3];
  const found = [
    merchant.merchantControlKey,
    'wrong-control-key-for-the-test',
    keyBody,
    ...Object.keys(MAGIC_CARDS),
  ].filter((s): s is string => s !== undefined && text.includes(s));
  for (const pattern of [/control=[0-9a-f]{40}/, /oauth_signature="(?!<redacted>)/, /cvv2=(?!%2A%2A%2A|\*\*\*)[0-9]/])
    if (pattern.test(text)) found.push(String(pattern));
  return found;
}

describe('payconform certify', () => {
  it('passes every scenario against the embedded mock and writes a bundle whose manifest holds', () => {
    const report = join(dir, 'mock');
    const r = certify(['--report-dir', report]);
    assert.equal(r.code, 0, r.out.slice(-2000));
    assert.match(r.out, /ALL\s+\d{3,}\s+0\s+0\s+0\s+0\s+pass\n/);
    assert.match(r.out, /^warnings: 0$/m);
    assert.match(r.out, /^PASSED: \d{3,} passed, 0 failed/m);
    const names = filesOf(report)
      .map((f) => f.slice(report.length + 1))
      .sort();
    assert.deepEqual(names, [
      'cucumber.html',
      'junit.xml',
      'manifest.json',
      'messages.ndjson',
      'report.html',
      'summary.json',
    ]);
    const summary = JSON.parse(readFileSync(join(report, 'summary.json'), 'utf8'));
    assert.ok(summary.totals.passed >= 200, `${summary.totals.passed} scenarios`);
    assert.equal(summary.totals.failed, 0);
    for (const entry of JSON.parse(readFileSync(join(report, 'manifest.json'), 'utf8')).files) {
      assert.equal(
        createHash('sha256')
          .update(readFileSync(join(report, entry.path)))
          .digest('hex'),
        entry.sha256,
        entry.path,
      );
    }
    for (const file of filesOf(report)) assert.deepEqual(leaks(readFileSync(file, 'utf8')), [], file);
    assert.deepEqual(leaks(r.out), [], 'console');
  });

  it('three shards run one after another cover exactly the scenarios of the unsharded run, each once', () => {
    const keysOf = (report: string): string[] =>
      scenarioResults(readFileSync(join(report, 'messages.ndjson'), 'utf8')).results.map((s) => `${s.uri}: ${s.name}`);
    const testcases = (report: string): number =>
      (readFileSync(join(report, 'junit.xml'), 'utf8').match(/<testcase /g) ?? []).length;
    const full = keysOf(join(dir, 'mock'));
    const shards = [1, 2, 3].map((i) => {
      const report = join(dir, `shard-${i}`);
      const r = certify(['--shard', `${i}/3`, '--report-dir', report]);
      assert.equal(r.code, 0, r.out.slice(-2000));
      return report;
    });
    for (const report of shards) assert.ok(keysOf(report).length > 0 && keysOf(report).length < full.length, report);
    assert.deepEqual(shards.flatMap(keysOf).sort(), [...full].sort());
    // The JUnit files the CI jobs merge add up to the unsharded run's test cases.
    assert.equal(
      shards.reduce((n, report) => n + testcases(report), 0),
      testcases(join(dir, 'mock')),
    );
  });

  describe('against a separately started mock', () => {
    let mock: ReturnType<typeof spawn>;
    let url = '';
    before(async () => {
      mock = spawn(process.execPath, [bin, 'mock', '--port', '0', '--prefix', '/paynet', '--quiet'], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      url = await new Promise<string>((resolve) =>
        mock.stdout!.on('data', (c: Buffer) => {
          const m = /listening on (\S+)/.exec(c.toString());
          if (m) resolve(m[1]!);
        }),
      );
    });
    after(() => {
      mock.kill('SIGTERM');
    });
    const env = () => ({
      PAYCONFORM_ENDPOINT_ID: '1001',
      PAYCONFORM_LOGIN: merchant.login,
      PAYCONFORM_CONTROL_KEY: merchant.merchantControlKey,
      PAYCONFORM_PRIVATE_KEY_FILE: TEST_MERCHANT_PRIVATE_KEY_FILE,
    });

    it('passes with matching PAYCONFORM_* variables', () => {
      const r = certify([
        '--base-url',
        `${url}/paynet`,
        '--report-dir',
        join(dir, 'remote'),
        '--tags',
        '@area:payments or @area:auth',
      ]);
      assert.equal(r.code, 2, 'no credentials: refused before anything is sent');
      assert.match(
        r.out,
        /PAYCONFORM_ENDPOINT_ID, PAYCONFORM_LOGIN, PAYCONFORM_CONTROL_KEY, PAYCONFORM_PRIVATE_KEY_FILE: missing/,
      );
      const ok = certify(
        ['--base-url', `${url}/paynet`, '--report-dir', join(dir, 'remote'), '--tags', '@area:payments or @area:auth'],
        env(),
      );
      assert.equal(ok.code, 0, ok.out.slice(-2000));
    });

    it('fails with a wrong control key, attaches the redacted exchanges, and leaks nothing', () => {
      const report = join(dir, 'wrong-key');
      const r = certify(
        ['--base-url', `${url}/paynet`, '--report-dir', report, '--tags', '@endpoint:SALE or @endpoint:PAYOUT'],
        { ...env(), PAYCONFORM_CONTROL_KEY: 'wrong-control-key-for-the-test' },
      );
      assert.equal(r.code, 1);
      const messages = readFileSync(join(report, 'messages.ndjson'), 'utf8');
      assert.match(messages, /"attachment"/);
      assert.match(messages, /curl -sS -X POST/);
      assert.match(messages, /credit_card_number=411111%2A%2A%2A%2A%2A%2A1111/, 'card numbers attached masked');
      for (const file of filesOf(report)) assert.deepEqual(leaks(readFileSync(file, 'utf8')), [], file);
      assert.deepEqual(leaks(r.out), [], 'console');
    });
  });

  it('refuses bad input with one line and exit 2', async () => {
    for (const [args, message] of [
      [['--base-url', 'https://sandbox.example/paynet'], /--live: required for a base URL that is not loopback/],
      [['--base-url', 'not a url'], /--base-url: must be an absolute/],
      [['--shard', '3/2'], /--shard: must be I\/N/],
      [['--parallel', 'x'], /--parallel: must be a whole number/],
    ] as const) {
      const r = await runCli(['certify', ...args]);
      assert.equal(r.code, 2, r.err);
      assert.match(r.err, message);
      assert.equal(r.err.trim().split('\n').length, 1);
    }
  });
});
