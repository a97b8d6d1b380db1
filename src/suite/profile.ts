/**
 * A gateway profile (`certify --profile FILE`, docs/certify.md): what a real gateway decides
 * differently where the spec is silent — its error codes, the names of the answer fields the suite
 * reads, which statuses are final, poll timing, test cards and amounts safe on its sandbox, and
 * scenarios that do not apply there. Everything left out is the embedded mock's choice, which
 * `mockProfile()` states and profiles/mock.json ships. Read with ajv; a mistake is one line with its
 * JSON pointer.
 */
import { parse as parseTagExpression } from '@cucumber/tag-expressions';
import { Ajv, type ErrorObject } from 'ajv';
import { CALLBACK_METHODS, DEFAULT_CALLBACK_METHOD, type CallbackMethod } from '../catalogue/index.ts';
import { isTestCardRole, luhn, TEST_CARD_ROLES, TEST_CARDS, type TestCardRole } from '../catalogue/test-cards.ts';
import { PayconformError } from '../errors.ts';
import { readUserFile } from '../read-file.ts';
import { RULES } from '../rules/book.ts';
import { DECIMAL_AMOUNT_PATTERN } from '../signing/cents.ts';

/** The answer fields the suite reads, by the name the mock gives them (docs/assumptions.md A-17). */
export const ANSWER_FIELDS = ['paynet-order-id', 'status', 'redirect-url', 'card-ref-id', 'recurring-payment-id', 'html', 'error-code', 'error-message', 'field'] as const;
export type AnswerField = (typeof ANSWER_FIELDS)[number];

/** Every error code a rule of the rule book refuses with, in book order. */
export const REFUSAL_CODES: readonly string[] = [...new Set(RULES.flatMap((r) => r.refusals.map((f) => f.code)))];

export interface NotApplicable {
  /** A cucumber tag expression selecting the scenarios, e.g. "@endpoint:CARDINFO". */
  readonly tags: string;
  /** Shown in the report beside each scenario it leaves out. */
  readonly reason: string;
}

/** A profile with every setting filled in (the mock's choice where the file says nothing). Plain JSON. */
export interface Profile {
  readonly name: string;
  /** The gateway's code(s) for each of the rule book's refusal codes. */
  readonly errorCodes: Readonly<Record<string, readonly string[]>>;
  readonly answerFields: Readonly<Record<AnswerField, string>>;
  readonly finalStatuses: readonly string[];
  readonly poll: { readonly intervalMs?: number | undefined; readonly deadlineMs?: number | undefined };
  readonly testCards: Readonly<Record<TestCardRole, string>>;
  readonly amounts: { readonly default?: string | undefined; readonly max?: string | undefined };
  readonly notApplicable: readonly NotApplicable[];
  /** Fields our answer schemas do not know: a warning each answer, or ignored for a gateway known to add them. */
  readonly unknownAnswerFields: 'warn' | 'ignore';
  /** How the gateway sends its callbacks: GET with the fields in the query (the public gateways, A-31) or POST. */
  readonly callbacks: { readonly method: CallbackMethod };
}

/** What the embedded mock does: the profile every run starts from. */
export function mockProfile(): Profile {
  return {
    name: 'payconform embedded mock',
    errorCodes: Object.fromEntries(REFUSAL_CODES.map((code) => [code, [code]])),
    answerFields: Object.fromEntries(ANSWER_FIELDS.map((f) => [f, f])) as Record<AnswerField, string>,
    finalStatuses: ['approved', 'declined', 'filtered', 'error', 'unknown'],
    poll: {},
    testCards: { ...TEST_CARDS },
    amounts: {},
    notApplicable: [],
    unknownAnswerFields: 'warn',
    callbacks: { method: DEFAULT_CALLBACK_METHOD },
  };
}

const codes = { anyOf: [{ type: 'string', minLength: 1 }, { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1 }] };
const ms = { type: 'integer', minimum: 0, maximum: 86_400_000 };
const amount = { type: 'string', pattern: DECIMAL_AMOUNT_PATTERN };

