// Holds src/ to the import order that docs/architecture.md draws: a folder imports only itself and
// the folders its row names (type-only imports count too), and src/ never imports steps/, scripts/,
// bench/ or test/. The table is read from the doc, so the doc and the code cannot drift apart.
// It also holds the house's habits: no import cycle among src files, no src line over 120 characters.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  assertionsAndAny,
  escapeFunctions,
  FINDING_READERS,
  importCycles,
  importsOf,
  longLines,
  MAX_LINE,
  messageRegexes,
  tsFiles,
} from '../scripts/house.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = join(ROOT, 'src');

/** The doc's table: folder → folders it may import. */
export function importOrder(doc: string): Map<string, Set<string>> {
  const table = doc.split('<!-- IMPORT-ORDER:START -->')[1]?.split('<!-- IMPORT-ORDER:END -->')[0];
  if (table === undefined) throw new Error('docs/architecture.md has no IMPORT-ORDER table');
  const order = new Map<string, Set<string>>();
  for (const line of table.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const folder = /^`([a-z-]+)`$/.exec(cells[1] ?? '')?.[1];
    if (folder) order.set(folder, new Set([...(cells[3] ?? '').matchAll(/`([a-z-]+)`/g)].map((m) => m[1] ?? '')));
  }
  return order;
}

/** The folder of src/ a file is in; `root` for a file directly in src/; the top folder outside src/. */
export function areaOf(file: string): string {
  const fromSrc = relative(SRC, file);
  if (!fromSrc.startsWith('..')) return fromSrc.includes(sep) ? (fromSrc.split(sep)[0] ?? 'root') : 'root';
  return `../${relative(ROOT, file).split(sep)[0]}`;
}

/** Every import of src/ that its folder's row does not allow, as "file: imports target (folder)". */
export function violations(order: Map<string, Set<string>>, files: ReadonlyArray<readonly [string, string]>): string[] {
  const found: string[] = [];
  for (const [file, text] of files) {
    const from = areaOf(file);
    const allowed = order.get(from);
    for (const spec of importsOf(text)) {
      const target = resolve(dirname(file), spec);
      const to = areaOf(target);
      if (to === from) continue;
      if (allowed === undefined || !allowed.has(to))
        found.push(`${relative(ROOT, file)}: imports ${spec} (${to}), which ${from} may not`);
    }
  }
  return found;
}

