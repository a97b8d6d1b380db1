/**
 * Mock gateway throughput (issue 5): signed sale requests per second against the mock over
 * loopback with autocannon, and in the same run the same generator against a bare node:http server
 * answering a fixed JSON body (target ≥ 0.5× of it, and ≥ 5,000 req/s); RSA-signed v4 payouts per
 * second; and the mock's RSS before and after 100,000 requests (target at most 150 MB).
 * Each request is pre-signed with a distinct nonce, so the mock does its full verification each time.
 */
import { autocannon, load, requests, rssMb, serve } from './http-load.ts';
import type { BenchModule, Figure } from './measure.ts';

const CONNECTIONS = 20;

const BARE = `require('node:http').createServer((q, s) => { q.resume(); q.on('end', () => { s.writeHead(200, { 'content-type': 'application/vnd.pay+json' }); s.end('{"type":"async-response","status":"processing"}'); }); })
  .listen(0, '127.0.0.1', function () { console.log('listening on http://127.0.0.1:' + this.address().port); });`;

async function figures(): Promise<Figure[]> {
  process.stderr.write('  measuring mock throughput (servers in child processes) …\n');
  const bare = await serve(process.execPath, ['-e', BARE]);
  const mock = await serve(process.execPath, [
    new URL('../bin/payconform.js', import.meta.url).pathname,
    'mock',
    '--port',
    '0',
    '--quiet',
  ]);
  try {
    // Control requests carry no nonce, so every connection may send the same list.
    const sales = Array.from({ length: CONNECTIONS }, () => requests(mock.url, 'SALE', 2000));
    const bareRun = await load(bare.url, sales, 5);
    const mockRun = await load(mock.url, sales, 5);
    if (mockRun.non2xx > 0) throw new Error(`bench: the mock refused ${mockRun.non2xx} signed sales`);
    // Each pre-signed payout sent once (a timed run replayed them on a fast machine, and the mock refused them).
    const rsaRun = await load(
      mock.url,
      Array.from({ length: CONNECTIONS }, () => requests(mock.url, 'PAYOUT_V4', 500)),
      'once',
    );
    if (rsaRun.non2xx > 0) throw new Error(`bench: the mock refused ${rsaRun.non2xx} signed payouts`);
    const rssBefore = rssMb(mock.pid);
    const done = await autocannon({
      url: mock.url,
      connections: CONNECTIONS,
      amount: 100_000,
      requests: sales[0],
      workers: 0,
    });
    const rssAfter = rssMb(mock.pid);
    return [
      {
        name: 'mock: signed SALEs (autocannon, 20 connections)',
        value: mockRun.requests.average,
        unit: '/s',
        better: 'higher',
        min: 5000,
        peer: { label: 'bare node:http, fixed JSON, same load', value: bareRun.requests.average, minRatio: 0.5 },
      },
      {
        name: 'mock: RSA-SHA256 v4 payouts (20 connections)',
        value: rsaRun.requests.average,
        unit: '/s',
        better: 'higher',
      },
      {
        name: `mock: RSS after 100,000 more SALEs (${done.non2xx} refused; before: ${rssBefore.toFixed(1)} MB)`,
        value: rssAfter,
        unit: 'MB',
        better: 'lower',
        max: 150,
      },
    ];
  } finally {
    bare.stop();
    mock.stop();
  }
}

export const mockBench: BenchModule = { groups: () => [], figures };
