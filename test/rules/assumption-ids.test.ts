// The assumption ids a rule may name are a type (src/rules/assumption-ids.ts): the list must be the
// ids of docs/assumptions.md's table, read here from the doc itself; and every rule's ids are named
// in its clause, an assumption's rule names at least one.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ASSUMPTION_IDS } from '../../src/rules/assumption-ids.ts';
import { RULES } from '../../src/rules/book.ts';

const doc = readFileSync(new URL('../../docs/assumptions.md', import.meta.url), 'utf8');
const documented = [...doc.matchAll(/^\| (A-\d+) \|/gm)].map((m) => m[1]);

describe('assumption ids', () => {
  it('are exactly the rows of docs/assumptions.md, in order', () => {
    assert.ok(documented.length > 30, 'the table was read');
    assert.deepEqual([...ASSUMPTION_IDS], documented);
  });

  it("every rule on an assumption names one, and a rule's ids are those its clause cites", () => {
    for (const rule of RULES) {
      if (rule.basis === 'assumption') assert.ok(rule.assumptions.length > 0, rule.id);
      const cited = [...new Set(rule.clause.match(/A-\d+/g) ?? [])];
      assert.deepEqual([...rule.assumptions], cited, rule.id);
    }
  });
});