/** The file's JSON Schema (docs/certify.md shows an example). Unknown keys are refused: a typo must not be ignored. */
export const PROFILE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    name: { type: 'string', minLength: 1 },
    description: { type: 'string' },
    errorCodes: { type: 'object', propertyNames: { enum: [...REFUSAL_CODES] }, additionalProperties: codes },
    answerFields: { type: 'object', propertyNames: { enum: [...ANSWER_FIELDS] }, additionalProperties: { type: 'string', minLength: 1 } },
    finalStatuses: { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1, uniqueItems: true },
    poll: { type: 'object', additionalProperties: false, properties: { intervalMs: ms, deadlineMs: ms } },
    testCards: { type: 'object', propertyNames: { enum: [...TEST_CARD_ROLES] }, additionalProperties: { type: 'string', pattern: '^[0-9]{12,19}$' } },
    amounts: { type: 'object', additionalProperties: false, properties: { default: amount, max: amount } },
    unknownAnswerFields: { enum: ['warn', 'ignore'] },
    callbacks: { type: 'object', additionalProperties: false, properties: { method: { enum: [...CALLBACK_METHODS] } } },
    notApplicable: {
      type: 'array',
      items: { type: 'object', additionalProperties: false, required: ['tags', 'reason'], properties: { tags: { type: 'string', minLength: 1 }, reason: { type: 'string', minLength: 1 } } },
    },
  },
} as const;

/** One line: the option, the file, then the JSON pointer and the rule. */
const bad = (file: string, detail: string): PayconformError => new PayconformError('ERR_PROFILE', `--profile ${file}: ${detail}`, { field: '--profile', rule: detail });

let validator: ReturnType<Ajv['compile']> | undefined;

/** One line per ajv error: the JSON pointer, then what is wrong, naming the allowed keys where that helps. */
function describe(e: ErrorObject): string {
  const at = e.instancePath || '/';
  if (e.keyword === 'additionalProperties') return `${at === '/' ? '' : at}/${(e.params as { additionalProperty: string }).additionalProperty}: is not a profile setting`;
  if (e.keyword === 'propertyNames') return `${at}/${(e.params as { propertyName: string }).propertyName}: is not one of the allowed names`;
  if (e.keyword === 'enum' && e.propertyName !== undefined) return `${at}/${e.propertyName}: is not one of the allowed names`;
  return `${at}: ${e.message ?? 'is invalid'}`;
}

/** A profile from parsed JSON, `file` naming it in errors; the mock's choice fills what it leaves out. */
export function profileOf(data: unknown, file: string): Profile {
  validator ??= new Ajv({ allErrors: false, strict: true }).compile(PROFILE_SCHEMA);
  if (!validator(data)) {
    const error = validator.errors!.find((e) => e.keyword !== 'if' && e.keyword !== 'anyOf') ?? validator.errors![0]!;
    throw bad(file, describe(error));
  }
  const given = data as Partial<{ name: string; errorCodes: Record<string, string | string[]>; answerFields: Record<string, string>; finalStatuses: string[]; poll: Profile['poll']; testCards: Record<string, string>; amounts: Profile['amounts']; notApplicable: NotApplicable[]; unknownAnswerFields: 'warn' | 'ignore'; callbacks: { method?: CallbackMethod } }>;
  for (const [role, card] of Object.entries(given.testCards ?? {})) {
    if (!luhn(card)) throw bad(file, `/testCards/${role}: fails the Luhn check (a card number has a valid check digit)`);
  }
  (given.notApplicable ?? []).forEach((n, i) => {
    try {
      parseTagExpression(n.tags);
    } catch (err) {
      throw bad(file, `/notApplicable/${i}/tags: is not a tag expression (${(err as Error).message.split('\n')[0]})`);
    }
  });
  const base = mockProfile();
  return {
    name: given.name ?? file,
    errorCodes: { ...base.errorCodes, ...Object.fromEntries(Object.entries(given.errorCodes ?? {}).map(([k, v]) => [k, typeof v === 'string' ? [v] : v])) },
    answerFields: { ...base.answerFields, ...given.answerFields },
    finalStatuses: given.finalStatuses ?? base.finalStatuses,
    poll: { ...given.poll },
    testCards: { ...base.testCards, ...(given.testCards as Partial<Record<TestCardRole, string>>) },
    amounts: { ...given.amounts },
    notApplicable: given.notApplicable ?? [],
    unknownAnswerFields: given.unknownAnswerFields ?? base.unknownAnswerFields,
    callbacks: { method: given.callbacks?.method ?? base.callbacks.method },
  };
}

/** The profile in `file` (JSON). */
export function readProfile(file: string): Profile {
  const text = readUserFile(file, '--profile');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw bad(file, `is not JSON (${(err as Error).message})`);
  }
  return profileOf(data, file);
}

/** The test card a profile gives a role. */
export function profileCard(profile: Profile, role: string): string {
  if (!isTestCardRole(role)) throw new Error(`no test card for "${role}" (known: ${TEST_CARD_ROLES.join(', ')})`);
  return profile.testCards[role];
}
