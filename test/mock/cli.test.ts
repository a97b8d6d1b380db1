import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { PayClient } from '../../src/client/client.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/mock/merchants.ts';
import { runCli } from '../support/cli.ts';

const bin = new URL('../../bin/payconform.js', import.meta.url).pathname;

describe('payconform mock', () => {
  it('prints the listening line, serves signed requests and stops cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, [bin, 'mock', '--port', '0', '--prefix', '/paynet'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8');
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: string) => {
        out += chunk;
        const m = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(out);
        if (m) resolve(m[1]!);
      });
      child.once('exit', () => reject(new Error(`mock exited: ${out}`)));
    });
    const m = testMerchant();
    const client = new PayClient({ baseUrl: `${url}/paynet`, endpointId: '1001', credentials: { login: m.login, controlKey: m.merchantControlKey, privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8') } });
    const x = await client.send('PAYOUT_V4', [['amount', '1']]);
    await client.close();
    assert.deepEqual([x.status, x.problems], [200, []]);
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    assert.equal(code, 0);
  });

  it('shows the TEST-ONLY merchant, and refuses a bad merchants file or port with one line', async () => {
    const shown = JSON.parse((await runCli(['mock', '--show-test-merchant'])).out);
    assert.match(shown.note, /TEST-ONLY/);
    const dir = mkdtempSync(join(tmpdir(), 'payconform-mock-'));
    try {
      const file = join(dir, 'merchants.json');
      writeFileSync(file, JSON.stringify([{ login: 'a', merchantControlKey: 'k', publicKeyPem: 'nope', endpointIds: [1], endpointGroupIds: [] }]));
      for (const [args, message] of [
        [['--merchants', file], /merchants\.json: \/0\/publicKeyPem: /],
        [['--merchants', join(dir, 'none.json')], /cannot read \(ENOENT\)/],
        [['--port', '70000'], /--port: must be a whole number from 0 to 65535/],
        [['--prefix', 'paynet'], /--prefix: must be a path/],
      ] as const) {
        const r = await runCli(['mock', ...args]);
        assert.equal(r.code, 2);
        assert.match(r.err, message);
        assert.equal(r.err.trim().split('\n').length, 1);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
