/**
 * JSON Schemas (draft-07) of the nine response bodies the spec names, made from the answer field
 * tables (src/catalogue/fields/answers.ts), which cite the family's public pages. Unknown fields are
 * rejected: a conformance suite must notice what it does not expect, so every field a page
 * lists is in its table.
 */
import { ANSWER_FIELD_TABLES } from '../catalogue/fields/answers.ts';
import type { FieldRow, FieldTable } from '../catalogue/fields/types.ts';
import { DECIMAL_AMOUNT_PATTERN } from '../signing/cents.ts';

/** A row's value as JSON Schema: an answer carries every value as text (the public gateways' form answers). */
function valueSchema(row: FieldRow): Record<string, unknown> {
  const { allowed, pattern, maxLength } = row;
  if (row.kind === 'enum' && allowed !== undefined)
    return allowed.length === 1 ? { const: allowed[0] } : { enum: [...allowed] };
  const schema: Record<string, unknown> = { type: 'string' };
  // An answer carries the amount as the request gave it, so both follow the one grammar.
  const shape = pattern ?? (row.kind === 'amount' ? DECIMAL_AMOUNT_PATTERN : undefined);
  if (shape !== undefined) schema.pattern = shape;
  if (row.kind === 'url') schema.format = 'uri';
  // A mandatory text is there only with a value; an optional one may come empty.
  if (row.necessity === 'mandatory' && shape === undefined) schema.minLength = 1;
  if (maxLength !== undefined) schema.maxLength = maxLength;
  return schema;
}

function tableSchema(table: FieldTable): object {
  return {
    type: 'object',
    additionalProperties: false,
    required: table.fields.filter((f) => f.necessity === 'mandatory').map((f) => f.name),
    properties: Object.fromEntries(table.fields.map((f) => [f.name, valueSchema(f)])),
  };
}

export const RESPONSE_SCHEMAS: Readonly<Record<string, object>> = Object.fromEntries(
  ANSWER_FIELD_TABLES.map((table) => [table.schema, tableSchema(table)]),
);
