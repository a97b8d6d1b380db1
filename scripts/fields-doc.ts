// Writes docs/fields.md from the field tables in src/catalogue/fields (npm run docs:fields): every request and
// answer field of every operation, how it is needed and the public page it was read from, so the page shows exactly
// what the mock, the schemas, the OpenAPI document and the Postman collection use. test/catalogue/fields-doc.test.ts
// checks it is not stale.
import { writeFileSync } from 'node:fs';
import { ANSWER_FIELD_TABLES } from '../src/catalogue/fields/answers.ts';
import { REQUEST_FIELD_TABLES } from '../src/catalogue/fields/requests.ts';
import type { FieldRow, FieldTable } from '../src/catalogue/fields/types.ts';
import { ENDPOINTS } from '../src/catalogue/index.ts';

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const LETTER = { mandatory: 'M', optional: 'O', conditional: 'C' } as const;

/** The operations whose rows name the schema, as the request's or the answer's. */
function operationsOf(schema: string, side: 'request' | 'answer'): string[] {
  return ENDPOINTS.filter((e) =>
    side === 'request' ? e.checkedRequestSchema === schema : e.responseSchema === schema,
  ).map((e) => e.operation);
}

/** Field × operation: for each field, the schemas that need it, may take it, or need it on a condition. */
function matrix(tables: readonly FieldTable[]): string[] {
  const names = [...new Set(tables.flatMap((t) => t.fields.map((f) => f.name)))];
  const lines = ['| field | mandatory (M) in | optional (O) in | conditional (C) in |', '|---|---|---|---|'];
  for (const name of names) {
    const where = (necessity: FieldRow['necessity']): string =>
      tables
        .filter((t) => t.fields.some((f) => f.name === name && f.necessity === necessity))
        .map((t) => t.schema)
        .join(', ') || '—';
    lines.push(`| \`${cell(name)}\` | ${where('mandatory')} | ${where('optional')} | ${where('conditional')} |`);
  }
  return lines;
}

function notes(row: FieldRow): string {
  const parts = [
    row.condition === undefined ? '' : `when: ${row.condition}`,
    row.requiredWith === undefined ? '' : `needed when \`${row.requiredWith}\` is sent`,
    row.allowed === undefined ? '' : `one of ${row.allowed.join(', ')}`,
    row.source.spec === undefined ? '' : `spec (wins): ${row.source.spec}`,
    row.source.disagreement === undefined ? '' : `pages differ: ${row.source.disagreement}`,
  ];
  return cell(parts.filter((p) => p !== '').join('; ')) || '—';
}

function tableSection(table: FieldTable, side: 'request' | 'answer'): string[] {
  const ops = operationsOf(table.schema, side);
  const lines = [
    `### ${table.schema}${ops.length ? ` (${ops.join(', ')})` : ''}`,
    '',
    `Page: ${table.page}`,
    '',
    '| field | need | control | kind | assumption | source | notes |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const row of table.fields) {
    const control = row.inControl ? 'yes' : '—';
    const assumption = row.source.assumption ?? '—';
    const source = row.source.page === table.page ? 'the page' : row.source.page;
    lines.push(
      `| \`${cell(row.name)}\` | ${LETTER[row.necessity]} | ${control} | ${row.kind} | ${assumption} | ${source} | ` +
        `${notes(row)} |`,
    );
  }
  return [...lines, ''];
}

function side(title: string, tables: readonly FieldTable[], which: 'request' | 'answer'): string[] {
  if (tables.length === 0) return [`## ${title}`, '', 'No field tables yet.', ''];
  return [
    `## ${title}`,
    '',
    '### Field × operation',
    '',
    ...matrix(tables),
    '',
    ...tables.flatMap((t) => tableSection(t, which)),
  ];
}

export function fieldsDoc(
  requests: readonly FieldTable[] = REQUEST_FIELD_TABLES,
  answers: readonly FieldTable[] = ANSWER_FIELD_TABLES,
): string {
  const lines = [
    '# The fields of each request and answer',
    '',
    'The seed spec names every request and answer schema but shows none of their fields, so each field, how an operation',
    "needs it and whether it enters the control formula come from the API family's public pages, one page per operation",
    '(`src/catalogue/fields/requests.ts`, `src/catalogue/fields/answers.ts`). Where the spec says something it wins,',
    'noted beside the page; where pages disagree the row says so; a row the page read does not settle names its',
    'assumption (docs/assumptions.md). The request schemas, the OpenAPI document and the Postman collection are',
    'generated from these tables. Need: **M** mandatory, **O** optional, **C** conditional (the note says when). An',
    'optional field sent empty counts as not sent, and a field an operation does not list is ignored (A-36).',
    'This page is generated: `npm run docs:fields`.',
    '',
    ...side('Requests', requests, 'request'),
    ...side('Answers', answers, 'answer'),
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`)
  writeFileSync(new URL('../docs/fields.md', import.meta.url), fieldsDoc());
