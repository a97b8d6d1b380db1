/**
 * The generated families (contract C2, docs/certify.md "Generated checks"): what each draws, the requests it
 * builds from a correctly signed base request, the rule each request is judged under and the verdict a
 * conforming gateway must give. The steps (steps/generated.steps.ts) make the base, send and judge.
 */
import fc from 'fast-check';
import type { Operation } from '../catalogue/index.ts';
import type { SentRequest } from '../client/client.ts';
import type { RuleId } from '../rules/book.ts';
import type { Pair } from '../signing/form-body.ts';
import { amountArb, amountExamples, signsAnAmount, textFieldsArb } from './arbitraries.ts';
import {
  controlNearMissCase,
  knownMistakeCase,
  mistakeIds,
  oauthMethodOf,
  oauthNearMissCase,
  resigned,
  wrongEnvelopeCase,
  wrongSchemeCase,
  wrongSchemesOf,
  WRONG_ACCEPTS,
  WRONG_BODY_TYPES,
  WRONG_METHODS,
  type Base,
  type Envelope,
  type Fresh,
} from './cases.ts';
import {
  controlNearMissesArb,
  controlNearMissWords,
  oauthNearMissesArb,
  oauthNearMissWords,
  type ControlNearMiss,
  type OAuthNearMiss,
} from './near-misses.ts';

export const FAMILY_IDS = [
  'valid-amounts',
  'valid-characters',
  'near-miss-control',
  'near-miss-oauth',
  'known-mistakes',
  'wrong-scheme',
  'wrong-envelope',
] as const;
export type FamilyId = (typeof FAMILY_IDS)[number];

/** One request of a run, the rule it is judged under, and what it is in words. */
export interface PlannedCase {
  readonly label: string;
  readonly request: SentRequest;
  readonly rule: RuleId;
}

/** What a property draws, for an operation and the live cap on amounts (in cents). */
export interface Family<I> {
  readonly id: FamilyId;
  readonly expect: 'accepted' | 'refused';
  /** Runs per property by default: the budget that keeps certify against the mock within 1.5× its time without. */
  readonly defaultRuns: number;
  /** Valid requests change the gateway's orders: each run makes its own base (and its prerequisites). */
  readonly freshBase: boolean;
  /** Whether its verdicts are about the signature, so the gateway's own mistake can be looked for. */
  readonly diagnosable: boolean;
  readonly arbitrary: (operation: Operation, capCents: bigint) => fc.Arbitrary<I>;
  /** Inputs every run sends first, within its runs (fast-check's examples): a slip shows whatever the seed. */
  readonly examples?: (operation: Operation, capCents: bigint) => I[];
  /** The fields the base request is made with. */
  readonly overrides: (input: I) => Pair[];
  readonly cases: (base: Base, input: I, fresh: Fresh) => PlannedCase[];
}

const signatureRule = (operation: Operation): RuleId =>
  oauthMethodOf(operation) === undefined ? 'control-signature' : 'oauth-signature';

const accepted = (label: string) => (base: Base, _: unknown, fresh: Fresh) => [
  { label, request: resigned(base, fresh), rule: signatureRule(base.operation) },
];

const validAmounts: Family<string> = {
  id: 'valid-amounts',
  expect: 'accepted',
  defaultRuns: 4,
  freshBase: true,
  diagnosable: true,
  arbitrary: (_, cap) => amountArb(cap),
  examples: (_, cap) => amountExamples(cap),
  overrides: (amount) => [['amount', amount]],
  cases: (base, amount, fresh) => accepted(`a valid request with amount ${amount}`)(base, amount, fresh),
};

const validCharacters: Family<Pair[]> = {
  id: 'valid-characters',
  expect: 'accepted',
  defaultRuns: 1,
  freshBase: true,
  diagnosable: true,
  arbitrary: (operation) => textFieldsArb(operation),
  overrides: (fields) => fields,
  cases: (base, fields, fresh) =>
    accepted(`a valid request with ${fields.map(([n, v]) => `${n}=${JSON.stringify(v)}`).join(', ')}`)(
      base,
      fields,
      fresh,
    ),
};

const nearMissControl: Family<ControlNearMiss[]> = {
  id: 'near-miss-control',
  expect: 'refused',
  defaultRuns: 1,
  freshBase: false,
  diagnosable: true,
  arbitrary: () => controlNearMissesArb,
  overrides: () => [],
  cases: (base, misses) =>
    misses.flatMap((miss) => {
      const request = controlNearMissCase(base, miss);
      const rule: RuleId = miss.kind === 'hex-digit' ? 'control-signature' : 'control-format';
      return request === undefined ? [] : [{ label: controlNearMissWords(miss), request, rule }];
    }),
};

const nearMissOAuth: Family<OAuthNearMiss[]> = {
  id: 'near-miss-oauth',
  expect: 'refused',
  defaultRuns: 1,
  freshBase: false,
  diagnosable: true,
  arbitrary: () => oauthNearMissesArb,
  overrides: () => [],
  cases: (base, misses, fresh) =>
    misses.flatMap((miss) => {
      const request = oauthNearMissCase(base, miss, fresh);
      return request === undefined ? [] : [{ label: oauthNearMissWords(miss), request, rule: 'oauth-signature' }];
    }),
};

