// Holds src/ to the import order that docs/architecture.md draws: a folder imports only itself and
// the folders its row names (type-only imports count too), and src/ never imports steps/, scripts/,
// bench/ or test/. The table is read from the doc, so the doc and the code cannot drift apart.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

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
    if (folder) order.set(folder, new Set([...(cells[3] ?? '').matchAll(/`([a-z-]+)`/g)].map((m) => m[1]))!);
  }
  return order;
}

/** Every relative module a TypeScript file imports, re-exports or loads dynamically. */
export function importsOf(text: string): string[] {
  const specifiers = [
    ...text.matchAll(
      /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*'([^']+)'|(?:^|\n)\s*import\s*'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/g,
    ),
  ];
  return specifiers.map((m) => m[1] ?? m[2] ?? m[3]).filter((s) => s!.startsWith('.'));
}

/** The folder of src/ a file is in; `root` for a file directly in src/; the top folder outside src/. */
export function areaOf(file: string): string {
  const fromSrc = relative(SRC, file);
  if (!fromSrc.startsWith('..')) return fromSrc.includes(sep) ? fromSrc.split(sep)[0]! : 'root';
  return `../${relative(ROOT, file).split(sep)[0]}`;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
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
      for (const to of allowed) assert.ok(!order.get(to)!.has(folder), `${folder} and ${to} may import each other`);
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
