// The house's checks over source text, one implementation for test/architecture.test.ts and
// `npm run house`: what a file imports, import cycles, long lines, non-null assertions and `any`, and
// regular expressions applied to failure messages.
// TypeScript's own scanner reads the imports, so a type-only, multi-line or dynamic one is never missed.
import ts from 'typescript';
import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The longest line the house allows (Prettier's printWidth). */
export const MAX_LINE = 120;

/** A source file: its path and its text. */
export type Source = readonly [file: string, text: string];

/** Every TypeScript file under `dir`, depth first. */
export function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every relative module a TypeScript file imports, re-exports or loads dynamically, type-only included. */
export function importsOf(text: string): string[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((s) => s.startsWith('.'));
}

/**
 * Each import cycle among `files`, as a path "a → b → a" of `name(file)`. A depth-first walk reports
 * the cycle closed by each edge back into its own path, so a cyclic graph always shows at least one.
 */
export function importCycles(files: readonly Source[], name: (file: string) => string = (f) => f): string[] {
  const edges = new Map<string, string[]>();
  for (const [file, text] of files)
    edges.set(
      file,
      importsOf(text).map((s) => resolve(dirname(file), s)),
    );
  const done = new Set<string>();
  const path: string[] = [];
  const found = new Map<string, string>();
  const walk = (file: string): void => {
    path.push(file);
    for (const to of edges.get(file) ?? []) {
      const back = path.indexOf(to);
      if (back >= 0) record([...path.slice(back), to]);
      else if (!done.has(to) && edges.has(to)) walk(to);
    }
    path.pop();
    done.add(file);
  };
  const record = (cycle: string[]): void => {
    const ring = cycle.slice(1);
    const first = ring.indexOf([...ring].sort()[0] ?? '');
    const from = [...ring.slice(first), ...ring.slice(0, first)];
    const key = from.join('\n');
    if (!found.has(key)) found.set(key, [...from, from[0] ?? ''].map(name).join(' → '));
  };
  for (const [file] of files) if (!done.has(file)) walk(file);
  return [...found.values()];
}

/** Every line longer than MAX_LINE characters, as "file:line (n characters)". */
export function longLines(files: readonly Source[], name: (file: string) => string = (f) => f): string[] {
  return files.flatMap(([file, text]) =>
    text.split('\n').flatMap((line, i) => {
      const length = [...line].length;
      return length > MAX_LINE ? [`${name(file)}:${i + 1} (${length} characters)`] : [];
    }),
  );
}

/** How many non-null assertions (`x!`) and `any` keywords a file holds, by its syntax tree. */
export function assertionsAndAny(file: string, text: string): { nonNull: number; any: number } {
  const counts = { nonNull: 0, any: 0 };
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.NonNullExpression) counts.nonNull++;
    if (node.kind === ts.SyntaxKind.AnyKeyword) counts.any++;
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true));
  return counts;
}

/**
 * A regular expression literal that escapes for an output medium: one character or one character
 * class (`/</g`, `/[&<>"']/g`, `/[\x00-\x1f]/gu`) that takes in markup's special characters (`&`,
 * `<`) or control characters (the terminal's and XML 1.0's forbidden ones).
 */
const ESCAPING = /^\/(?:\[[^\]]*(?:[&<]|\\x[01]|\\u00[01]|\\x7f|\\p\{C)[^\]]*\]|[&<])\+?\/[a-z]*$/i;

