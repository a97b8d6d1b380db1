import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { REQUEST_RULES } from '../../src/rules/book.ts';
import { rulesDoc } from '../../scripts/rules-doc.ts';

describe('docs/rules.md', () => {
  it('is what the rule book makes (npm run docs:rules)', () => {
    assert.equal(readFileSync(new URL('../../docs/rules.md', import.meta.url), 'utf8'), rulesDoc());
  });
  it('lists every request rule in the order the mock runs them', () => {
    const ids = [
      ...rulesDoc()
        .split('## Order rules')[0]!
        .matchAll(/^\| `([a-z0-9-]+)`/gm),
    ].map((m) => m[1]);
    assert.deepEqual(
      ids,
      REQUEST_RULES.map((r) => r.id),
    );
  });
});
