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
import { SPEC_ANSWERS, type AnswerFormat } from '../catalogue/answer-format.ts';
import { MEDIA_TYPE } from '../catalogue/media-types.ts';
import { CALLBACK_METHODS, DEFAULT_CALLBACK_METHOD, type CallbackMethod } from '../catalogue/index.ts';
import { isTestCardRole, luhn, TEST_CARD_ROLES, TEST_CARDS, type TestCardRole } from '../catalogue/test-cards.ts';
import { PayconformError } from '../errors.ts';
import { notACapability } from '../report/coverage.ts';
import { readUserFile } from '../read-file.ts';
import { answerMediaType, validationErrorStatus } from '../rules/answers.ts';
import { RULES } from '../rules/book.ts';
import { acceptHeader } from '../rules/http.ts';
import { DECIMAL_AMOUNT_PATTERN } from '../signing/cents.ts';
import { faultSettingsOf, randomSeed, type FaultSettings } from '../gateway/fault-settings.ts';

/** The answer fields the suite reads, by the name the mock gives them (docs/assumptions.md A-17). */
export const ANSWER_FIELDS = [
  'paynet-order-id',
  'status',
  'redirect-url',
  'card-ref-id',
  'recurring-payment-id',
  'html',
  'error-code',
  'error-message',
  'field',
] as const;
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
  /**
   * Fields our answer schemas do not know: a warning each answer, or ignored for a gateway known to add them.
   */
  readonly unknownAnswerFields: 'warn' | 'ignore';
  /** How the gateway sends its callbacks: GET with the fields in the query (the public gateways, A-31) or POST. */
  readonly callbacks: { readonly method: CallbackMethod };
  /** How the gateway writes its answers: the spec's JSON, or the public gateways' form text. */
  readonly answers: AnswerFormat;
  /** What the gateway asks of a request: whether it refuses one without the spec's Accept header. */
  readonly request: { readonly acceptRequired: boolean };
  /** Capabilities the merchant uses (docs/certify.md, "Coverage"): a run that does not exercise one fails. */
  readonly require: readonly string[];
  /** Faults and latency for a whole run of `mock --profile` (gateway/faults.ts); certify does not read it. */
  readonly faults?: FaultSettings;
}

/** A spec clause a profile says its gateway departs from: the key that says so and the clause. */
export interface Deviation {
  readonly key: string;
  readonly clause: string;
}

/**
 * What the embedded mock needs to answer as the profile's gateway does: its answer format and whether it asks for
 * Accept.
 */
export function profileWire(profile: Pick<Profile, 'answers' | 'request'>): {
  answers: AnswerFormat;
  acceptRequired: boolean;
} {
  return { answers: profile.answers, acceptRequired: profile.request.acceptRequired };
}

/** A deviation as reports show it. */
export const deviationLine = (d: Deviation): string => `${d.key}: departs from ${d.clause}`;

/** The scenarios that test the Accept header: not applicable where a profile says the gateway does not require it. */
export const ACCEPT_SCENARIOS = '@negative:accept-missing or @negative:accept-wrong';

/**
 * Where the profile departs from the spec, each with the clause (the rule book's wording): the
 * checks of that clause become warnings that name the key, and the run says so, never "conformant".
 */
export function profileDeviations(profile: Pick<Profile, 'answers' | 'request'>): Deviation[] {
  const found: Deviation[] = [];
  if (profile.answers.format !== 'json') found.push({ key: 'answers.format', clause: answerMediaType.clause });
  if (profile.answers.mediaType !== MEDIA_TYPE)
    found.push({ key: 'answers.mediaType', clause: answerMediaType.clause });
  if (profile.answers.errorStatus !== undefined)
    found.push({ key: 'answers.errorStatus', clause: validationErrorStatus.clause });
  if (!profile.request.acceptRequired) found.push({ key: 'request.acceptRequired', clause: acceptHeader.clause });
  return found;
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
    answers: SPEC_ANSWERS,
    request: { acceptRequired: true },
    callbacks: { method: DEFAULT_CALLBACK_METHOD },
    require: [],
  };
}

const codes = {
  anyOf: [
    { type: 'string', minLength: 1 },
    { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1 },
  ],
};
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
    answerFields: {
      type: 'object',
      propertyNames: { enum: [...ANSWER_FIELDS] },
      additionalProperties: { type: 'string', minLength: 1 },
    },
    finalStatuses: { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1, uniqueItems: true },
    poll: { type: 'object', additionalProperties: false, properties: { intervalMs: ms, deadlineMs: ms } },
    testCards: {
      type: 'object',
      propertyNames: { enum: [...TEST_CARD_ROLES] },
      additionalProperties: { type: 'string', pattern: '^[0-9]{12,19}$' },
    },
    amounts: { type: 'object', additionalProperties: false, properties: { default: amount, max: amount } },
    unknownAnswerFields: { enum: ['warn', 'ignore'] },
    answers: {
      type: 'object',
      additionalProperties: false,
      required: ['format'],
      properties: {
        format: { enum: ['json', 'form'] },
        mediaType: { type: 'string', pattern: '^[a-z0-9.+-]+/[a-z0-9.+-]+$' },
        errorStatus: { const: 200 },
      },
    },
    request: { type: 'object', additionalProperties: false, properties: { acceptRequired: { type: 'boolean' } } },
    callbacks: { type: 'object', additionalProperties: false, properties: { method: { enum: [...CALLBACK_METHODS] } } },
    require: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
    // Checked by faultSettingsOf, the one validator of a faults file, which names the field below /faults.
    faults: { type: 'object' },
    notApplicable: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['tags', 'reason'],
        properties: { tags: { type: 'string', minLength: 1 }, reason: { type: 'string', minLength: 1 } },
      },
    },
  },
} as const;

