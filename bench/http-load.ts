/**
 * What the HTTP benchmarks share: pre-signed requests for autocannon, a load over one connection per
 * request list, and a server started in its own process (so the load generator does not share its
 * event loop) whose URL it prints.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { buildRequest } from '../src/client/client.ts';
import { endpointByOperation } from '../src/catalogue/index.ts';
import { sampleRequest } from '../src/schemas/index.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../src/gateway/merchants.ts';

export interface AutocannonResult {
  requests: { average: number; total: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (opts: object) => Promise<AutocannonResult>;
export const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const m = testMerchant();
const credentials = {
  login: m.login,
  controlKey: m.merchantControlKey,
  privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
};

export interface PreparedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** Pre-signed requests for autocannon: control sales never replay; OAuth ones carry distinct nonces. */
export function requests(baseUrl: string, operation: string, count: number): PreparedRequest[] {
  const endpoint = endpointByOperation(operation);
  return Array.from({ length: count }, (_, i) => {
    const orderIdField = endpoint.version === 'v4' ? 'client-order-id' : 'client_orderid';
    const r = buildRequest(
      endpoint,
      { baseUrl, credentials, endpointId: '1001' },
      sampleRequest(endpoint, [[orderIdField, `B-${i}`]]),
      { nonce: `bench-${i}-${Date.now()}` },
    );
    return { method: 'POST', path: new URL(r.url).pathname, headers: r.headers, body: r.body };
  });
}

/**
 * Load with one autocannon connection per request list: autocannon walks its `requests` list from
 * the start on every connection, so OAuth requests need a list each or their nonces replay. `run`
 * is seconds, or 'once': each list sent once, whatever the machine's speed, so no nonce is sent twice.
 */
export async function load(url: string, lists: readonly object[][], run: number | 'once'): Promise<AutocannonResult> {
  const started = performance.now();
  const runs = await Promise.all(
    lists.map((requests) =>
      autocannon({
        url,
        connections: 1,
        pipelining: 1,
        requests,
        workers: 0,
        ...(run === 'once' ? { amount: requests.length } : { duration: run }),
      }),
    ),
  );
  const total = runs.reduce((sum, r) => sum + r.requests.total, 0);
  return {
    // A run of a fixed number of requests is timed here: autocannon's per-second average counts whole seconds.
    requests: {
      average:
        run === 'once'
          ? total / ((performance.now() - started) / 1000)
          : runs.reduce((sum, r) => sum + r.requests.average, 0),
      total,
    },
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
  };
}

/**
 * A server in its own process, and its URL: the one it prints as `listening on http://…`, or
 * `knownUrl` for a server that prints nothing (the caller then waits until it answers).
 */
export async function serve(
  command: string,
  args: string[],
  knownUrl?: string,
  env?: Readonly<Record<string, string>>,
): Promise<{ url: string; pid: number; stop: () => void }> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`bench: ${command} did not start in 60 s: ${out.slice(-500)}`)),
      60_000,
    );
    const found = (u: string): void => {
      clearTimeout(timer);
      // Keep reading: a server whose pipe fills up stops answering.
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      resolve(u);
    };
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) found(m[1]!);
    });
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(`bench: server exited: ${out.slice(-500)}`));
    });
    if (knownUrl !== undefined) found(knownUrl);
  });
  return { url, pid: child.pid!, stop: () => child.kill('SIGTERM') };
}

export const rssMb = (pid: number): number =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/**
 * CPU time a process has used so far, user and system, in milliseconds (Linux /proc; clock ticks of
 * 1/100 s, as USER_HZ is on Linux): a server's work per request, whatever else the machine runs.
 */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // After the command: state is field 3 of proc(5), utime 14 and stime 15.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
