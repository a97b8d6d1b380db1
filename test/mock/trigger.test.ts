// `payconform trigger` end to end against a `payconform mock` process: the token from --admin-token-file (0600),
// each event printed with the handler's answers and no control; bad input one line naming the option, exit 2; a
// refused event or a handler that does not answer 200, exit 1.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { endpointByOperation } from '../../src/catalogue/index.ts';
import { PayClient } from '../../src/client/client.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';
import { sampleRequest } from '../../src/schemas/index.ts';
import { runCli } from '../support/cli.ts';

const bin = new URL('../../bin/payconform.js', import.meta.url).pathname;
const merchant = testMerchant();
const sha1 = (text: string): string => createHash('sha1').update(text, 'utf8').digest('hex');

describe('payconform trigger', () => {
  const dir = mkdtempSync(join(tmpdir(), 'payconform-trigger-'));
  const tokenFile = join(dir, 'token.txt');
  const got: URLSearchParams[] = [];
  let answerWith = 200;
  let handler: Server;
  let handlerUrl = '';
  let child: ChildProcess;
  let log = '';
  let url = '';
  let client: PayClient;

  before(async () => {
    handler = createServer((req, res) => {
      got.push(new URL(req.url ?? '/', 'http://x').searchParams);
      res.statusCode = answerWith;
      res.end();
    });
    await new Promise<void>((resolve) => handler.listen(0, '127.0.0.1', resolve));
    handlerUrl = `http://127.0.0.1:${(handler.address() as AddressInfo).port}/cb`;
    child = spawn(process.execPath, [bin, 'mock', '--port', '0', '--admin-token-file', tokenFile], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
    url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        const m = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(out);
        if (m) resolve(m[1]!);
      });
      child.once('exit', () => reject(new Error(`mock exited: ${out} ${log}`)));
    });
    client = new PayClient({
      baseUrl: url,
      endpointId: '1001',
      credentials: {
        login: merchant.login,
        controlKey: merchant.merchantControlKey,
        privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
      },
    });
  });
  after(async () => {
    await client.close();
    child.kill('SIGTERM');
    await once(child, 'exit');
    handler.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A sale with notify_url; resolves with its orderid once its own callback came. */
  async function sale(clientOrderId: string): Promise<string> {
    const before = got.length;
    const x = await client.send(
      'SALE',
      sampleRequest(endpointByOperation('SALE'), [
        ['client_orderid', clientOrderId],
        ['amount', '7.00'],
        ['notify_url', handlerUrl],
      ]),
    );
    assert.equal(x.status, 200);
    for (let i = 0; i < 200 && got.length === before; i++) await new Promise((r) => setTimeout(r, 10));
    return (x.body as Record<string, string>)['paynet-order-id']!;
  }

  it('writes the token to --admin-token-file, 0600, and prints it once, never in a request line', async () => {
    const token = readFileSync(tokenFile, 'utf8').trim();
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(statSync(tokenFile).mode & 0o777, 0o600);
    await runCli(['trigger', 'repeat', '--gateway', url, '--order', 'NONE', '--token', token]);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(log.split(token).length - 1, 1, 'the token once, in the start-up line');
    assert.match(log, /admin token: \S+ \(for payconform trigger/);
    assert.match(log, /POST \/_payconform\/events 404 admin - /);
  });

  it('delivers a chargeback and prints the callback and the answer, no control', async () => {
    const orderid = await sale('TRG-1');
    const from = got.length;
    const r = await runCli(['trigger', 'chargeback', '--gateway', url, '--order', 'TRG-1', '--token-file', tokenFile]);
    assert.deepEqual(r, {
      code: 0,
      out:
        `chargeback: order ${orderid} (client_orderid TRG-1)\n` +
        `  callback status=approved type=chargeback amount=7.00 to ${handlerUrl}: answered 200, delivered\n`,
      err: '',
    });
    const control = sha1(`approved${orderid}TRG-1${merchant.merchantControlKey}`);
    assert.deepEqual(Object.fromEntries(got[from]!), {
      orderid,
      merchant_order: 'TRG-1',
      client_orderid: 'TRG-1',
      amount: '7.00',
      status: 'approved',
      type: 'chargeback',
      control,
    });
  });

  it('duplicate prints both callbacks; the token may come from PAYCONFORM_ADMIN_TOKEN', async () => {
    await sale('TRG-2');
    const token = readFileSync(tokenFile, 'utf8').trim();
    const r = await runCli(['trigger', 'duplicate', '--gateway', url, '--order', 'TRG-2'], {
      PAYCONFORM_ADMIN_TOKEN: token,
    });
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out.match(/callback status=approved type=sale amount=7\.00 .*answered 200, delivered/g)?.length, 2);
  });

  it('exit 1 for a handler that does not answer 200, or an event the order cannot have', async () => {
    await sale('TRG-3');
    answerWith = 500;
    try {
      const r = await runCli(['trigger', 'late', '--gateway', url, '--order', 'TRG-3', '--token-file', tokenFile]);
      assert.equal(r.code, 1);
      assert.match(r.out, /callback status=declined type=sale amount=7\.00 .*: answered 500, retrying\n$/);
    } finally {
      answerWith = 200;
    }
    const unknown = await runCli(['trigger', 'repeat', '--gateway', url, '--order', 'NOPE', '--token-file', tokenFile]);
    assert.deepEqual(unknown, {
      code: 1,
      out: '',
      err: 'payconform trigger: repeat refused (404): no order with client_orderid NOPE\n',
    });
  });

  it('moves the clock: trigger clock --advance 2h', async () => {
    const r = await runCli(['trigger', 'clock', '--gateway', url, '--advance', '2h', '--token-file', tokenFile]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^clock: now \d{4}-\d\d-\d\dT[\d:.]+Z \(7200 s ahead of real time\)\n$/);
  });

  it('bad input: one line naming the option, exit 2', async () => {
    const cases: Array<[string[], Record<string, string>, string]> = [
      [['trigger'], {}, 'EVENT'],
      [['trigger', 'refund', '--gateway', url, '--order', 'A', '--token', 't'], {}, 'EVENT'],
      [['trigger', 'repeat', '--order', 'A', '--token', 't'], {}, '--gateway'],
      [['trigger', 'repeat', '--gateway', 'ftp://x', '--order', 'A', '--token', 't'], {}, '--gateway'],
      [['trigger', 'repeat', '--gateway', url, '--token', 't'], {}, '--order'],
      [['trigger', 'repeat', '--gateway', url, '--order', 'A'], {}, '--token'],
      [
        ['trigger', 'repeat', '--gateway', url, '--order', 'A', '--token', 't', '--token-file', tokenFile],
        {},
        '--token',
      ],
      [['trigger', 'repeat', '--gateway', url, '--order', 'A', '--token', 'wrong'], {}, '--token'],
      [['trigger', 'repeat', '--gateway', url, '--order', 'A', '--token-file', join(dir, 'none')], {}, '--token-file'],
      [['trigger', 'clock', '--gateway', url, '--advance', 'soon', '--token', 't'], {}, '--advance'],
      [['trigger', 'repeat', '--gateway', 'http://127.0.0.1:9', '--order', 'A', '--token', 't'], {}, '--gateway'],
    ];
    for (const [args, env, option] of cases) {
      const r = await runCli(args, env);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
      assert.equal(r.err.split('\n').length, 2, r.err);
      assert.ok(r.err.startsWith(`payconform trigger: ${option}`), `${args.join(' ')}: ${r.err}`);
    }
  });
});
