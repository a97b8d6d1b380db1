/**
 * Start-up of the commands a partner runs most, as whole processes: `payconform sign` and `verify`
 * against `node -e 0`, alternating over 11 rounds, median wall time of each (target: within 2× of
 * node itself, issue 17). Spawn costs the same on both sides, so the ratio holds on any machine.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchModule, Figure } from './measure.ts';

const BIN = new URL('../bin/payconform.js', import.meta.url).pathname;
const ROUNDS = 11;
const SALE = [
  '--operation',
  'SALE',
  '--base-url',
  'https://sandbox.example/paynet',
  '--endpoint-id',
  '1001',
  '--login',
  'bench',
  '--param',
  'client_orderid=o-1',
  '--param',
  'amount=10.00',
  '--param',
  'email=a@b.example',
];

/** Wall seconds of one run, which must end with `status`. */
function wall(args: string[], status: number): number {
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, args, { encoding: 'utf8' });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (run.status !== status)
    throw new Error(`bench: node ${args.slice(0, 2).join(' ')} exited ${run.status}: ${run.stderr.slice(-300)}`);
  return seconds;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

function figures(): Figure[] {
  process.stderr.write('  measuring start-up of sign and verify against node -e 0 …\n');
  const dir = mkdtempSync(join(tmpdir(), 'payconform-bench-startup-'));
  try {
    const key = join(dir, 'key.txt');
    writeFileSync(key, 'TEST-ONLY-bench-key');
    const sign = [BIN, 'sign', ...SALE, '--control-key-file', key];
    const verify = [BIN, 'verify', ...SALE, '--control-key-file', key, '--control', '0'.repeat(40)];
    const times = { node: [] as number[], sign: [] as number[], verify: [] as number[] };
    wall(sign, 0); // warm the file cache
    for (let round = 0; round < ROUNDS; round++) {
      times.node.push(wall(['-e', '0'], 0));
      times.sign.push(wall(sign, 0));
      times.verify.push(wall(verify, 1)); // a wrong control: exit 1 after the full check
    }
    const peer = { label: 'node -e 0', value: median(times.node), minRatio: 0.5 };
    return [
      {
        name: 'start-up: payconform sign (control), whole process',
        value: median(times.sign),
        unit: 's',
        better: 'lower',
        peer,
      },
      {
        name: 'start-up: payconform verify (control), whole process',
        value: median(times.verify),
        unit: 's',
        better: 'lower',
        peer,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const startupBench: BenchModule = { groups: () => [], figures };
