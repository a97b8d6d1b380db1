/**
 * Checks a form body against its request schema (ajv, one validator per field) and builds valid
 * sample requests from the schemas' examples. The mock refuses with the first problem, naming the
 * field and the rule; the suite and the tests send what `sampleRequest` builds.
 *
 * The family's reading of a form (A-36, every request page): "Leading and trailing whitespace in input
 * parameters will be omitted", so a value is judged trimmed, but for a value the signature covers (the
 * merchant signed what it sent) and the amount (A-7, converted to cents as sent); an optional field sent
 * blank is a field not sent; a field the schema does not name is ignored.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { ENDPOINTS, type Endpoint } from '../catalogue/index.ts';
import { CARD_NUMBER_FIELDS, CVV_FIELDS } from '../catalogue/test-cards.ts';
import { ownString } from '../own-string.ts';
import type { Pair } from '../signing/form-body.ts';
import { addFormats } from './formats.ts';
import { FIELDS, REQUEST_TABLES, REQUIRED_FIELDS, REQUIRED_WITH } from './requests.ts';

// One error is enough to refuse a request, and stopping at it keeps the mock fast.
const ajv = addFormats(new Ajv({ allErrors: false, strict: true }));

export type RequestProblem = {
  readonly code: 'FIELD_MISSING' | 'FIELD_INVALID' | 'FIELD_DUPLICATE';
  readonly field: string;
  readonly message: string;
};

/** The request schema of a catalogue row: the spec's name, or ours where the spec shows none. */
export function requestSchemaOf(endpoint: Endpoint): string {
  return endpoint.checkedRequestSchema;
}

/**
 * Every field a schema names, by its place in FIELDS: the order ajv judges a whole request's properties in, so a
 * request with several malformed fields is refused for the same one.
 */
const FIELD_NAMES = Object.keys(FIELDS);
const FIELD_INDEX = new Map(FIELD_NAMES.map((name, index) => [name, index]));
// ajv stays every field's grammar: one validator per field, compiled when a request first sends it.
const fieldValidators: (ValidateFunction | undefined)[] = [];

function validatorOfField(index: number): ValidateFunction {
  let validate = fieldValidators[index];
  if (validate === undefined) fieldValidators[index] = validate = ajv.compile(FIELDS[FIELD_NAMES[index] ?? ''] ?? {});
  return validate;
}

/**
 * Each field's last value that its grammar accepted: a merchant's requests mostly repeat a field's value (the same
 * currency, country, e-mail and URLs in a test run, certify's examples), and the same value needs no second look.
 * One value per field bounds it; it is a copy, so no request body stays alive through it, and a card number or CVV is
 * never kept.
 */
const lastValid: (string | undefined)[] = [];
const REMEMBERED: readonly boolean[] = FIELD_NAMES.map(
  (name) => !CARD_NUMBER_FIELDS.has(name) && !CVV_FIELDS.has(name),
);

/** The field's validator where it refuses the value (its errors say why), else undefined: ajv's verdict, remembered. */
function refusedBy(index: number, value: string): ValidateFunction | undefined {
  if (value === lastValid[index]) return undefined;
  const validate = validatorOfField(index);
  if (!validate(value)) return validate;
  if (REMEMBERED[index] === true) lastValid[index] = ownString(value);
  return undefined;
}

const indexOf = (schemaName: string, name: string): number => {
  const index = FIELD_INDEX.get(name);
  if (index === undefined) throw new Error(`internal: ${schemaName} names ${name}, which FIELDS has no rule for`);
  return index;
};

/** What the check needs of one schema, by places in FIELDS. */
interface SchemaFields {
  /** The mandatory fields in the schema's order (ajv reports the first missing). */
  readonly required: readonly number[];
  /** Whether the schema names the field at each place of FIELDS: others are ignored. */
  readonly named: readonly boolean[];
  /** Whether the field is mandatory: an optional one sent blank is not sent. */
  readonly mandatory: readonly boolean[];
  /** [field, the field whose sending needs it] (`requiredWith`), in the schema's order. */
  readonly withOthers: readonly (readonly [number, number])[];
  /** Whether the value is judged with its outer whitespace omitted: not where it is signed, nor the amount. */
  readonly trimmed: readonly boolean[];
}

/** The request schemas an OAuth signature covers (every field of the body is signed). */
const OAUTH_SCHEMAS = new Set(
  ENDPOINTS.filter((e) => e.auth.kind.startsWith('oauth')).map((e) => e.checkedRequestSchema),
);