/** One line: the option, the file, then the JSON pointer and the rule. */
const bad = (file: string, detail: string): PayconformError =>
  new PayconformError('ERR_PROFILE', `--profile ${file}: ${detail}`, { field: '--profile', rule: detail });

let validator: ReturnType<Ajv['compile']> | undefined;

/** One line per ajv error: the JSON pointer, then what is wrong, naming the allowed keys where that helps. */
function describe(e: ErrorObject): string {
  const at = e.instancePath || '/';
  if (e.keyword === 'additionalProperties')
    return (
      `${at === '/' ? '' : at}/${(e.params as { additionalProperty: string }).additionalProperty}: is not a ` +
      `profile setting`
    );
  if (e.keyword === 'propertyNames')
    return `${at}/${(e.params as { propertyName: string }).propertyName}: is not one of the allowed names`;
  if (e.keyword === 'enum' && e.propertyName !== undefined)
    return `${at}/${e.propertyName}: is not one of the allowed names`;
  if (e.keyword === 'enum')
    return (
      `${at}: must be one ` +
      `of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`
    );
  if (e.keyword === 'const')
    return `${at}: must be ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}`;
  return `${at}: ${e.message ?? 'is invalid'}`;
}

/** A profile from parsed JSON, `file` naming it in errors; the mock's choice fills what it leaves out. */
export function profileOf(data: unknown, file: string): Profile {
  validator ??= new Ajv({ allErrors: false, strict: true }).compile(PROFILE_SCHEMA);
  if (!validator(data)) {
    const errors = validator.errors ?? [];
    const error = errors.find((e) => e.keyword !== 'if' && e.keyword !== 'anyOf') ?? errors[0];
    throw bad(file, error === undefined ? 'does not follow the profile schema' : describe(error));
  }
  const given = data as Partial<{
    name: string;
    errorCodes: Record<string, string | string[]>;
    answerFields: Record<string, string>;
    finalStatuses: string[];
    poll: Profile['poll'];
    testCards: Record<string, string>;
    amounts: Profile['amounts'];
    notApplicable: NotApplicable[];
    unknownAnswerFields: 'warn' | 'ignore';
    answers: { format: 'json' | 'form'; mediaType?: string; errorStatus?: 200 };
    request: { acceptRequired?: boolean };
    callbacks: { method?: CallbackMethod };
    require: string[];
    faults: unknown;
  }>;
  for (const [role, card] of Object.entries(given.testCards ?? {})) {
    if (!luhn(card))
      throw bad(file, `/testCards/${role}: fails the Luhn check (a card number has a valid check digit)`);
  }
  (given.notApplicable ?? []).forEach((n, i) => {
    try {
      parseTagExpression(n.tags);
    } catch (err) {
      throw bad(file, `/notApplicable/${i}/tags: is not a tag expression (${(err as Error).message.split('\n')[0]})`);
    }
  });
  (given.require ?? []).forEach((name, i) => {
    const problem = notACapability(name);
    if (problem !== undefined) throw bad(file, `/require/${i}: ${problem}`);
  });
  const base = mockProfile();
  // A form answer has no media type of the spec's: the profile must name the one its gateway sends.
  if (given.answers?.format === 'form' && given.answers.mediaType === undefined)
    throw bad(
      file,
      '/answers/mediaType: is required with "format": "form" (the Content-Type the gateway answers with)',
    );
  const answers: AnswerFormat =
    given.answers === undefined
      ? base.answers
      : {
          format: given.answers.format,
          mediaType: given.answers.mediaType ?? MEDIA_TYPE,
          errorStatus: given.answers.errorStatus,
        };
  const request = { acceptRequired: given.request?.acceptRequired ?? base.request.acceptRequired };
  const implied: NotApplicable[] = request.acceptRequired
    ? []
    : [
        {
          tags: ACCEPT_SCENARIOS,
          reason: `the profile sets request.acceptRequired: false, a departure from the spec (${acceptHeader.clause})`,
        },
      ];
  return {
    name: given.name ?? file,
    errorCodes: {
      ...base.errorCodes,
      ...Object.fromEntries(
        Object.entries(given.errorCodes ?? {}).map(([k, v]) => [k, typeof v === 'string' ? [v] : v]),
      ),
    },
    answerFields: { ...base.answerFields, ...given.answerFields },
    finalStatuses: given.finalStatuses ?? base.finalStatuses,
    poll: { ...given.poll },
    testCards: { ...base.testCards, ...(given.testCards as Partial<Record<TestCardRole, string>>) },
    amounts: { ...given.amounts },
    notApplicable: [...(given.notApplicable ?? []), ...implied],
    unknownAnswerFields: given.unknownAnswerFields ?? base.unknownAnswerFields,
    answers,
    request,
    callbacks: { method: given.callbacks?.method ?? base.callbacks.method },
    require: given.require ?? base.require,
    ...(given.faults === undefined
      ? {}
      : { faults: faultSettingsOf(given.faults, randomSeed, (at, rule) => bad(file, `/faults${at}: ${rule}`)) }),
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
