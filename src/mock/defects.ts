/**
 * Deliberately broken variants of the mock gateway (`payconform mock --defect NAME`). Each breaks
 * rules of the rule book by id, from outside the mock: a defect wraps the mock's seams
 * (src/mock/seams.ts). A request or order rule is switched off, or bent with the replacement check
 * written here, in the gate that runs the rules; an answer rule is broken by a wrapper around the
 * answer writer; a callback rule by a wrapper around the callback signer or settings. `npm run prove`
 * shows some scenario of the suite fails against each (docs/prove.md). Never used unless asked for by name.
 */
import { DEFAULT_CALLBACK_METHOD } from '../catalogue/index.ts';
import { fieldError } from '../errors.ts';
import type { RuleId } from '../rules/book.ts';
import { controlSignature } from '../rules/control.ts';
import { credentialsOf } from '../rules/merchant.ts';
import { oauthSignature, requiredMethod, signatureMethod } from '../rules/oauth.ts';
import type { RequestUnderTest } from '../rules/request.ts';
import { fail, PASS, skip, type Outcome } from '../rules/rule.ts';
import { firstFailure, type Bent } from '../rules/run.ts';
import { callbackControlWithMistake, controlWithMistake } from '../signing/diagnose/index.ts';
import { hmacSha1Signature, hmacSigningKey } from '../signing/hmac-sha1.ts';
import { oauthBaseString } from '../signing/oauth.ts';
import { constantTimeEqual } from '../signing/verify.ts';
import {
  baseStringFor,
  decimalAmountElsewhere,
  encodedBaseString,
  lowercaseEscapes,
  multipartReadAsForm,
  multipartTaken,
  oauthAlsoOver,
  oauthInsteadOfControl,
  oauthOnlyOver,
  otherScheme,
  OTHER_METHODS,
  prefixComparedControl,
  prefixShapedControl,
  rfc3986,
  truncatedFloatCents,
  uriComponent,
  withoutQuery,
} from './bent-checks.ts';
import type { CallbackSettings } from './callbacks.ts';
import { internalErrorAnswer } from './mock-error.ts';
import type { AnswerWriter, CallbackSigner, Gate, MockAnswer } from './seams.ts';

/** A list as a sentence writes it: "a, b or c". */
const listed = (words: readonly string[]): string => `${words.slice(0, -1).join(', ')} or ${words.at(-1) ?? ''}`;

export interface DefectSpec {
  readonly description: string;
  /** The rules it breaks: switched off unless `bent` gives the check it runs instead. */
  readonly breaks: readonly RuleId[];
  readonly bent?: { readonly [id in RuleId]?: (req: RequestUnderTest) => Outcome };
}

/** control-decimal-amount: the control is expected with the amount as sent, not in cents. */
function decimalAmountControl(req: RequestUnderTest): Outcome {
  const { match, params, merchant } = req;
  const sent = req.field('control');
  // Without what the formula needs, the rule itself says what is missing.
  if (sent === undefined || match === undefined || params === undefined || merchant === undefined)
    return controlSignature.check(req);
  const expected = controlWithMistake(
    'decimal-amount',
    match.endpoint.operation,
    match.endpointId,
    { method: 'POST', url: req.seen.url, params },
    credentialsOf(merchant),
  );
  if (expected === undefined) return controlSignature.check(req);
  return constantTimeEqual(sent, expected)
    ? PASS
    : fail(`control: does not match ${match.endpoint.operation}'s formula`, { field: 'control' });
}

/** skip-field-validation: a signature whose formula misses a field is just wrong, not refused as a field problem. */
const missingCountsAsEmpty =
  (
    check: (req: RequestUnderTest) => Outcome,
    field: string,
    code: string,
    message: (req: RequestUnderTest) => string,
  ) =>
  (req: RequestUnderTest): Outcome => {
    const outcome = check(req);
    return outcome.outcome === 'fail' && outcome.evidence.code?.startsWith('FIELD_')
      ? fail(message(req), { field, code })
      : outcome;
  };

/**
 * accept-hmac-for-rsa: on an RSA-SHA256 endpoint an HMAC-SHA1 signature with key "control key&" is checked as if
 * allowed.
 */
const usesHmacOnRsa = (req: RequestUnderTest): boolean =>
  req.oauthParam('oauth_signature_method') === 'HMAC-SHA1' && requiredMethod(req) === 'RSA-SHA256';
function hmacOnRsa(req: RequestUnderTest): Outcome {
  const { params, header, merchant } = req;
  const sent = req.oauthParam('oauth_signature');
  if (!usesHmacOnRsa(req) || params === undefined || header === undefined || merchant === undefined || !sent)
    return oauthSignature.check(req);
  const { baseString } = oauthBaseString({ method: 'POST', url: req.seen.url, params }, header.pairs);
  const expected = hmacSha1Signature(hmacSigningKey(merchant.merchantControlKey), baseString);
  return constantTimeEqual(sent, expected)
    ? PASS
    : fail('authorization: HMAC-SHA1 signature does not match the request', { field: 'oauth_signature' });
}