/** A drawn request (its text fields, its amount), signed under each mistake of its scheme in every run. */
const knownMistakes: Family<Pair[]> = {
  id: 'known-mistakes',
  expect: 'refused',
  defaultRuns: 1,
  freshBase: false,
  diagnosable: true,
  arbitrary: (operation, cap) =>
    fc
      .tuple(textFieldsArb(operation), signsAnAmount(operation) ? amountArb(cap) : fc.constant(undefined))
      .map(([fields, amount]): Pair[] => (amount === undefined ? fields : [...fields, ['amount', amount]])),
  overrides: (fields) => fields,
  cases: (base, _, fresh) =>
    mistakeIds(oauthMethodOf(base.operation) === undefined ? 'control' : 'oauth').flatMap((id) => {
      const request = knownMistakeCase(base, id, fresh);
      const rule: RuleId = ['uppercase-hex', 'base64-digest'].includes(id)
        ? 'control-format'
        : id === 'wrong-signature-method'
          ? 'signature-method'
          : signatureRule(base.operation);
      return request === undefined ? [] : [{ label: `signed with the ${id} mistake`, request, rule }];
    }),
};

const wrongScheme: Family<null> = {
  id: 'wrong-scheme',
  expect: 'refused',
  defaultRuns: 1,
  freshBase: false,
  diagnosable: false,
  arbitrary: () => fc.constant(null),
  overrides: () => [],
  cases: (base, _, fresh) =>
    wrongSchemesOf(base.operation).flatMap((scheme) => {
      const request = wrongSchemeCase(base, scheme, fresh);
      const rule: RuleId =
        oauthMethodOf(base.operation) === undefined
          ? 'control-present'
          : scheme === 'control'
            ? 'oauth-header-present'
            : 'signature-method';
      const label = scheme === 'control' ? 'a control and no Authorization header' : `signed with ${scheme}`;
      return request === undefined ? [] : [{ label, request, rule }];
    }),
};

const ENVELOPE_RULES: Readonly<Record<Envelope['kind'], RuleId>> = {
  accept: 'accept-header',
  body: 'content-type',
  method: 'method-post',
};

const envelopeWords = (e: Envelope): string =>
  e.kind === 'accept'
    ? e.accept === null
      ? 'no Accept header'
      : `Accept: ${JSON.stringify(e.accept)}`
    : e.kind === 'body'
      ? `a ${e.type} body`
      : `method ${e.method}`;

/**
 * One other Accept drawn (none, any type, JSON …), the form under another body type (text/plain, or JSON or XML
 * drawn) and a multipart body, and one other method drawn, in every run: a gateway that ignores Accept, reads any
 * body as a form, or reads multipart as a form, fails whatever the seed.
 */
const wrongEnvelope: Family<Envelope[]> = {
  id: 'wrong-envelope',
  expect: 'refused',
  defaultRuns: 1,
  freshBase: false,
  diagnosable: false,
  arbitrary: () =>
    fc
      .tuple(
        fc.constantFrom(...WRONG_ACCEPTS),
        fc.constantFrom(...WRONG_BODY_TYPES.filter((t) => t !== 'multipart/form-data' && t !== 'text/plain')),
        fc.constantFrom(...WRONG_METHODS),
      )
      .map(([accept, type, method]): Envelope[] => [
        { kind: 'accept', accept },
        { kind: 'body', type: 'text/plain' },
        { kind: 'body', type: 'multipart/form-data' },
        { kind: 'body', type },
        { kind: 'method', method },
      ]),
  overrides: () => [],
  cases: (base, envelopes, fresh) =>
    envelopes.map((e) => ({
      label: envelopeWords(e),
      request: wrongEnvelopeCase(base, e, fresh),
      rule: ENVELOPE_RULES[e.kind],
    })),
};

/** A family with its input's type forgotten: the steps hand each its own draws back. */
export type AnyFamily = Family<never> & { readonly arbitrary: (o: Operation, cap: bigint) => fc.Arbitrary<never> };

export const FAMILIES: Readonly<Record<FamilyId, AnyFamily>> = {
  'valid-amounts': validAmounts as unknown as AnyFamily,
  'valid-characters': validCharacters as unknown as AnyFamily,
  'near-miss-control': nearMissControl as unknown as AnyFamily,
  'near-miss-oauth': nearMissOAuth as unknown as AnyFamily,
  'known-mistakes': knownMistakes as unknown as AnyFamily,
  'wrong-scheme': wrongScheme as unknown as AnyFamily,
  'wrong-envelope': wrongEnvelope as unknown as AnyFamily,
};

export function familyNamed(name: string): AnyFamily {
  const found = (FAMILY_IDS as readonly string[]).includes(name) ? FAMILIES[name as FamilyId] : undefined;
  if (found === undefined) throw new Error(`generated family "${name}": not one of ${FAMILY_IDS.join(', ')}`);
  return found;
}