describe('the import order of docs/architecture.md', () => {
  const order = importOrder(readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8'));
  const files = tsFiles(SRC).map((f) => [f, readFileSync(f, 'utf8')] as const);

  it('has a row for every folder of src/', () => {
    const folders = new Set(files.map(([f]) => areaOf(f)));
    assert.deepEqual(
      [...folders].filter((f) => !order.has(f)),
      [],
    );
  });

  it('names only folders it has rows for', () => {
    for (const [folder, allowed] of order)
      for (const to of allowed) assert.ok(order.has(to), `${folder} may import ${to}, which has no row`);
  });

  it('is a strict order: no two folders may import each other', () => {
    for (const [folder, allowed] of order)
      for (const to of allowed) assert.ok(!order.get(to)?.has(folder), `${folder} and ${to} may import each other`);
  });

  it('holds for every import in src/', () => {
    assert.deepEqual(violations(order, files), []);
  });

  it("keeps the step code off the CLI: steps drive the suite's modules, not commands", () => {
    const steps = tsFiles(join(ROOT, 'steps')).flatMap((f) =>
      importsOf(readFileSync(f, 'utf8'))
        .filter((s) => resolve(dirname(f), s).startsWith(join(SRC, 'cli') + sep))
        .map((s) => `${relative(ROOT, f)}: ${s}`),
    );
    assert.deepEqual(steps, []);
  });

  it('catches an import against the order, a type-only one, a dynamic one and one of test code', () => {
    const file = (area: string, name: string) => join(SRC, area, name);
    const planted: Array<readonly [string, string]> = [
      [file('catalogue', 'x.ts'), "import { signRequest } from '../signing/sign.ts';"],
      [file('signing', 'y.ts'), "import type { Merchant } from '../rules/merchant.ts';"],
      [file('rules', 'z.ts'), "const m = await import('../mock/server.ts');"],
      [file('mock', 'w.ts'), "export { x } from '../../test/oracles.ts';"],
      [file('mock', 'ok.ts'), "import { OP } from '../catalogue/index.ts';\nimport { PASS } from '../rules/rule.ts';"],
    ];
    const found = violations(order, planted);
    assert.equal(found.length, 4, found.join('\n'));
    assert.match(
      found.join('\n'),
      /catalogue\/x\.ts: imports \.\.\/signing\/sign\.ts \(signing\), which catalogue may not/,
    );
    assert.match(found.join('\n'), /mock\/w\.ts: imports \.\.\/\.\.\/test\/oracles\.ts \(\.\.\/test\)/);
  });
});

describe('the house habits of src/', () => {
  const files = tsFiles(SRC).map((f) => [f, readFileSync(f, 'utf8')] as const);
  const name = (f: string) => relative(ROOT, f);

  it('has no import cycle, type-only imports included', () => {
    assert.deepEqual(importCycles(files, name), []);
  });

  it(`has no line over ${MAX_LINE} characters`, () => {
    assert.deepEqual(longLines(files, name), []);
  });

  it("applies no regular expression to a failure's message: causes are read from findings", () => {
    const readers = files.filter(([f]) => FINDING_READERS.includes(areaOf(f)));
    assert.ok(readers.length > 20, 'the folders that read failures back are found');
    assert.deepEqual(
      readers.flatMap(([f, text]) => messageRegexes(f, text, name)),
      [],
    );
  });

  it('finds a regular expression on a message, whichever side it is on, and not one on other text', () => {
    const planted = [
      'const rule = /\\(rule ([a-z-]+)\\)/.exec(message)?.[1];',
      'if (/expected a refusal/.test(r.failure ?? "")) n++;',
      'const code = failureMessage(raw).match(/CODE=(\\w+)/);',
      "function checkOf(failure: string) { return failure.split('\\n')[0]?.replace(/\\d+/g, 'N'); }",
      "function failureMessage(raw: string) { return raw.replace(/^Error: /, ''); }",
      "const ok = /^\\d+$/.test(amount) && name.replace(/-/g, '_') && message.startsWith('x');",
    ].join('\n');
    assert.deepEqual(messageRegexes(join(SRC, 'x.ts'), planted, name), [
      'src/x.ts:1',
      'src/x.ts:2',
      'src/x.ts:3',
      'src/x.ts:4',
      'src/x.ts:5',
    ]);
  });

  it('names each import cycle as a path, a type-only or dynamic edge too, and passes a graph without one', () => {
    const file = (n: string) => join(SRC, 'x', n);
    const planted: Array<readonly [string, string]> = [
      [file('a.ts'), "import { b } from './b.ts';\nimport { c } from './c.ts';"],
      [file('b.ts'), "import type {\n  A,\n} from './a.ts';"],
      [file('c.ts'), "const d = await import('./d.ts');"],
      [file('d.ts'), "export { c } from './c.ts';"],
    ];
    assert.deepEqual(importCycles(planted, name), [
      'src/x/a.ts → src/x/b.ts → src/x/a.ts',
      'src/x/c.ts → src/x/d.ts → src/x/c.ts',
    ]);
    assert.deepEqual(importCycles(planted.slice(0, 1), name), []);
  });

  it('counts characters, not bytes, and flags only a line past the limit', () => {
    const planted: Array<readonly [string, string]> = [
      [join(SRC, 'x.ts'), `${'a'.repeat(120)}\n${'é'.repeat(120)}\n${'b'.repeat(121)}\n`],
    ];
    assert.deepEqual(longLines(planted, name), ['src/x.ts:3 (121 characters)']);
  });

  it('counts non-null assertions and `any` by syntax, not by text in strings or comments', () => {
    const text = "const a = b!.c!.d; let x: any; const y = z as any;\n// w! any\nconst s = 'q! any'; if (!a) x = !y;";
    assert.deepEqual(assertionsAndAny('x.ts', text), { nonNull: 2, any: 2 });
  });

  it('counts an escape function by the character class it replaces, not by its name', () => {
    const text = [
      'const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);',
      "function visible(s: string) { return s.replace(/[\\x00-\\x1f\\x7f]/gu, (c) => '?'); }",
      "class W { amp(s: string) { return s.replace(/&/g, '&amp;'); } }",
      "const escapeLike = (s: string) => s.replace(/<skipped\\/>/g, '');",
      "const trim = (s: string) => s.replace(/^\\s+/, '');",
      "const C = '\\\\x00-\\\\x1f';\nconst IN = new RegExp(`[${C}]`, 'g');\nconst line = (s: string) => s.replace(IN, '?');",
      "const WORD = new RegExp('[a-z]+', 'g');\nconst words = (s: string) => s.replace(WORD, '');",
    ].join('\n');
    assert.deepEqual(escapeFunctions([[join(SRC, 'x.ts'), text]], name), [
      'src/x.ts: esc',
      'src/x.ts: visible',
      'src/x.ts: amp',
      'src/x.ts: line',
    ]);
  });
});
