// The mock is a consumer, not a library: outside src/mock only the places that start a mock import
// it, and only through its entry; and its defects wrap it from outside, so the files that serve,
// run operations and send callbacks hold no defect branch.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const SRC = new URL('../../src/', import.meta.url).pathname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every import of src/mock from outside it, as "file → target", both relative to src/. */
function mockImports(): string[] {
  return sourceFiles(SRC)
    .filter((file) => !relative(SRC, file).startsWith('mock/'))
    .flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/from '(\.[^']*\/mock\/[^']*)'/g)].map(
        (m) => `${relative(SRC, file)} → ${relative(SRC, join(file, '..', m[1] ?? ''))}`,
      ),
    );
}

/**
 * The places that start a mock: the mock command, certify and the suite with a defect, inspect, prove, and the
 * programmatic API, which hands startMock to its users (docs/api.md).
 */
const STARTERS =
  /^(cli\/commands\/(mock|certify)\.ts|suite\/target\.ts|inspect\/listener\.ts|prove\/[a-z-]+\.ts|api\/index\.ts) → /;

/** A defect consulted inline: the old `broken.breaks('rule-id')` and the Breakage it came from. */
const DEFECT_BRANCH = /\bbreaks\(|\bbroken\b|Breakage|breakageOf/;
const withoutComments = (text: string): string => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');

describe('the mock as a consumer', () => {
  it('is imported from outside only through its entry, index.ts', () => {
    const other = mockImports().filter((line) => !line.endsWith('→ mock/index.ts'));
    assert.deepEqual(other, []);
  });

  it('is imported only by the places that start one', () => {
    const other = mockImports().filter((line) => !STARTERS.test(line));
    assert.deepEqual(other, []);
  });

  it('holds no defect branch where it serves, runs operations and sends callbacks', () => {
    for (const file of ['server.ts', 'operations.ts', 'callbacks.ts']) {
      const code = withoutComments(readFileSync(join(SRC, 'mock', file), 'utf8'));
      assert.doesNotMatch(code, DEFECT_BRANCH, file);
    }
  });
});
