// A negative flow scenario names the rule it exercises with @rule:<id> (its failure message cannot: the
// gateway accepted, so no code came back), and failure causes read it (src/report/causes.ts). Each tag
// must name a rule of the book that refuses with the error code the scenario's own steps expect.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CAUSE_FACTS } from '../src/report/causes.ts';

const root = new URL('../features/', import.meta.url).pathname;
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.feature') ? [join(dir, e.name)] : [],
  );

/** Each @rule: tag line with the error codes the scenario under it expects. */
function tagged(): Array<{ where: string; rule: string; codes: string[] }> {
  return files(root).flatMap((file) => {
    const lines = readFileSync(file, 'utf8').split('\n');
    return lines.flatMap((line, i) => {
      const rule = /@rule:([a-z0-9-]+)/.exec(line)?.[1];
      if (rule === undefined) return [];
      const body = lines.slice(i + 2);
      const end = body.findIndex((l) => /^\s*(@|Scenario)/.test(l));
      const codes = (end === -1 ? body : body.slice(0, end)).flatMap(
        (l) => /error code is "([A-Z_]+)"/.exec(l)?.slice(1) ?? [],
      );
      return [{ where: `${file.slice(root.length)}:${i + 1}`, rule, codes }];
    });
  });
}

describe('@rule: tags of the features', () => {
  it('name a rule of the book that refuses with the code the scenario expects', () => {
    const all = tagged();
    assert.ok(all.length >= 10, `only ${all.length} tags`);
    for (const { where, rule, codes } of all) {
      const facts = CAUSE_FACTS[rule];
      assert.ok(facts, `${where}: @rule:${rule} is no rule of the book`);
      assert.ok(codes.length > 0, `${where}: the scenario expects no error code`);
      assert.ok(
        codes.some((c) => facts.codes.includes(c)),
        `${where}: ${rule} refuses with ${facts.codes.join(', ')}, the scenario expects ${codes.join(', ')}`,
      );
    }
  });
});
