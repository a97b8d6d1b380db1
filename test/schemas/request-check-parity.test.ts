/**
 * The mock checks a request's fields in one pass, one ajv validator per field (src/schemas/request-check.ts). Here
 * the same bodies go through ajv's validation of the schema's whole object, built as the check did before, so the
 * two cannot drift: the same refusal (code, field, message), and the same one when a body has several problems.
 * Both read the form as the family does first (valueAsJudged, A-36): outer whitespace omitted where the value is
 * not signed, an optional field sent blank dropped.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import fc from 'fast-check';
import { checkRequestFields, exampleOf, REQUEST_SCHEMAS, REQUIRED_FIELDS } from '../../src/schemas/index.ts';
import { valueAsJudged } from '../../src/schemas/request-check.ts';
import { FIELDS } from '../../src/schemas/requests.ts';
import { addFormats } from '../../src/schemas/formats.ts';
import type { Pair } from '../../src/signing/form-body.ts';
import { fcParams, seed } from '../seed.ts';

const ajv = addFormats(new Ajv({ allErrors: false, strict: true }));
const wholeSchemas = new Map(Object.entries(REQUEST_SCHEMAS).map(([name, schema]) => [name, ajv.compile(schema)]));

/** The whole-object check: duplicates first (in send order), then ajv's first error of the schema's object. */
function wholeObject(schemaName: string, params: readonly Pair[], elsewhere: (name: string) => boolean): unknown {
  const body = new Map<string, string>();
  for (const [name, value] of params) {
    if (elsewhere(name)) continue;
    if (body.has(name) && !name.startsWith('oauth_'))
      return { code: 'FIELD_DUPLICATE', field: name, message: `${name}: must appear once` };
    body.set(name, value);
  }
  const mandatory = REQUIRED_FIELDS[schemaName] ?? [];
  for (const [name, value] of body) {
    const judged = valueAsJudged(schemaName, name, value);
    if (/^[\t\n\v\f\r ]*$/.test(judged) && !mandatory.includes(name)) body.delete(name);
    else body.set(name, judged);
  }
  const validate = wholeSchemas.get(schemaName);
  assert.ok(validate);
  if (validate(Object.fromEntries(body))) return undefined;
  const error = validate.errors?.[0];
  assert.ok(error);
  if (error.keyword === 'required') {
    const missing = (REQUIRED_FIELDS[schemaName] ?? []).filter((name) => !body.has(name));
    const field = (error.params as { missingProperty: string }).missingProperty;
    assert.equal(missing[0], field, 'ajv names the first missing field of the schema');
    const message =
      missing.length === 1
        ? `${field}: is required by ${schemaName}`
        : `${missing.join(', ')}: are required by ${schemaName}`;
    return { code: 'FIELD_MISSING', field, message };
  }
  if (error.keyword === 'dependencies') {
    const { property, missingProperty } = error.params as { property: string; missingProperty: string };
    return {
      code: 'FIELD_MISSING',
      field: missingProperty,
      message: `${missingProperty}: is required by ${schemaName} when ${property} is sent`,
    };
  }
  const field = error.instancePath.split('/')[1] ?? '';
  const rule =
    error.keyword === 'pattern'
      ? `must match ${(error.params as { pattern: string }).pattern}`
      : error.keyword === 'anyOf'
        ? 'must be an IPv4 or IPv6 address'
        : error.message;
  return { code: 'FIELD_INVALID', field, message: `${field}: ${rule}` };
}

const schemaNames = Object.keys(REQUIRED_FIELDS);
const fieldNames = Object.keys(FIELDS);
/** Values near each field's grammar: its example, and the ways a value misses one (empty, long, out of range). */
const value = (field: string): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant(exampleOf(field)) },
    fc.constantFrom('', ' ', 'x'.repeat(129), 'x'.repeat(600), '10.001', '1e3', 'eur', 'EUR', 'DE', '00', '13', '12'),
    fc.constantFrom('300.1.1.1', '2001:db8::1', 'http://a.example/x', 'javascript:alert(1)', 'a@b', 'no-at', '+49 1'),
    fc.string({ maxLength: 12 }),
    fc.stringMatching(/^[0-9]{1,22}$/),
  );
