/**
 * Issue 20: the same signed-sale load against `payconform mock`, which verifies every control and
 * keeps the order, and against `prism mock` serving the OpenAPI document payconform generates, which
 * checks each request against the document's schema and verifies no signature (target ≥ 3×). Prism
 * runs at its quietest (`-v warn`, no per-request log line) and, like the mock, in one process.
 * Both must answer every request 200, or the ratio would compare refusals.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, requests, serve } from './http-load.ts';
import type { BenchModule, Figure } from './measure.ts';
import { freePort } from '../test/support/free-port.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const CONNECTIONS = 20;
const SECONDS = 5;

/** Prism says nothing at `-v warn`: it is ready when it answers HTTP. */
async function ready(url: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await fetch(url, { method: 'POST' });
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`bench: prism did not answer at ${url} in 60 s`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

async function figures(): Promise<Figure[]> {
  process.stderr.write('  measuring payconform mock against prism mock of the generated OpenAPI document …\n');
  const dir = mkdtempSync(join(tmpdir(), 'payconform-bench-prism-'));
  const document = join(dir, 'openapi.json');
  const made = spawnSync(process.execPath, [join(ROOT, 'bin/payconform.js'), 'openapi', '--out', document], {
    encoding: 'utf8',
  });
  if (made.status !== 0) throw new Error(`bench: payconform openapi failed: ${made.stderr}`);
  const port = await freePort();
  const prismUrl = `http://127.0.0.1:${port}`;
  const prism = await serve(
    join(ROOT, 'node_modules/.bin/prism'),
    ['mock', document, '-h', '127.0.0.1', '-p', String(port), '-v', 'warn'],
    prismUrl,
  );
  const mock = await serve(process.execPath, [join(ROOT, 'bin/payconform.js'), 'mock', '--port', '0', '--quiet']);
  try {
    await ready(prismUrl);
    // The same pre-signed sales for both: control requests carry no nonce, so lists may repeat.
    const sales = Array.from({ length: CONNECTIONS }, () => requests(mock.url, 'SALE', 2000));
    // A short warm-up of each, then the timed runs.
    await load(prismUrl, sales, 1);
    await load(mock.url, sales, 1);
    const prismRun = await load(prismUrl, sales, SECONDS);
    const mockRun = await load(mock.url, sales, SECONDS);
    if (prismRun.non2xx > 0 || prismRun.errors > 0)
      throw new Error(
        `bench: prism answered ${prismRun.non2xx} signed sales with a non-2xx status (${prismRun.errors} errors)`,
      );
    if (mockRun.non2xx > 0) throw new Error(`bench: the mock refused ${mockRun.non2xx} signed sales`);
    return [
      {
        name: 'mock vs prism: signed SALEs (20 connections)',
        value: mockRun.requests.average,
        unit: '/s',
        better: 'higher',
        peer: { label: 'prism mock of `payconform openapi`, same load', value: prismRun.requests.average, minRatio: 3 },
      },
    ];
  } finally {
    prism.stop();
    mock.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const prismBench: BenchModule = { groups: () => [], figures };
