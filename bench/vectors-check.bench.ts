/**
 * `vectors check` of 10,000 mixed vectors (80 % control and HMAC, 20 % RSA over two keys), run as a
 * user runs it: the real command in a child process under /usr/bin/time, for wall time and peak RSS.
 * Peak RSS under 300 MB (issue 4); the wall time is shown, no longer judged (issue 45: seconds measure
 * the machine as much as the command).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateRsaKeyPair } from '../src/signing/keys.ts';
import { generateVectors } from '../src/vectors/generate.ts';
import { VECTOR_FORMAT, type Vector } from '../src/vectors/types.ts';
import type { BenchModule, Figure } from './measure.ts';

const TOTAL = 10_000;
const RSA_SHARE = 0.2;

function mixedVectors(): Vector[] {
  const keys = [
    readFileSync(new URL('../vectors/keys/test-only-merchant-rsa-2048.pem', import.meta.url), 'utf8'),
    generateRsaKeyPair(2048).privateKeyPem,
  ];
  const rsa: Vector[] = [];
  const other: Vector[] = [];
  for (let seed = 1; rsa.length < TOTAL * RSA_SHARE || other.length < TOTAL * (1 - RSA_SHARE); seed++) {
    for (const v of generateVectors({ seed, privateKeyPem: keys[seed % 2] }).vectors) {
      const bucket = v.scheme === 'oauth-rsa-sha256' ? rsa : other;
      const limit = v.scheme === 'oauth-rsa-sha256' ? TOTAL * RSA_SHARE : TOTAL * (1 - RSA_SHARE);
      if (bucket.length < limit) bucket.push({ ...v, id: `${v.id}-s${seed}` });
    }
  }
  return [...other, ...rsa];
}

function figures(): Figure[] {
  process.stderr.write(`  preparing ${TOTAL} vectors …\n`);
  const dir = mkdtempSync(join(tmpdir(), 'payconform-bench-'));
  try {
    const file = join(dir, 'mixed.json');
    writeFileSync(file, JSON.stringify({ format: VECTOR_FORMAT, vectors: mixedVectors() }));
    process.stderr.write('  measuring vectors check …\n');
    const bin = new URL('../bin/payconform.js', import.meta.url).pathname;
    const run = spawnSync('/usr/bin/time', ['-f', 'TIME %e %M', process.execPath, bin, 'vectors', 'check', file], {
      encoding: 'utf8',
    });
    const summary = run.stdout.trim().split('\n').at(-1);
    if (summary !== `${TOTAL} passed, 0 failed`)
      throw new Error(`bench: vectors check did not pass every vector: ${summary ?? run.stderr}`);
    const [, seconds, kb] = /TIME ([0-9.]+) ([0-9]+)/.exec(run.stderr) ?? [];
    if (seconds === undefined || kb === undefined)
      throw new Error(`bench: no timing from /usr/bin/time: ${run.stderr}`);
    return [
      {
        name: `vectors check, ${TOTAL} vectors (20% RSA), wall time incl. start-up`,
        value: Number(seconds),
        unit: 's',
        better: 'lower',
      },
      {
        name: `vectors check, ${TOTAL} vectors (20% RSA), peak RSS`,
        value: Number(kb) / 1024,
        unit: 'MB',
        better: 'lower',
        max: 300,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const vectorsCheckBench: BenchModule = { groups: () => [], figures };