const OAUTH_RULES: readonly RuleId[] = [
  'oauth-header-present',
  'oauth-header-format',
  'oauth-body-consistent',
  'consumer-key-known',
  'signature-method',
  'oauth-version',
  'oauth-timestamp-window',
  'oauth-signature',
  'nonce-unique',
];

export const DEFECTS = {
  'accept-any-control': {
    description: 'does not check control: a missing, malformed or wrong value is accepted',
    breaks: ['control-present', 'control-format', 'control-signature'],
  },
  'accept-any-oauth-signature': {
    description: "does not check OAuth: any Authorization header, or none, is accepted for the endpoint's merchant",
    breaks: OAUTH_RULES,
  },
  'accept-hmac-for-rsa': {
    description: 'accepts an HMAC-SHA1 signature (key "control key&") on the RSA-SHA256 endpoints',
    breaks: ['signature-method', 'oauth-signature'],
    bent: {
      'signature-method': (req) => (usesHmacOnRsa(req) ? PASS : signatureMethod.check(req)),
      'oauth-signature': hmacOnRsa,
    },
  },
  'ignore-timestamp-window': {
    description: 'accepts an oauth_timestamp of any age',
    breaks: ['oauth-timestamp-window'],
  },
  'accept-replayed-nonce': {
    description: 'accepts an oauth_nonce already used within the timestamp window',
    breaks: ['nonce-unique'],
  },
  'control-decimal-amount': {
    description: 'computes control with the amount as sent (decimal) instead of in cents',
    breaks: ['control-signature'],
    bent: { 'control-signature': decimalAmountControl },
  },
  'ignore-accept-header': {
    description: 'serves a request whatever its Accept header says, or without one',
    breaks: ['accept-header'],
  },
  'accept-any-body-type': {
    description: 'reads the body as a form whatever its Content-Type says',
    breaks: ['content-type'],
  },
  'wrong-response-content-type': {
    description: 'answers with Content-Type application/json instead of application/vnd.pay+json',
    breaks: ['answer-media-type'],
  },
  'skip-field-validation': {
    description: 'does not check the request fields: no schema check, and a missing formula field counts as empty',
    breaks: ['required-fields', 'amount-format', 'control-signature', 'oauth-signature'],
    bent: {
      'control-signature': missingCountsAsEmpty(
        (req) => controlSignature.check(req),
        'control',
        'CONTROL_INVALID',
        (req) => `control: does not match ${req.match?.endpoint.operation ?? 'the operation'}'s formula`,
      ),
      'oauth-signature': missingCountsAsEmpty(
        (req) => oauthSignature.check(req),
        'oauth_signature',
        'SIGNATURE_INVALID',
        (req) => `authorization: ${requiredMethod(req)} signature does not match the request`,
      ),
    },
  },
  'server-error-on-client-mistake': {
    description: 'answers a missing or invalid field with 500 ServerErrorResponse instead of 400',
    breaks: ['validation-error-status'],
  },
  'capture-after-void': {
    description: 'forgets that an order was voided: capture, return and a second void go through',
    breaks: ['order-not-voided'],
  },
  'move-unapproved-order': {
    description: 'captures, voids and returns orders that were never approved (declined, processing)',
    breaks: ['order-approved'],
  },
  'capture-above-authorised': {
    description: 'captures more than the preauth authorised',
    breaks: ['capture-within-authorised'],
  },
  'return-above-captured': { description: 'returns more than was captured or sold', breaks: ['return-within-paid'] },
  'pay-twice': { description: 'pays a payout check a second time', breaks: ['pay-once'] },
  '3ds-upload-anytime': {
    description: 'accepts a 3-D Secure result upload for an order that waits for none',
    breaks: ['3ds-step-pending'],
  },
  'accept-unknown-reference': {
    description: 'charges an unknown card reference or recurring payment id as if it existed',
    breaks: ['reference-known'],
  },
  'lose-order': { description: 'loses every order: status answers "unknown"', breaks: ['order-kept'] },
  'leak-control-key': {
    description: 'quotes the merchant control key in the message of a control refusal',
    breaks: ['no-control-key-in-answer'],
  },
  'leak-full-pan': {
    description: 'quotes the full card number in the message of an error answer',
    breaks: ['no-full-pan-in-answer'],
  },
  'echo-card-data': {
    description:
      'echoes the CVV in the message of an error answer, and the CVV and the full card number in a header ' +
      '(which no-full-pan-in-answer finds too)',
    breaks: ['no-cvv-in-answer'],
  },
  'callback-amount-in-control': {
    description: 'signs callbacks and customer returns with the amount in the control formula',
    breaks: ['callback-signed'],
  },
  'callback-never-retried': {
    description: 'sends a callback once and never again, whatever the handler answers',
    breaks: ['callback-retried'],
  },
  'callback-wrong-method': {
    description:
      'sends callbacks as a form-encoded POST where it should send GET with the fields in the query (and GET ' +
      'where POST is asked)',
    breaks: ['callback-method'],
  },
  // Caught by the generated checks of certify (features/generated/, docs/prove.md), not by the fixed scenarios.
  'truncated-float-cents': {
    description:
      "computes control's cents as Math.trunc(parseFloat(amount) * 100), PHP's (int)($amount*100): refuses the " +
      'right control for 0.29, 8.20, 19.99… and accepts the truncated one',
    breaks: ['control-signature'],
    bent: { 'control-signature': truncatedFloatCents },
  },
  'decimal-amount-elsewhere': {
    description:
      'accepts a control computed over the decimal amount (the decimal-amount mistake) as well as the right one, ' +
      'on every operation but SALE and CAPTURE',
    breaks: ['control-signature'],
    bent: { 'control-signature': decimalAmountElsewhere },
  },
  'control-prefix-compare': {
    description: 'accepts a control of 8 to 39 lowercase hex digits that is the start of the right one',
    breaks: ['control-format', 'control-signature'],
    bent: { 'control-format': prefixShapedControl, 'control-signature': prefixComparedControl },
  },
  'encodeuricomponent-unfixed': {
    description:
      "percent-encodes its OAuth base string with encodeURIComponent, which keeps ! ' ( ) *: refuses a right " +
      'signature over a value holding one of them',
    breaks: ['oauth-signature'],
    bent: { 'oauth-signature': oauthOnlyOver((s) => encodedBaseString(s, uriComponent, uriComponent)) },
  },
  'accept-lowercase-escapes': {
    description: 'accepts an OAuth signature over a base string with lowercase percent-escapes (%2f) as well',
    breaks: ['oauth-signature'],
    bent: {
      'oauth-signature': oauthAlsoOver((s) => [
        encodedBaseString(s, lowercaseEscapes, lowercaseEscapes),
        encodedBaseString(s, lowercaseEscapes, rfc3986),
        encodedBaseString(s, rfc3986, lowercaseEscapes),
      ]),
    },
  },
  'query-not-signed': {
    description:
      'leaves the URL query out of its OAuth base string: refuses a right signature of a request with a query, ' +
      'accepts one made without it',
    breaks: ['oauth-signature'],
    bent: { 'oauth-signature': oauthOnlyOver((s) => baseStringFor(s, 'POST', withoutQuery(s.url))) },
  },
  'url-scheme-not-signed': {
    description: 'accepts an OAuth signature made over the URL with the other scheme (http for https and back)',
    breaks: ['oauth-signature'],
    bent: { 'oauth-signature': oauthAlsoOver((s) => [baseStringFor(s, 'POST', otherScheme(s.url))]) },
  },
  'method-not-signed': {
    description: `accepts an OAuth signature whose base string names ${listed(OTHER_METHODS)} instead of POST`,
    breaks: ['oauth-signature'],
    bent: { 'oauth-signature': oauthAlsoOver((s) => OTHER_METHODS.map((m) => baseStringFor(s, m, s.url))) },
  },
  'accept-oauth-on-control': {
    description:
      'accepts on a control endpoint a request without control that carries an HMAC-SHA1 Authorization header ' +
      '(key "control key&") which verifies',
    breaks: ['control-present'],
    bent: { 'control-present': oauthInsteadOfControl },
  },
  'multipart-as-form': {
    description: 'reads a multipart/form-data body as the form',
    breaks: ['content-type', 'form-encoding'],
    bent: { 'content-type': multipartTaken, 'form-encoding': multipartReadAsForm },
  },
} as const satisfies Record<string, DefectSpec>;

