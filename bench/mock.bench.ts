/**
 * Mock gateway throughput (issue 5): signed sale requests per second against the mock over
 * loopback with autocannon, and in the same run the same generator against a bare node:http server
 * answering a fixed JSON body (target ≥ 0.5× of it, and ≥ 5,000 req/s); RSA-signed v4 payouts per
 * second; and the mock's RSS before and after 100,000 requests (target under 200 MB).
 * Each request is pre-signed with a distinct nonce, so the mock does its full verification each time.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { buildRequest } from '../src/client/client.ts';
import { endpointByOperation } from '../src/catalogue/index.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../src/mock/merchants.ts';
import type { BenchModule, Figure } from './measure.ts';

interface AutocannonResult { requests: { average: number }; non2xx: number; errors: number }
type Autocannon = (opts: object) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const m = testMerchant();
const credentials = { login: m.login, controlKey: m.merchantControlKey, privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8') };

/** Pre-signed requests for autocannon: control sales never replay; OAuth ones carry distinct nonces. */
function requests(baseUrl: string, operation: string, count: number): Array<{ method: string; path: string; headers: Record<string, string>; body: string }> {
  const endpoint = endpointByOperation(operation);
  return Array.from({ length: count }, (_, i) => {
    const r = buildRequest(endpoint, { baseUrl, credentials, endpointId: '1001' },
      [['client_orderid', `B-${i}`], ['amount', '10.00'], ['currency', 'EUR'], ['email', 'jane@example.com']], { nonce: `bench-${i}-${Date.now()}` });
    return { method: 'POST', path: new URL(r.url).pathname, headers: r.headers, body: r.body };
  });
}

async function load(url: string, reqs: object[], seconds: number): Promise<AutocannonResult> {
  return autocannon({ url, connections: 20, pipelining: 1, duration: seconds, requests: reqs, workers: 0 });
}

/** A server in its own process (so the load generator does not share its event loop), and its URL. */
async function serve(args: string[]): Promise<{ url: string; pid: number; stop: () => void }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', () => reject(new Error(`bench: server exited: ${out}`)));
  });
  return { url, pid: child.pid!, stop: () => child.kill('SIGTERM') };
}

const rssMb = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

const BARE = `require('node:http').createServer((q, s) => { q.resume(); q.on('end', () => { s.writeHead(200, { 'content-type': 'application/vnd.pay+json' }); s.end('{"type":"async-response","status":"processing"}'); }); })
  .listen(0, '127.0.0.1', function () { console.log('listening on http://127.0.0.1:' + this.address().port); });`;

async function figures(): Promise<Figure[]> {
  process.stderr.write('  measuring mock throughput (servers in child processes) …\n');
  const bare = await serve(['-e', BARE]);
  const mock = await serve([new URL('../bin/payconform.js', import.meta.url).pathname, 'mock', '--port', '0']);
  try {
    const sales = requests(mock.url, 'SALE', 2000);
    const bareRun = await load(bare.url, sales, 5);
    const mockRun = await load(mock.url, sales, 5);
    if (mockRun.non2xx > 0) throw new Error(`bench: the mock refused ${mockRun.non2xx} signed sales`);
    const rsaRun = await load(mock.url, requests(mock.url, 'PAYOUT_V4', 5000), 2);
    const rssBefore = rssMb(mock.pid);
    const done = await autocannon({ url: mock.url, connections: 20, amount: 100_000, requests: requests(mock.url, 'SALE', 2000), workers: 0 });
    const rssAfter = rssMb(mock.pid);
    return [
      { name: 'mock: signed sales/s (autocannon, 20 connections; target ≥ 5,000)', value: mockRun.requests.average, unit: '/s', max: null },
      { name: 'bare node:http fixed JSON, same generator', value: bareRun.requests.average, unit: '/s', max: null },
      { name: 'mock ÷ bare (target ≥ 0.5)', value: mockRun.requests.average / bareRun.requests.average, unit: '×', max: null },
      { name: 'mock: RSA-signed v4 payouts/s (public key parsed once)', value: rsaRun.requests.average, unit: '/s', max: null },
      { name: `mock RSS before 100,000 more sales (${done.non2xx} refused)`, value: rssBefore, unit: 'MB', max: null },
      { name: 'mock RSS after', value: rssAfter, unit: 'MB', max: 200 },
    ];
  } finally {
    bare.stop();
    mock.stop();
  }
}

export const mockBench: BenchModule = { groups: () => [], figures };
