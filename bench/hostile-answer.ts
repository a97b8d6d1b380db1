/**
 * certify against a hostile gateway that streams one failing scenario's answer of 200 MiB (issue 41):
 * its peak RSS (under /usr/bin/time) must stay under 300 MB and its bundle under 20 MB. Too slow for the
 * unit suite (test/hostile/bounds.test.ts proves the mechanism on 20 MiB); run it alone:
 *   node --import tsx bench/hostile-answer.ts [MiB]
 * It runs the built command (bin/payconform.js) when dist/ exists, else the source through tsx.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../src/gateway/merchants.ts';
import { startHostile } from '../test/hostile/bounds-server.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const MiB = 1024 * 1024;
const TARGETS = { rssMb: 300, bundleMb: 20 };

const size = Number(process.argv[2] ?? 200);
const built = existsSync(join(ROOT, 'dist/src/cli/main.js'));
const command = built
  ? [join(ROOT, 'bin/payconform.js')]
  : ['--import', 'tsx', join(ROOT, 'test/hostile/payconform-tsx.ts')];
const server = await startHostile((req) =>
  req.method === 'GET'
    ? { kind: 'big', bytes: 2, status: 404, contentType: 'text/plain' }
    : { kind: 'big', bytes: size * MiB, status: 200 },
);
const dir = mkdtempSync(join(tmpdir(), 'payconform-bench-hostile-'));
const merchant = testMerchant();
try {
  const report = join(dir, 'bundle');
  const args = [
    'certify',
    '--base-url',
    `${server.url}/paynet`,
    '--tags',
    '@endpoint:SALE and @spec:common-headers and not @negative',
  ];
  // Not spawnSync: the hostile server answers from this process's event loop.
  const child = spawn(
    '/usr/bin/time',
    ['-f', 'TIME %e %M', process.execPath, ...command, ...args, '--report-dir', report],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        CI: 'true',
        PAYCONFORM_ENDPOINT_ID: '1001',
        PAYCONFORM_LOGIN: merchant.login,
        PAYCONFORM_CONTROL_KEY: merchant.merchantControlKey,
        PAYCONFORM_PRIVATE_KEY_FILE: TEST_MERCHANT_PRIVATE_KEY_FILE,
      },
    },
  );
  const run = { stdout: '', stderr: '', status: null as number | null };
  child.stdout.on('data', (c: Buffer) => (run.stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (run.stderr += c.toString()));
  run.status = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (!existsSync(report))
    throw new Error(`certify wrote no bundle:\n${run.stdout.slice(-2000)}${run.stderr.slice(-2000)}`);
  const [, seconds, kb] = /TIME ([0-9.]+) ([0-9]+)/.exec(run.stderr) ?? [];
  const bundleBytes = readdirSync(report).reduce((n, f) => n + statSync(join(report, f)).size, 0);
  const rssMb = Number(kb) / 1024;
  const bundleMb = bundleBytes / 1e6;
  console.log(
    `certify (${built ? 'built' : 'tsx'}) against a ${size} MiB answer (${server.written()} bytes sent): exit ` +
      `${run.status}, ${seconds} s, peak RSS ${rssMb.toFixed(0)} MB (target < ${TARGETS.rssMb}), bundle ` +
      `${bundleMb.toFixed(1)} MB (target < ${TARGETS.bundleMb})`,
  );
  if (run.status !== 1)
    console.log(`unexpected exit ${run.status}:\n${run.stdout.slice(-2000)}${run.stderr.slice(-2000)}`);
  process.exitCode = run.status === 1 && rssMb < TARGETS.rssMb && bundleMb < TARGETS.bundleMb ? 0 : 1;
} finally {
  await server.close();
  if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true });
}
