#!/usr/bin/env node
// Runs every test/**/*.test.ts with Node's test runner through tsx. Node 20's runner does not expand
// globs, so the files are listed here. One fast-check seed per run (PAYCONFORM_SEED, or a fresh
// one) is printed first and passed to every file, so a failing run can be replayed exactly.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
    )
    .sort();
}

const filter = process.argv.slice(2);
const files = testFiles('test').filter((f) => filter.length === 0 || filter.some((part) => f.includes(part)));
const seed = process.env.PAYCONFORM_SEED ?? String((Math.random() * 2 ** 31) | 0);
console.log(`fast-check seed: ${seed} (replay with PAYCONFORM_SEED=${seed} npm test)`);
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], {
  stdio: 'inherit',
  env: { ...process.env, PAYCONFORM_SEED: seed },
});
process.exit(result.status ?? 1);
