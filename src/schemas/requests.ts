/**
 * JSON Schemas (draft-07) of the request bodies, generated from the request field tables
 * (src/catalogue/fields/requests.ts): the spec names the request schemas but shows no fields, so each
 * field, its necessity and its source come from the family's public pages (docs/fields.md shows them).
 * Every form value is a string. A schema lists its operation's fields only: others are ignored, as the
 * family ignores them (a card number where none belongs is the rule card-data-where-asked's, A-37).
 *
 * Each field carries one `examples` value: `sampleRequest()` builds a valid request from them, so
 * tests, the conformance suite and the benchmarks all send what these schemas accept.
 */
import { REQUEST_FIELD_ORDER, REQUEST_FIELD_TABLES } from '../catalogue/fields/requests.ts';
import type { FieldRow, FieldTable } from '../catalogue/fields/types.ts';
import { DECIMAL_AMOUNT_PATTERN } from '../signing/cents.ts';

/** A field's JSON Schema, from its row's kind, pattern and length. */
function fieldSchema(row: FieldRow): object {
  const common = { description: row.description, examples: [row.example] };
  if (row.kind === 'ip')
    return {
      type: 'string',
      anyOf: [
        { type: 'string', format: 'ipv4' },
        { type: 'string', format: 'ipv6' },
      ],
      ...common,
    };
  if (row.kind === 'enum') return { type: 'string', enum: row.allowed ?? [], ...common };
  // The merchant's URLs: their grammar is the rule merchant-urls' (A-33); a mandatory one must not be blank.
  if (row.kind === 'url')
    return { type: 'string', ...(row.pattern === undefined ? {} : { pattern: row.pattern }), ...common };
  const pattern = row.kind === 'amount' ? DECIMAL_AMOUNT_PATTERN : row.pattern;
  if (pattern !== undefined) return { type: 'string', pattern, ...common };
  return { type: 'string', minLength: 1, maxLength: row.maxLength ?? 128, ...common };
}

const firstRowOf = new Map<string, FieldRow>();
for (const table of REQUEST_FIELD_TABLES)
  for (const row of table.fields) if (!firstRowOf.has(row.name)) firstRowOf.set(row.name, row);

/** Every field any request schema names, with its rule, in the order fields are judged. */
export const FIELDS: Readonly<Record<string, object>> = Object.fromEntries(
  REQUEST_FIELD_ORDER.flatMap((name) => {
    const row = firstRowOf.get(name);
    return row === undefined ? [] : [[name, fieldSchema(row)]];
  }),
);

/** Each request schema's table, by schema name. */
export const REQUEST_TABLES: ReadonlyMap<string, FieldTable> = new Map(REQUEST_FIELD_TABLES.map((t) => [t.schema, t]));

/** Mandatory fields per request schema, in the table's order (the first missing one is named). */
export const REQUIRED_FIELDS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  REQUEST_FIELD_TABLES.map((t) => [t.schema, t.fields.filter((f) => f.necessity === 'mandatory').map((f) => f.name)]),
);

/** Each schema's fields needed only beside another (`requiredWith`): name → the field that needs it. */
export const REQUIRED_WITH: Readonly<Record<string, Readonly<Record<string, string>>>> = Object.fromEntries(
  REQUEST_FIELD_TABLES.map((t) => [
    t.schema,
    Object.fromEntries(t.fields.flatMap((f) => (f.requiredWith === undefined ? [] : [[f.name, f.requiredWith]]))),
  ]),
);

function requestSchema(table: FieldTable): object {
  const names = new Set(table.fields.map((f) => f.name));
  const properties = Object.fromEntries(Object.entries(FIELDS).filter(([name]) => names.has(name)));
  // draft-07's `dependencies`: a field sent asks for the fields that must come with it.
  const needs = new Map<string, string[]>();
  for (const [name, trigger] of Object.entries(REQUIRED_WITH[table.schema] ?? {}))
    needs.set(trigger, [...(needs.get(trigger) ?? []), name]);
  return {
    type: 'object',
    required: REQUIRED_FIELDS[table.schema],
    properties,
    ...(needs.size === 0 ? {} : { dependencies: Object.fromEntries(needs) }),
  };
}

export const REQUEST_SCHEMAS: Readonly<Record<string, object>> = Object.fromEntries(
  REQUEST_FIELD_TABLES.map((t) => [t.schema, requestSchema(t)]),
);