const SCHEMA_FIELDS: ReadonlyMap<string, SchemaFields> = new Map(
  Object.entries(REQUIRED_FIELDS).map(([schemaName, names]): [string, SchemaFields] => {
    const required = names.map((name) => indexOf(schemaName, name));
    const table = REQUEST_TABLES.get(schemaName)?.fields ?? [];
    const listed = new Set(table.map((f) => indexOf(schemaName, f.name)));
    const withOthers = Object.entries(REQUIRED_WITH[schemaName] ?? {}).map(
      ([name, trigger]) => [indexOf(schemaName, name), indexOf(schemaName, trigger)] as const,
    );
    const asSent = new Set(
      table.filter((f) => f.inControl || f.kind === 'amount' || OAUTH_SCHEMAS.has(schemaName)).map((f) => f.name),
    );
    return [
      schemaName,
      {
        required,
        named: FIELD_NAMES.map((_, index) => listed.has(index)),
        mandatory: FIELD_NAMES.map((_, index) => required.includes(index)),
        withOthers,
        trimmed: FIELD_NAMES.map((name) => !asSent.has(name)),
      },
    ];
  }),
);

const omitOuterWhitespace = (value: string): string => value.replace(/^[\t\n\v\f\r ]+|[\t\n\v\f\r ]+$/g, '');

/**
 * A field's value as it is judged: outer (ASCII) whitespace omitted as the pages say, but where the signature
 * covers it or it is the amount. A blank value of an optional field is then a field not sent.
 */
export function valueAsJudged(schemaName: string, field: string, value: string): string {
  const index = FIELD_INDEX.get(field);
  return index !== undefined && schemaFieldsOf(schemaName).trimmed[index] === true ? omitOuterWhitespace(value) : value;
}

/**
 * A request's field names in order as last judged for a schema, and where its fields sit. Duplicates and missing
 * fields depend on the names alone, and a merchant sends the same names in the same order request after request: a
 * layout seen before is not read again, only its values are judged (without looking each name up).
 */
interface Layout {
  readonly names: readonly string[];
  readonly judgedElsewhere: (name: string) => boolean;
  /** The schema's fields sent, by their place in FIELDS and in that order: the order values are judged in. */
  readonly fields: readonly number[];
  /** Where each of `fields` is in the pairs. */
  readonly positions: readonly number[];
}
const layouts = new Map<string, Layout>();
/** Longer requests are judged afresh each time: a layout kept is at most this many names. */
const MAX_KEPT_LAYOUT = 64;
const NOTHING_ELSEWHERE = (): boolean => false;

function sameLayout(layout: Layout, params: readonly Pair[], judgedElsewhere: (name: string) => boolean): boolean {
  const { names } = layout;
  if (layout.judgedElsewhere !== judgedElsewhere || names.length !== params.length) return false;
  for (let i = 0; i < names.length; i++) if (params[i]?.[0] !== names[i]) return false;
  return true;
}

/**
 * The first problem of a request's fields, or undefined when they are fine: what ajv says of the schema's whole
 * object (test/schemas/request-check-parity.test.ts holds the two together), found in one pass over the pairs
 * without building it. A field sent twice is refused first: which value counts would be a guess, and the signature
 * covers both. Then the first mandatory field missing, then the first malformed field in FIELDS order. Fields
 * `judgedElsewhere` (a signature's own) are left out as they are read.
 */
export function checkRequestFields(
  schemaName: string,
  params: readonly Pair[],
  judgedElsewhere: (name: string) => boolean = NOTHING_ELSEWHERE,
): RequestProblem | undefined {
  let layout = layouts.get(schemaName);
  if (layout === undefined || !sameLayout(layout, params, judgedElsewhere)) {
    const read = readLayout(schemaName, params, judgedElsewhere);
    if ('code' in read) return read;
    layout = read;
    if (params.length <= MAX_KEPT_LAYOUT) layouts.set(schemaName, layout);
  }
  const { fields, positions } = layout;
  const schema = schemaFieldsOf(schemaName);
  const values = fields.map((index, k) => {
    const value = params[positions[k] ?? 0]?.[1] ?? '';
    return schema.trimmed[index] === true ? omitOuterWhitespace(value) : value;
  });
  // An optional field sent blank is not sent: not judged, and it asks for nothing beside it.
  const sent = (k: number): boolean =>
    schema.mandatory[fields[k] ?? 0] === true || omitOuterWhitespace(values[k] ?? '') !== '';
  for (const [index, trigger] of schema.withOthers) {
    const k = fields.indexOf(trigger);
    if (k < 0 || !sent(k)) continue;
    const own = fields.indexOf(index);
    if (own < 0 || !sent(own)) return withOtherProblem(schemaName, index, trigger);
  }
  for (let k = 0; k < fields.length; k++) {
    if (!sent(k)) continue;
    const index = fields[k] ?? 0;
    const refused = refusedBy(index, values[k] ?? '');
    if (refused !== undefined) return invalidProblem(FIELD_NAMES[index] ?? '', refused);
  }
  return undefined;
}

