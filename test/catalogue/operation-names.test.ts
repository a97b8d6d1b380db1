// Code in src/ outside the catalogue names operations through OP or the Operation type, so a renamed
// or removed row breaks the build instead of a lookup (issue 15). Hand-written flows in features/
// and steps/ may use the names. Literals are found in the syntax tree, so comments do not count.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { ENDPOINTS, operationNames, PREREQUISITES } from '../../src/catalogue/index.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NAMES: ReadonlySet<string> = new Set(operationNames());

interface Hit {
  readonly file: string;
  readonly line: number;
  readonly name: string;
}

/** Every string or plain template literal whose whole text is an operation name. */
function quotedOperationNames(file: string, text: string): Hit[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const hits: Hit[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && NAMES.has(node.text)) {
      hits.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, name: node.text });
    }
    node.forEachChild(visit);
  };
  visit(source);
  return hits;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory()
      ? sourceFiles(path)
      : e.name.endsWith('.ts')
        ? [relative(ROOT, path).split('\\').join('/')]
        : [];
  });
}

const shown = (hits: readonly Hit[]): string => hits.map((h) => `${h.file}:${h.line} '${h.name}'`).join('\n');

describe('operation names outside the catalogue', () => {
  it('the scan finds quoted names in any quote, skips comments, longer strings and other case', () => {
    const text = [
      "const a = 'SALE';",
      'const b = "PAYOUT_V4";',
      'const c = `CAPTURE`;',
      "// const d = 'VOID';",
      "/* 'RETURN' */ const e = 'SALES' + 'sale' + `${a} STATUS`;",
      "type F = 'REBILL';",
    ].join('\n');
    assert.deepEqual(
      quotedOperationNames('x.ts', text).map((h) => `${h.line} ${h.name}`),
      ['1 SALE', '2 PAYOUT_V4', '3 CAPTURE', '6 REBILL'],
    );
  });

  const files = sourceFiles(join(ROOT, 'src')).filter((f) => !f.startsWith('src/catalogue/'));
  const hits = files.flatMap((f) => quotedOperationNames(f, readFileSync(join(ROOT, f), 'utf8')));

  it('no file of src/ outside src/catalogue names an operation by a string literal', () => {
    assert.ok(files.length > 50, `only ${files.length} files found under src/`);
    assert.equal(hits.length, 0, `use OP.X or the Operation type instead of these:\n${shown(hits)}`);
  });
});

describe('per-operation facts', () => {
  it('every operation states its prerequisite, or null', () => {
    assert.deepEqual(Object.keys(PREREQUISITES).sort(), [...NAMES].sort());
  });

  it("a row checks requests against the spec's schema where the spec shows one", () => {
    for (const e of ENDPOINTS)
      if (e.requestSchema !== null) assert.equal(e.checkedRequestSchema, e.requestSchema, e.operation);
  });
});
