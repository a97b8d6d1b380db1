/** Validation of response bodies against their named schema (ajv, compiled once per schema). */
import { Ajv, type ValidateFunction } from 'ajv';
import { panSpans } from '../catalogue/card-echoes.ts';
import { addFormats } from './formats.ts';
import { RESPONSE_SCHEMAS } from './responses.ts';

export { RESPONSE_SCHEMAS };
export { checkRequestFields, exampleOf, requestSchemaOf, sampleRequest, type RequestProblem } from './request-check.ts';
export { REQUEST_SCHEMAS, REQUEST_TABLES, REQUIRED_FIELDS } from './requests.ts';

const ajv = addFormats(new Ajv({ allErrors: true, strict: true }));
const compiled = new Map<string, ValidateFunction>();

export type Validation = { readonly valid: true } | { readonly valid: false; readonly errors: string[] };

/** Errors are one line each, `/field: message`, so they read well after the schema's name. */
export function validateResponse(schemaName: string, body: unknown): Validation {
  const schema = RESPONSE_SCHEMAS[schemaName];
  if (schema === undefined) return { valid: false, errors: [`: no schema named ${schemaName}`] };
  let validate = compiled.get(schemaName);
  if (!validate) compiled.set(schemaName, (validate = ajv.compile(schema)));
  if (validate(body)) {
    return containsFullPan(body)
      ? {
          valid: false,
          errors: [': contains a full card number (at most the first six and last four digits may be shown)'],
        }
      : { valid: true };
  }
  return {
    valid: false,
    errors: (validate.errors ?? []).map((e) => {
      const extra =
        e.keyword === 'additionalProperties'
          ? ` "${(e.params as { additionalProperty: string }).additionalProperty}"`
          : '';
      return `${e.instancePath || '/'}: ${e.message ?? 'is invalid'}${extra}`;
    }),
  };
}

// Identifiers are long digit strings too, and one in ten passes the Luhn check by chance.
const ID_FIELD = /(-id|serial-number)$/;

/**
 * True when a string inside `value` (outside identifier fields) holds a 13–19 digit run (or one grouped as on
 * a card) that passes the Luhn check: a full card number, which no answer may carry.
 */
export function containsFullPan(value: unknown): boolean {
  if (typeof value === 'string') return panSpans(value).length > 0;
  if (Array.isArray(value)) return value.some(containsFullPan);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).some(([key, v]) => !ID_FIELD.test(key) && containsFullPan(v));
  }
  return false;
}