export type Defect = keyof typeof DEFECTS;

export const DEFECT_NAMES = Object.keys(DEFECTS) as Defect[];

/** The defect called `name`, or an error naming `field` and where the known ones are listed. */
export function defectNamed(name: string, field = '--defect'): Defect {
  if (Object.hasOwn(DEFECTS, name)) return name as Defect;
  throw fieldError(
    'ERR_UNKNOWN_DEFECT',
    field,
    `must be one of the defects listed by "payconform mock --list-defects" (got ${JSON.stringify(name.slice(0, 60))})`,
  );
}

/** The seams a defect wraps (src/mock/seams.ts), and the callback settings it may change. */
export interface MockSeams {
  readonly gate: Gate;
  readonly write: AnswerWriter;
  readonly sign: CallbackSigner;
  readonly callbacks: CallbackSettings;
}

/** Wraps the answer writer so the answer goes out as if this answer rule did not hold. */
type AnswerBend = (write: AnswerWriter) => AnswerWriter;

/** An answer with another error message. */
const withMessage = (answer: MockAnswer, more: string): MockAnswer => ({
  ...answer,
  body: { ...answer.body, 'error-message': `${answer.body['error-message']}${more}` },
});

const ANSWER_BENDS: { readonly [id in RuleId]?: AnswerBend } = {
  'answer-media-type': (write) => (answer, req) => {
    const written = write(answer, req);
    const type = String(written.headers['content-type']).replace(/^[^;]*/, 'application/json');
    return { ...written, headers: { ...written.headers, 'content-type': type } };
  },
  // A field problem crashes the gateway instead of being refused.
  'validation-error-status': (write) => (answer, req) =>
    write(
      answer.body['error-code']?.startsWith('FIELD_') === true
        ? internalErrorAnswer(answer.body['serial-number'] ?? '')
        : answer,
      req,
    ),
  'no-control-key-in-answer': (write) => (answer, req) =>
    write(
      answer.body['error-code'] === 'CONTROL_INVALID'
        ? withMessage(answer, ` (SHA-1 of the formula's fields, then ${req?.merchant?.merchantControlKey})`)
        : answer,
      req,
    ),
  'no-full-pan-in-answer': (write) => (answer, req) => {
    const pan = req?.field('credit_card_number');
    const refused = answer.body['error-message'] !== undefined;
    return write(refused && pan !== undefined ? withMessage(answer, ` (card ${pan})`) : answer, req);
  },
  // The header carries the card number too: an echo of the request's card data, as a careless gateway writes it.
  'no-cvv-in-answer': (write) => (answer, req) => {
    const cvv = req?.field('cvv2');
    if (answer.body['error-message'] === undefined || cvv === undefined) return write(answer, req);
    const written = write(withMessage(answer, ` (cvv2=${cvv})`), req);
    const card = `card=${req?.field('credit_card_number') ?? ''}; cvv2=${cvv}`;
    return { ...written, headers: { ...written.headers, 'x-card-check': card } };
  },
  'order-kept': (write) => (answer, req) =>
    write(
      answer.body.type === 'status-response' ? { ...answer, body: { ...answer.body, status: 'unknown' } } : answer,
      req,
    ),
};

