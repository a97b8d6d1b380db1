/**
 * Mock gateway throughput (issue 5): signed sale requests per second against the mock over
 * loopback with autocannon, and in the same run the same generator against a bare node:http server
 * answering a fixed JSON body (target ≥ 0.5× of it, and ≥ 5,000 req/s); RSA-signed v4 payouts per
 * second; and the mock's RSS before and after 100,000 requests (target at most 150 MB).
 * Each request is pre-signed with a distinct nonce, so the mock does its full verification each time.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { buildRequest } from '../src/client/client.ts';
import { endpointByOperation } from '../src/catalogue/index.ts';
import { sampleRequest } from '../src/schemas/index.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../src/mock/merchants.ts';
import type { BenchModule, Figure } from './measure.ts';

interface AutocannonResult { requests: { average: number; total: number }; non2xx: number; errors: number }
type Autocannon = (opts: object) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const m = testMerchant();
const credentials = { login: m.login, controlKey: m.merchantControlKey, privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8') };

/** Pre-signed requests for autocannon: control sales never replay; OAuth ones carry distinct nonces. */
function requests(baseUrl: string, operation: string, count: number): Array<{ method: string; path: string; headers: Record<string, string>; body: string }> {
  const endpoint = endpointByOperation(operation);
  return Array.from({ length: count }, (_, i) => {
    const orderIdField = endpoint.version === 'v4' ? 'client-order-id' : 'client_orderid';
    const r = buildRequest(endpoint, { baseUrl, credentials, endpointId: '1001' }, sampleRequest(endpoint, [[orderIdField, `B-${i}`]]), { nonce: `bench-${i}-${Date.now()}` });
    return { method: 'POST', path: new URL(r.url).pathname, headers: r.headers, body: r.body };
  });
}

const CONNECTIONS = 20;

/**
 * Load with one autocannon connection per request list: autocannon walks its `requests` list from
 * the start on every connection, so OAuth requests need a list each or their nonces replay. `for`
 * is seconds, or 'once': each list sent once, whatever the machine's speed, so no nonce is sent twice.
 */
async function load(url: string, lists: readonly object[][], run: number | 'once'): Promise<AutocannonResult> {
  const started = performance.now();
  const runs = await Promise.all(lists.map((requests) => autocannon({ url, connections: 1, pipelining: 1, requests, workers: 0, ...(run === 'once' ? { amount: requests.length } : { duration: run }) })));
  const total = runs.reduce((sum, r) => sum + r.requests.total, 0);
  return {
    // A run of a fixed number of requests is timed here: autocannon's per-second average counts whole seconds.
    requests: { average: run === 'once' ? total / ((performance.now() - started) / 1000) : runs.reduce((sum, r) => sum + r.requests.average, 0), total },
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
  };
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
  const mock = await serve([new URL('../bin/payconform.js', import.meta.url).pathname, 'mock', '--port', '0', '--quiet']);
  try {
    // Control requests carry no nonce, so every connection may send the same list.
    const sales = Array.from({ length: CONNECTIONS }, () => requests(mock.url, 'SALE', 2000));
    const bareRun = await load(bare.url, sales, 5);
    const mockRun = await load(mock.url, sales, 5);
    if (mockRun.non2xx > 0) throw new Error(`bench: the mock refused ${mockRun.non2xx} signed sales`);
    // Each pre-signed payout sent once (a timed run replayed them on a fast machine, and the mock refused them).
    const rsaRun = await load(mock.url, Array.from({ length: CONNECTIONS }, () => requests(mock.url, 'PAYOUT_V4', 500)), 'once');
    if (rsaRun.non2xx > 0) throw new Error(`bench: the mock refused ${rsaRun.non2xx} signed payouts`);
    const rssBefore = rssMb(mock.pid);
    const done = await autocannon({ url: mock.url, connections: CONNECTIONS, amount: 100_000, requests: sales[0], workers: 0 });
    const rssAfter = rssMb(mock.pid);
    return [
      { name: 'mock: signed SALEs (autocannon, 20 connections)', value: mockRun.requests.average, unit: '/s', better: 'higher', min: 5000,
        peer: { label: 'bare node:http, fixed JSON, same load', value: bareRun.requests.average, minRatio: 0.5 } },
      { name: 'mock: RSA-SHA256 v4 payouts (20 connections)', value: rsaRun.requests.average, unit: '/s', better: 'higher' },
      { name: `mock: RSS after 100,000 more SALEs (${done.non2xx} refused; before: ${rssBefore.toFixed(1)} MB)`, value: rssAfter, unit: 'MB', better: 'lower', max: 150 },
    ];
  } finally {
    bare.stop();
    mock.stop();
  }
}

export const mockBench: BenchModule = { groups: () => [], figures };