/** The same, for a class built as text for `new RegExp(…)`: its text mentions those characters. */
const ESCAPING_TEXT = /\[[^\]]*(?:[&<]|\\x[01]|\\u00[01]|\\x7f|\\p\{C)/i;

/**
 * Every escape function in `files`, as "file: name": a named function, method or arrow whose own
 * body (not a nested named one) calls `.replace`/`.replaceAll` with a regular expression that escapes
 * for a medium: a literal (ESCAPING), or a constant of the file holding one or built by `new RegExp`
 * from text that names such a class (ESCAPING_TEXT, the file's constants it uses read in). Issue 41's
 * goal is one writer per medium.
 */
export function escapeFunctions(files: readonly Source[], name: (file: string) => string = (f) => f): string[] {
  const found = new Set<string>();
  for (const [file, text] of files) {
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const constants = new Map<string, ts.Expression>();
    const collect = (node: ts.Node): void => {
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer)
        constants.set(node.name.text, node.initializer);
      ts.forEachChild(node, collect);
    };
    collect(source);
    /** The text of an expression with the file's constants it names read in (two levels deep). */
    const expanded = (node: ts.Node, depth = 0): string =>
      depth > 2
        ? node.getText()
        : node.getText().replace(/\b[A-Za-z_$][\w$]*\b/g, (id) => {
            const init = constants.get(id);
            return init === undefined ? id : expanded(init, depth + 1);
          });
    const escapes = (pattern: ts.Expression): boolean => {
      if (ts.isRegularExpressionLiteral(pattern)) return ESCAPING.test(pattern.text);
      const init = ts.isIdentifier(pattern) ? constants.get(pattern.text) : undefined;
      if (init === undefined) return false;
      if (ts.isRegularExpressionLiteral(init)) return ESCAPING.test(init.text);
      return ts.isNewExpression(init) && init.expression.getText() === 'RegExp' && ESCAPING_TEXT.test(expanded(init));
    };
    const visit = (node: ts.Node, owner: string | undefined): void => {
      const own = declaredName(node) ?? owner;
      if (
        own !== undefined &&
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        ['replace', 'replaceAll'].includes(node.expression.name.text) &&
        node.arguments[0] !== undefined &&
        escapes(node.arguments[0])
      )
        found.add(`${name(file)}: ${own}`);
      ts.forEachChild(node, (child) => visit(child, own));
    };
    visit(source, undefined);
  }
  return [...found];
}

/** The name a node declares a function under, if it is a function declaration, method or named arrow. */
function declaredName(node: ts.Node): string | undefined {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) return node.name.getText();
  if (
    ts.isVariableDeclaration(node) &&
    node.initializer &&
    (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))
  )
    return node.name.getText();
  return undefined;
}

/** The folders whose code reads failures back: none of them may apply a regular expression to a message. */
export const FINDING_READERS = ['report', 'inspect', 'prove', 'suite'];

const REGEX_TAKERS = new Set(['match', 'matchAll', 'replace', 'replaceAll', 'search', 'split']);
const REGEX_METHODS = new Set(['test', 'exec']);
const MESSAGE_WORDS = /message|failure/i;

/**
 * Every regular expression applied to a failure's message, as "file:line": `re.test(x)` or `re.exec(x)`, and
 * `x.match(re)`, `x.replace(re, …)` and the like, where `x` names a message or a failure, or the call sits in
 * a function whose name does. A failure's cause is read from its finding (src/report/findings.ts), never
 * parsed back from the words of a message that quotes the gateway.
 */
export function messageRegexes(file: string, text: string, name: (f: string) => string = (f) => f): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const isRegex = (n: ts.Node | undefined): boolean => n !== undefined && ts.isRegularExpressionLiteral(n);
  const inMessageFunction = (n: ts.Node): boolean => {
    for (let up: ts.Node | undefined = n.parent; up !== undefined; up = up.parent) {
      const declared = ts.isFunctionDeclaration(up) || ts.isVariableDeclaration(up) || ts.isMethodDeclaration(up);
      const named: ts.Node | undefined = declared ? (up as ts.NamedDeclaration).name : undefined;
      if (named !== undefined && MESSAGE_WORDS.test(named.getText(source))) return true;
    }
    return false;
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      const subject =
        REGEX_METHODS.has(method) && isRegex(node.expression.expression)
          ? node.arguments[0]
          : REGEX_TAKERS.has(method) && isRegex(node.arguments[0])
            ? node.expression.expression
            : undefined;
      if (subject !== undefined && (MESSAGE_WORDS.test(subject.getText(source)) || inMessageFunction(node)))
        found.push(`${name(file)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
