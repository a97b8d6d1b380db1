/**
 * Deliberately broken variants of the mock gateway (`payconform mock --defect NAME`). Each breaks
 * rules of the rule book by id: it switches them off, or bends them with the replacement check
 * written here. Answer rules are broken where the mock writes its answer (server.ts, operations.ts),
 * keyed by the rule id. `npm run prove` shows some scenario of the suite fails against each
 * (docs/prove.md). Never used unless asked for by name.
 */
import { fieldError } from '../errors.ts';
import type { RuleId } from '../rules/book.ts';
import { controlSignature } from '../rules/control.ts';
import { credentialsOf } from '../rules/merchant.ts';
import { oauthSignature, requiredMethod, signatureMethod } from '../rules/oauth.ts';
import type { RequestUnderTest } from '../rules/request.ts';
import { fail, PASS, type Outcome } from '../rules/rule.ts';
import type { Bent } from '../rules/run.ts';
import { controlWithMistake } from '../signing/diagnose/apply.ts';
import { hmacSha1Signature, hmacSigningKey } from '../signing/hmac-sha1.ts';
import { oauthBaseString } from '../signing/oauth.ts';
import { constantTimeEqual } from '../signing/verify.ts';

export interface DefectSpec {
  readonly description: string;
  /** The rules it breaks: switched off unless `bent` gives the check it runs instead. */
  readonly breaks: readonly RuleId[];
  readonly bent?: { readonly [id in RuleId]?: (req: RequestUnderTest) => Outcome };
}

/** control-decimal-amount: the control is expected with the amount as sent, not in cents. */
function decimalAmountControl(req: RequestUnderTest): Outcome {
  const sent = req.field('control');
  if (sent === undefined) return controlSignature.check(req);
  const { match, params } = req;
  const expected = controlWithMistake(
    'decimal-amount',
    match!.endpoint.operation,
    match!.endpointId,
    { method: 'POST', url: req.seen.url, params: params!, match },
    credentialsOf(req.merchant!),
  );
  if (expected === undefined) return controlSignature.check(req);
  return constantTimeEqual(sent, expected)
    ? PASS
    : fail(`control: does not match ${match!.endpoint.operation}'s formula`, { field: 'control' });
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
  if (!usesHmacOnRsa(req)) return oauthSignature.check(req);
  const { baseString } = oauthBaseString({ method: 'POST', url: req.seen.url, params: req.params! }, req.header!.pairs);
  const expected = hmacSha1Signature(hmacSigningKey(req.merchant!.merchantControlKey), baseString);
  return constantTimeEqual(req.oauthParam('oauth_signature')!, expected)
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
        controlSignature.check,
        'control',
        'CONTROL_INVALID',
        (req) => `control: does not match ${req.match!.endpoint.operation}'s formula`,
      ),
      'oauth-signature': missingCountsAsEmpty(
        oauthSignature.check,
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

/** What a defect does to the rules: whether it breaks one, and the checks the request rules run instead. */
export interface Breakage {
  readonly breaks: (id: RuleId) => boolean;
  readonly bent: Bent;
}

export const INTACT: Breakage = { breaks: () => false, bent: new Map() };

export function breakageOf(defect: Defect | undefined): Breakage {
  if (defect === undefined) return INTACT;
  const spec: DefectSpec = DEFECTS[defect];
  const broken = new Set<RuleId>(spec.breaks);
  return { breaks: (id) => broken.has(id), bent: new Map(spec.breaks.map((id) => [id, spec.bent?.[id] ?? 'off'])) };
}