const knownPair = fc.oneof(...fieldNames.map((f) => value(f).map((v): Pair => [f, v])));
const pair = fc.oneof(
  { weight: 6, arbitrary: knownPair },
  fc.tuple(fc.constantFrom('control', 'oauth_nonce', 'extra_field', 'site_url', 'constructor'), fc.string()),
);

/** A schema's mandatory fields with their examples, then changed: some dropped, some added, duplicated, shuffled. */
const body = fc.constantFrom(...schemaNames).chain((schemaName) => {
  const base: Pair[] = (REQUIRED_FIELDS[schemaName] ?? []).map((f) => [f, exampleOf(f)]);
  return fc
    .record({
      // One in ten mandatory fields dropped: most bodies then miss none, or one or two.
      drop: fc.array(fc.nat(9), { minLength: base.length, maxLength: base.length }),
      added: fc.array(pair, { maxLength: 6 }),
      order: fc.array(fc.nat(), { minLength: base.length + 6, maxLength: base.length + 6 }),
      signatureApart: fc.boolean(),
    })
    .map(({ drop, added, order, signatureApart }) => {
      const kept = base.filter((_, i) => drop[i] !== 0);
      const params = [...kept, ...added]
        .map((p, i) => [order[i] ?? i, p] as const)
        .sort((a, b) => a[0] - b[0])
        .map(([, p]) => p);
      return { schemaName, params, signatureApart };
    });
});

const isSignatureField = (name: string): boolean => name === 'control' || name.startsWith('oauth_');

describe(`the request check in one pass (seed ${seed})`, () => {
  it('refuses what ajv refuses of the whole object, for the same field with the same words', () => {
    const outcomes = new Set<string>();
    fc.assert(
      fc.property(body, ({ schemaName, params, signatureApart }) => {
        const elsewhere = signatureApart ? isSignatureField : () => false;
        const expected = wholeObject(schemaName, params, elsewhere);
        const problem = checkRequestFields(schemaName, params, elsewhere);
        assert.deepEqual(problem, expected);
        outcomes.add(problem?.code ?? 'accepted');
        // The same names in the same order again, with the values turned round by one: judged from the layout kept.
        const turned = params.map(([name], i): Pair => [name, params[(i + 1) % params.length]?.[1] ?? '']);
        assert.deepEqual(checkRequestFields(schemaName, turned, elsewhere), wholeObject(schemaName, turned, elsewhere));
        assert.deepEqual(checkRequestFields(schemaName, params, elsewhere), expected, 'judged again, the same');
      }),
      fcParams(1500),
    );
    // The bodies reach every outcome, or the comparison says little.
    assert.deepEqual([...outcomes].sort(), ['FIELD_DUPLICATE', 'FIELD_INVALID', 'FIELD_MISSING', 'accepted']);
  });

  it('refuses, of several problems, the one the whole object would: a duplicate, then missing, then malformed', () => {
    const sale: Pair[] = (REQUIRED_FIELDS.SaleRequest ?? []).map((f) => [f, exampleOf(f)]);
    const without = (name: string): Pair[] => sale.filter(([n]) => n !== name);
    // Both malformed, currency sent first: the whole object judges amount first (its place in FIELDS).
    const twoBad: Pair[] = [
      ['currency', 'eur'],
      ...without('currency').filter(([n]) => n !== 'amount'),
      ['amount', 'x'],
    ];
    const cases: [Pair[], string, string][] = [
      [[...without('email'), ['cvv2', '1'], ['cvv2', '2']], 'FIELD_DUPLICATE', 'cvv2'],
      [[...without('email').filter(([n]) => n !== 'city' && n !== 'cvv2'), ['cvv2', '1']], 'FIELD_MISSING', 'city'],
      [twoBad, 'FIELD_INVALID', 'amount'],
    ];
    for (const [params, code, field] of cases) {
      const problem = checkRequestFields('SaleRequest', params);
      assert.deepEqual([problem?.code, problem?.field], [code, field]);
      assert.deepEqual(
        problem,
        wholeObject('SaleRequest', params, () => false),
      );
    }
  });
});