/** The amount in the callback formula (the mistake amount-in-formula): the customer's return carries it too. */
const amountInControl =
  (sign: CallbackSigner): CallbackSigner =>
  (facts, controlKey) => {
    const pairs = sign(facts, controlKey);
    const wrong = callbackControlWithMistake('amount-in-formula', pairs, controlKey);
    return wrong === undefined ? pairs : pairs.map(([n, v]) => [n, n === 'control' ? wrong : v]);
  };

const CALLBACK_BENDS: { readonly [id in RuleId]?: (seams: MockSeams) => MockSeams } = {
  'callback-signed': (seams) => ({ ...seams, sign: amountInControl(seams.sign) }),
  // Gives up after the first attempt.
  'callback-retried': (seams) => ({ ...seams, callbacks: { ...seams.callbacks, attempts: 1 } }),
  // The other method than the one asked for.
  'callback-method': (seams) => {
    const asked = seams.callbacks.method ?? DEFAULT_CALLBACK_METHOD;
    return { ...seams, callbacks: { ...seams.callbacks, method: asked === 'GET' ? 'POST' : 'GET' } };
  },
};

/** The gate with the defect's request rules bent or off, and its order rules off. */
function brokenGate(gate: Gate, bent: Bent): Gate {
  return {
    firstFailure: (rules, request) => firstFailure(rules, request, bent),
    check: (rule, input) =>
      bent.has(rule.id) ? skip('switched off (a deliberately broken gateway)') : gate.check(rule, input),
  };
}

/** The mock's seams as the defect breaks them; intact without one. */
export function withDefect(defect: Defect | undefined, seams: MockSeams): MockSeams {
  if (defect === undefined) return seams;
  const spec: DefectSpec = DEFECTS[defect];
  const bent: Bent = new Map(spec.breaks.map((id) => [id, spec.bent?.[id] ?? 'off']));
  let broken: MockSeams = { ...seams, gate: brokenGate(seams.gate, bent) };
  for (const id of spec.breaks) {
    const bendAnswer = ANSWER_BENDS[id];
    if (bendAnswer) broken = { ...broken, write: bendAnswer(broken.write) };
    broken = CALLBACK_BENDS[id]?.(broken) ?? broken;
  }
  return broken;
}