function schemaFieldsOf(schemaName: string): SchemaFields {
  const schema = SCHEMA_FIELDS.get(schemaName);
  if (schema === undefined) throw new Error(`internal: no request schema named ${schemaName}`);
  return schema;
}

function withOtherProblem(schemaName: string, index: number, trigger: number): RequestProblem {
  const field = FIELD_NAMES[index] ?? '';
  return {
    code: 'FIELD_MISSING',
    field,
    message: `${field}: is required by ${schemaName} when ${FIELD_NAMES[trigger] ?? ''} is sent`,
  };
}

/** The layout of the pairs, or its problem: a field sent twice, else the mandatory fields missing. */
function readLayout(
  schemaName: string,
  params: readonly Pair[],
  judgedElsewhere: (name: string) => boolean,
): Layout | RequestProblem {
  const { required, named } = schemaFieldsOf(schemaName);
  const positionOf: (number | undefined)[] = new Array<number | undefined>(FIELD_NAMES.length);
  let others: string[] | undefined; // names no schema knows, kept only to see one sent twice
  for (let position = 0; position < params.length; position++) {
    const name = params[position]?.[0] ?? '';
    if (judgedElsewhere(name)) continue;
    const known = FIELD_INDEX.get(name);
    // A field the schema does not name is ignored, as any unknown field: only sent twice is it refused.
    const index = known !== undefined && named[known] === true ? known : undefined;
    const seen = index === undefined ? (others?.includes(name) ?? false) : positionOf[index] !== undefined;
    if (seen && !name.startsWith('oauth_'))
      return { code: 'FIELD_DUPLICATE', field: name, message: `${name}: must appear once` };
    if (index !== undefined) positionOf[index] = position;
    else if (!seen) (others ??= []).push(name);
  }
  if (required.some((index) => positionOf[index] === undefined))
    return missingProblem(schemaName, required, positionOf);
  const fields: number[] = [];
  const positions: number[] = [];
  positionOf.forEach((position, index) => {
    if (position === undefined) return;
    fields.push(index);
    positions.push(position);
  });
  return { names: params.map(([name]) => ownString(name)), judgedElsewhere, fields, positions };
}

/** Every missing field at once, the first named: a developer should not find them one round trip at a time. */
function missingProblem(
  schemaName: string,
  required: readonly number[],
  positionOf: readonly (number | undefined)[],
): RequestProblem {
  const all = required.filter((index) => positionOf[index] === undefined).map((index) => FIELD_NAMES[index] ?? '');
  const field = all[0] ?? '';
  return {
    code: 'FIELD_MISSING',
    field,
    message:
      all.length === 1 ? `${field}: is required by ${schemaName}` : `${all.join(', ')}: are required by ${schemaName}`,
  };
}

function invalidProblem(field: string, validate: ValidateFunction): RequestProblem {
  const [error] = validate.errors ?? [];
  if (error === undefined) throw new Error(`internal: the rule of ${field} refused a value without saying why`);
  const rule =
    error.keyword === 'pattern'
      ? `must match ${(error.params as { pattern: string }).pattern}`
      : error.keyword === 'anyOf'
        ? 'must be an IPv4 or IPv6 address'
        : (error.message ?? 'is invalid');
  return { code: 'FIELD_INVALID', field, message: `${field}: ${rule}` };
}

/** The example value of a field (every field of FIELDS has one). */
export function exampleOf(field: string): string {
  const [example] = (FIELDS[field] as { examples: string[] }).examples;
  if (example === undefined) throw new Error(`internal: field ${field} has no example`);
  return example;
}

/**
 * A request that passes the endpoint's schema: every mandatory field with its example value, with
 * `overrides` replacing or adding fields (in the order given after the mandatory ones), and the example of a
 * field an override needs beside it (a return's currency beside its amount).
 */
export function sampleRequest(endpoint: Endpoint, overrides: readonly Pair[] = []): Pair[] {
  const schemaName = requestSchemaOf(endpoint);
  const required = REQUIRED_FIELDS[schemaName];
  if (required === undefined) throw new Error(`internal: no mandatory fields listed for ${schemaName}`);
  const given = new Map(overrides);
  const pairs: Pair[] = required.map((name) => [name, given.get(name) ?? exampleOf(name)]);
  for (const [name, value] of overrides) if (!required.includes(name)) pairs.push([name, value]);
  for (const [name, trigger] of Object.entries(REQUIRED_WITH[schemaName] ?? {}))
    if (given.has(trigger) && !given.has(name)) pairs.push([name, exampleOf(name)]);
  return pairs;
}
