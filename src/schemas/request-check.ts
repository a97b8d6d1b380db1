/**
 * Checks a form body against its request schema (ajv, compiled once per schema) and builds valid
 * sample requests from the schemas' examples. The mock refuses with the first problem, naming the
 * field and the rule; the suite and the tests send what `sampleRequest` builds.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import type { Endpoint } from '../catalogue/index.ts';
import type { Pair } from '../signing/form-body.ts';
import { addFormats } from './formats.ts';
import { FIELDS, REQUEST_SCHEMAS, REQUIRED_FIELDS } from './requests.ts';

// One error is enough to refuse a request, and stopping at it keeps the mock fast.
const ajv = addFormats(new Ajv({ allErrors: false, strict: true }));
const compiled = new Map<string, ValidateFunction>();

export type RequestProblem = {
  readonly code: 'FIELD_MISSING' | 'FIELD_INVALID' | 'FIELD_DUPLICATE';
  readonly field: string;
  readonly message: string;
};

/** The request schema of a catalogue row: the spec's name, or ours where the spec shows none. */
export function requestSchemaOf(endpoint: Endpoint): string {
  return endpoint.checkedRequestSchema;
}

function validatorOf(schemaName: string): ValidateFunction {
  let validate = compiled.get(schemaName);
  if (validate) return validate;
  const schema = REQUEST_SCHEMAS[schemaName];
  if (schema === undefined) throw new Error(`internal: no request schema named ${schemaName}`);
  compiled.set(schemaName, (validate = ajv.compile(schema)));
  return validate;
}

/**
 * The first problem of a request's fields, or undefined when they are fine. A field sent twice is
 * refused: which value counts would be a guess, and the signature covers both. Fields `judgedElsewhere`
 * (a signature's own) are left out as they are read, without a copy of the form.
 */
export function checkRequestFields(
  schemaName: string,
  params: readonly Pair[],
  judgedElsewhere: (name: string) => boolean = () => false,
): RequestProblem | undefined {
  const body: Record<string, string> = {};
  for (const [name, value] of params) {
    if (judgedElsewhere(name)) continue;
    if (Object.hasOwn(body, name) && !name.startsWith('oauth_'))
      return { code: 'FIELD_DUPLICATE', field: name, message: `${name}: must appear once` };
    body[name] = value;
  }
  const validate = validatorOf(schemaName);
  if (validate(body)) return undefined;
  const [error] = validate.errors ?? [];
  if (error === undefined) throw new Error(`internal: ${schemaName} refused a request without saying why`);
  if (error.keyword === 'required') {
    // Every missing field at once (ajv stops at the first, which keeps the mock fast): a developer
    // should not find them one round trip at a time.
    const field = (error.params as { missingProperty: string }).missingProperty;
    const missing = (REQUIRED_FIELDS[schemaName] ?? [field]).filter((name) => !Object.hasOwn(body, name));
    const all = missing.includes(field) ? missing : [field, ...missing];
    return {
      code: 'FIELD_MISSING',
      field,
      message:
        all.length === 1
          ? `${field}: is required by ${schemaName}`
          : `${all.join(', ')}: are required by ${schemaName}`,
    };
  }
  const field = error.instancePath.split('/')[1] ?? '';
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
 * `overrides` replacing or adding fields (in the order given after the mandatory ones).
 */
export function sampleRequest(endpoint: Endpoint, overrides: readonly Pair[] = []): Pair[] {
  const schemaName = requestSchemaOf(endpoint);
  const required = REQUIRED_FIELDS[schemaName];
  if (required === undefined) throw new Error(`internal: no mandatory fields listed for ${schemaName}`);
  const given = new Map(overrides);
  const pairs: Pair[] = required.map((name) => [name, given.get(name) ?? exampleOf(name)]);
  for (const [name, value] of overrides) if (!required.includes(name)) pairs.push([name, value]);
  return pairs;
}
