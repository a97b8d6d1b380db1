// ownString: a value kept from a request body holds no reference to the body (measured on the heap).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ownString } from '../src/own-string.ts';

// A garbage collection on demand, so what stays on the heap can be weighed.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Heap bytes still in use once 100 values cut from 1 MB bodies are kept by `keep`. */
function heapKept(keep: (value: string) => string): number {
  gc();
  const before = process.memoryUsage().heapUsed;
  const kept: string[] = [];
  for (let i = 0; i < 100; i++)
    kept.push(keep(`${i}`.padEnd(1_000_000, 'x').concat(String(Math.random())).slice(7, 60)));
  gc();
  const used = process.memoryUsage().heapUsed - before;
  assert.equal(kept.length, 100);
  return used;
}

describe('ownString', () => {
  it('keeps a long value cut from a body without the body, which a plain slice keeps alive', () => {
    const sliced = heapKept((s) => s);
    const owned = heapKept(ownString);
    assert.ok(sliced > 50_000_000, `a plain slice keeps the bodies: ${sliced} bytes`);
    assert.ok(owned < 5_000_000, `ownString keeps only the values: ${owned} bytes`);
  });

  it('returns the same text', () => {
    for (const s of ['', 'EUR', 'https://merchant.example/return?o=1', 'Jäne Dœ 😀 long enough to copy'])
      assert.equal(ownString(s), s);
  });
});
