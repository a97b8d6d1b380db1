// `npm run house`: the counts issue 28 tracks for src/, from the same checks the architecture test runs.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  assertionsAndAny,
  escapeFunctions,
  FINDING_READERS,
  importCycles,
  longLines,
  MAX_LINE,
  messageRegexes,
  tsFiles,
} from './house.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const files = tsFiles(join(ROOT, 'src')).map((f) => [f, readFileSync(f, 'utf8')] as const);
const name = (f: string) => relative(ROOT, f);
const counts = files.map(([f, text]) => ({ file: name(f), ...assertionsAndAny(f, text) }));
const cycles = importCycles(files, name);
const total = (key: 'nonNull' | 'any') => counts.reduce((sum, c) => sum + c[key], 0);

console.log(`non-null assertions in src: ${total('nonNull')}`);
for (const c of counts.filter((c) => c.nonNull > 0).sort((a, b) => b.nonNull - a.nonNull))
  console.log(`  ${c.nonNull} ${c.file}`);
console.log(`any in src: ${total('any')}`);
for (const c of counts.filter((c) => c.any > 0)) console.log(`  ${c.any} ${c.file}`);
console.log(`lines over ${MAX_LINE} in src: ${longLines(files).length}`);
const escapes = escapeFunctions(files, name);
const writers = new Set(escapes.map((e) => e.slice(0, e.indexOf(':'))));
console.log(`escape functions in src: ${escapes.length}, in ${writers.size} files (goal: one writer per medium)`);
for (const e of escapes) console.log(`  ${e}`);
console.log(`import cycles in src: ${cycles.length}`);
for (const cycle of cycles) console.log(`  ${cycle}`);
const parsed = FINDING_READERS.flatMap((area) =>
  tsFiles(join(ROOT, 'src', area)).flatMap((f) => messageRegexes(f, readFileSync(f, 'utf8'), name)),
);
console.log(`regular expressions applied to finding messages in src: ${parsed.length} (goal 0)`);
for (const where of parsed) console.log(`  ${where}`);
