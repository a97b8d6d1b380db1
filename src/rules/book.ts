/**
 * The rule book: every check payconform makes, once. The mock runs the request rules in this order
 * and answers the first failure with its refusal; inspect runs them all; the mock's order stage
 * runs the order rules; the client checks every answer with the answer rules. MockErrorCode, inspect's
 * check list and the defect list all come from here (docs/architecture.md: adding a rule).
 */
import {
  answerMediaType,
  noControlKeyInAnswer,
  noFullPanInAnswer,
  noCvvInAnswer,
  orderKept,
  validationErrorStatus,
} from './answers.ts';
import {
  callbackMethod,
  callbackRetried,
  callbackSigned,
  handlerRefusesForgedControl,
  handlerRefusesOtherAmount,
  handlerRefusesUnknownOrder,
  handlerTakesGenuine,
  handlerTakesGenuineAgain,
} from './callbacks.ts';
import {
  handlerAfterWindow,
  handlerChargebackBooked,
  handlerChargebackNotPayment,
  handlerDuplicateTogether,
  handlerHostileChangesNothing,
  handlerLateStatusChangesNothing,
} from './callback-world.ts';
import { answerFieldsKnown, answerJsonBody, answerSchema, otherStatusAnswer } from './answer-body.ts';
import { controlFormat, controlPresent, controlSignature } from './control.ts';
import { endpointOwner } from './endpoint-owner.ts';
import {
  answerFieldPresent,
  callbackDelivered,
  callbackFields,
  customerReturn,
  errorNamesField,
  orderMoves,
  refusalCode,
} from './expectations.ts';
import { cardDataWhereAsked } from './card-data.ts';
import { amountFormat, requiredFields } from './fields.ts';
import { loginOfMerchant } from './login-of-merchant.ts';
import { merchantUrls } from './merchant-urls.ts';
import { noBlindRetry, orderIdUnique } from './habits.ts';
import { noNewOrderWhileUnknown } from './new-order-while-unknown.ts';
import { acceptHeader, bodySize, contentType, encodedOnce, endpointKnown, formEncoding, methodPost } from './http.ts';
import { cardRefOfApprovedCard, orderKnown, referenceKnown } from './lookups.ts';
import {
  consumerKeyKnown,
  noOAuthInBody,
  nonceUnique,
  oauthBodyConsistent,
  oauthHeaderFormat,
  oauthHeaderPresent,
  oauthSignature,
  oauthTimestampWindow,
  oauthVersion,
  signatureMethod,
} from './oauth.ts';
import { MOVE_RULES } from './orders.ts';
import { noControlKeyInRequest } from './no-control-key-in-request.ts';
import {
  returnRefusesForgedControl,
  returnRefusesOtherStatus,
  returnRefusesUnknownOrder,
  returnTakesGenuine,
  returnTakesGenuineAgain,
} from './return-handler.ts';
import { statusTransactionType } from './status-transaction-type.ts';

/** Judged before the body is read: a gateway refuses these without reading it. */
export const HEAD_RULES = [methodPost, endpointKnown, acceptHeader, contentType] as const;

/** Judged once the body is read, in the order the mock refuses. */
export const BODY_RULES = [
  // First: a request that hands the secret key to every proxy on its way is refused for that before anything else.
  noControlKeyInRequest,
  bodySize,
  formEncoding,
  encodedOnce,
  endpointOwner,
  controlPresent,
  controlFormat,
  controlSignature,
  oauthHeaderPresent,
  oauthHeaderFormat,
  oauthBodyConsistent,
  consumerKeyKnown,
  signatureMethod,
  oauthVersion,
  oauthTimestampWindow,
  oauthSignature,
  nonceUnique,
  noOAuthInBody,
  // After the signatures: only a request signed with the merchant's own key learns that its login differs.
  loginOfMerchant,
  requiredFields,
  merchantUrls,
  amountFormat,
  cardDataWhereAsked,
  orderIdUnique,
  noBlindRetry,
  noNewOrderWhileUnknown,
] as const;

export const REQUEST_RULES = [...HEAD_RULES, ...BODY_RULES] as const;

/** Rules of the mock's order stage: references first, then the moves. */
export const ORDER_RULES = [orderKnown, referenceKnown, cardRefOfApprovedCard, ...MOVE_RULES] as const;

/** Judged on every answer by one runner (judge-answer.ts), for the client and the steps. */
export const ANSWER_RULES = [
  answerMediaType,
  answerJsonBody,
  otherStatusAnswer,
  validationErrorStatus,
  noControlKeyInAnswer,
  // Before the card number's: a CVV echoed beside the number it belongs to is the graver leak, named first.
  noCvvInAnswer,
  noFullPanInAnswer,
  answerSchema,
  answerFieldsKnown,
  orderKept,
] as const;

/** Rules of the gateway's callbacks to the merchant. */
export const CALLBACK_RULES = [callbackSigned, callbackRetried, callbackMethod] as const;

/**
 * Rules of the merchant's callback handler, in the order inspect --callback-checks plays them: hostile ones first,
 * then the world's (callback-world.ts: duplicates at once as the first delivery, late, chargeback, after the window).
 */
export const CALLBACK_HANDLER_RULES = [
  handlerRefusesForgedControl,
  handlerRefusesOtherAmount,
  handlerRefusesUnknownOrder,
  handlerHostileChangesNothing,
  handlerDuplicateTogether,
  handlerTakesGenuine,
  handlerTakesGenuineAgain,
  handlerLateStatusChangesNothing,
  handlerChargebackNotPayment,
  handlerChargebackBooked,
  handlerAfterWindow,
] as const;

/** Rules of the merchant's customer-return handler, in the order inspect --return-checks plays them. */
export const RETURN_HANDLER_RULES = [
  returnRefusesForgedControl,
  returnRefusesOtherStatus,
  returnRefusesUnknownOrder,
  returnTakesGenuine,
  returnTakesGenuineAgain,
] as const;

/** What the suite's steps expect beyond one answer's shape; each step names the rule, the book its severity. */
export const EXPECTATION_RULES = [
  refusalCode,
  errorNamesField,
  answerFieldPresent,
  orderMoves,
  callbackDelivered,
  callbackFields,
  customerReturn,
  statusTransactionType,
] as const;

export const RULES = [
  ...REQUEST_RULES,
  ...ORDER_RULES,
  ...ANSWER_RULES,
  ...CALLBACK_RULES,
  ...CALLBACK_HANDLER_RULES,
  ...RETURN_HANDLER_RULES,
  ...EXPECTATION_RULES,
] as const;

type AnyRule = (typeof RULES)[number];
export type RuleId = AnyRule['id'];
export type RequestRuleId = (typeof REQUEST_RULES)[number]['id'];
/** Every error code a rule's refusal can carry. */
export type RefusalCode = AnyRule['refusals'][number]['code'];

/** The rule's description without its check: what reports, docs and defects need. */
export type RuleInfo = Pick<AnyRule, 'id' | 'title' | 'clause' | 'basis' | 'assumptions' | 'hint' | 'severity'> & {
  readonly refusals: readonly { readonly status: number; readonly code: RefusalCode }[];
};

export const RULE_BY_ID: ReadonlyMap<RuleId, RuleInfo> = new Map(RULES.map((r) => [r.id, r as RuleInfo]));

/** The rules whose refusal carries this error code (the suite names the rule behind a code it expects). */
export function rulesRefusingWith(code: string): RuleInfo[] {
  return [...RULE_BY_ID.values()].filter((r) => r.refusals.some((f) => f.code === code));
}
