// docs/prove.md's table of broken mocks is the list `payconform mock --list-defects` prints: every defect, with
// its description word for word, and no row for a defect that is gone.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DEFECTS } from '../../src/mock/index.ts';

const doc = readFileSync(new URL('../../docs/prove.md', import.meta.url), 'utf8');

it("docs/prove.md's table of broken mocks lists each defect with its description", () => {
  const rows = [...doc.matchAll(/^\| `([a-z0-9-]+)` \| ([^|]*) \|$/gm)].map(([, name, text]) => [name, text]);
  const table = new Map(rows.map(([name, text]) => [name, text]));
  assert.deepEqual(
    Object.keys(DEFECTS).map((name) => [name, table.get(name)]),
    Object.entries(DEFECTS).map(([name, spec]) => [name, spec.description]),
  );
  assert.deepEqual(
    rows.map(([name]) => name),
    Object.keys(DEFECTS),
  );
});
