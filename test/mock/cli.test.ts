import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { endpointByOperation } from '../../src/catalogue/index.ts';
import { PayClient } from '../../src/client/client.ts';
import { sampleRequest } from '../../src/schemas/index.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';
import { runCli } from '../support/cli.ts';

const bin = new URL('../../bin/payconform.js', import.meta.url).pathname;

describe('payconform mock', () => {
  it('prints the listening line, serves signed requests and stops cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, [bin, 'mock', '--port', '0', '--prefix', '/paynet'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let log = '';
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (log += chunk));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: string) => {
        out += chunk;
        const m = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(out);
        if (m) resolve(m[1]!);
      });
      child.once('exit', () => reject(new Error(`mock exited: ${out}`)));
    });
    const m = testMerchant();
    const client = new PayClient({
      baseUrl: `${url}/paynet`,
      endpointId: '1001',
      credentials: {
        login: m.login,
        controlKey: m.merchantControlKey,
        privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
      },
    });
    try {
      const x = await client.send('PAYOUT_V4', sampleRequest(endpointByOperation('PAYOUT_V4')));
      assert.deepEqual([x.status, x.problems], [200, []]);
      const sale = await client.send('SALE', sampleRequest(endpointByOperation('SALE')));
      const refused = await client.send('SALE', sampleRequest(endpointByOperation('SALE'), [['cvv2', '98765']]));
      assert.equal(refused.status, 400);
      await new Promise((resolve) => setTimeout(resolve, 100));
      // The request log: a line per request, and no secret or card data in it.
      assert.match(log, /POST \/paynet\/api\/v4\/payout\/1001 200 PAYOUT_V4 order \d+/);
      assert.match(log, /POST \/paynet\/api\/v2\/sale\/1001 400 SALE FIELD_INVALID/);
      const signature = /oauth_signature="([^"]+)"/.exec(x.request.headers.authorization!)![1];
      const control = sale.request.params.find(([n]) => n === 'control')![1];
      for (const secret of [
        m.merchantControlKey,
        '4111111111111111',
        '411111',
        '98765',
        'cvv2',
        signature,
        decodeURIComponent(signature!),
        control,
      ]) {
        assert.ok(!log.includes(secret!), `the log shows ${secret!.slice(0, 6)}…`);
      }
    } catch (err) {
      child.kill('SIGKILL');
      throw err;
    } finally {
      await client.close();
    }
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
      writeFileSync(
        file,
        JSON.stringify([
          { login: 'a', merchantControlKey: 'k', publicKeyPem: 'nope', endpointIds: [1], endpointGroupIds: [] },
        ]),
      );
      for (const [args, message] of [
        [['--merchants', file], /merchants\.json: \/0\/publicKeyPem: /],
        [['--merchants', join(dir, 'none.json')], /cannot read \(ENOENT\)/],
        [['--port', '70000'], /--port: must be a whole number from 0 to 65535/],
        [['--prefix', 'paynet'], /--prefix: must be a path/],
        [['--callback-method', 'PUT'], /^payconform mock: --callback-method: must be GET or POST \(got "PUT"\)$/m],
        [['--callback-time-scale', '0'], /--callback-time-scale: must be a whole number from 1 to 1000000000/],
        [['--callback-time-scale', '1.5'], /--callback-time-scale: /],
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
