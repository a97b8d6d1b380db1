/**
 * Rules of what the suite's steps expect of a gateway beyond one answer's shape: the refusal's code
 * and field, the answer fields a flow goes on with, how an order moves, and the callbacks and return
 * a merchant receives. Each compares what came with what was expected; the book gives a step's miss
 * its severity (steps/support/verdict.ts), so no step names an assumption itself.
 */
import { fail, PASS, type Outcome, type Rule } from './rule.ts';

/** What came, and what would do (empty: any value at all). */
export interface Compared {
  readonly what: string;
  readonly expected: readonly string[];
  readonly actual: string | undefined;
}

type ExpectationRule<Id extends string> = Rule<Compared, Id, never>;

export function compare({ what, expected, actual }: Compared): Outcome {
  if (actual !== undefined && (expected.length === 0 || expected.includes(actual))) return PASS;
  const wanted = expected.length === 0 ? 'a value' : expected.join(' or ');
  return fail(`${what}: expected ${wanted}, got ${actual ?? 'none'}`, {
    field: what,
    expected: wanted,
    actual: actual ?? 'none',
  });
}

export const refusalCode: ExpectationRule<'refusal-code'> = {
  id: 'refusal-code',
  title: "a refusal carries its rule's error code",
  basis: 'assumption',
  assumptions: ['A-21'],
  refusals: [],
  clause: 'Errors: "Body fields of the error schemas and any error codes: not shown"; A-21 (the codes of the rules)',
  hint: "Answer a refusal with the error code of the rule it breaks, or name yours in a gateway profile's errorCodes.",
  check: compare,
};

export const errorNamesField: ExpectationRule<'error-names-field'> = {
  id: 'error-names-field',
  title: 'a validation error names the field',
  basis: 'assumption',
  assumptions: ['A-25'],
  refusals: [],
  clause: 'Named schemas (field lists "not shown"): A-25 (the error names the field it is about)',
  hint: 'Name the missing or invalid field in the validation error (its field, or its message "field: …").',
  check: compare,
};

export const answerFieldPresent: ExpectationRule<'answer-field-present'> = {
  id: 'answer-field-present',
  title: 'an answer carries the field a flow goes on with',
  basis: 'assumption',
  assumptions: ['A-17'],
  refusals: [],
  clause: 'Response schemas are named, their fields "not shown": A-17',
  hint: "Answer with the field A-17 names, or name yours in a gateway profile's answerFields.",
  check: compare,
};

export const orderMoves: ExpectationRule<'order-moves'> = {
  id: 'order-moves',
  title: 'an order moves as the test card decides',
  basis: 'assumption',
  assumptions: ['A-23'],
  refusals: [],
  clause: 'States and transitions "not shown": A-23 (processing first, then the final state a test card decides)',
  hint: 'Move a test order through processing to the final state its test card stands for, within the poll deadline.',
  check: compare,
};

const CALLBACK_CLAUSE =
  'Events, callbacks, notifications and their payloads: "not shown"; A-31 (the API family\'s callback)';

export const callbackDelivered: ExpectationRule<'callback-delivered'> = {
  id: 'callback-delivered',
  title: "a final order's callback reaches the merchant as its URL says",
  basis: 'assumption',
  assumptions: ['A-31'],
  refusals: [],
  clause: CALLBACK_CLAUSE,
  hint:
    "Call server_callback_url once an order is final, keeping the URL's own query, and send the same callback " +
    'again when it is refused.',
  check: compare,
};

export const callbackFields: ExpectationRule<'callback-fields'> = {
  id: 'callback-fields',
  title: "a callback carries the order's ids, amount and final status",
  basis: 'assumption',
  assumptions: ['A-31'],
  refusals: [],
  clause: CALLBACK_CLAUSE,
  hint: 'Send orderid, client_orderid, merchant_order, amount and the final status in every callback.',
  check: compare,
};

export const customerReturn: ExpectationRule<'customer-return'> = {
  id: 'customer-return',
  title: 'the customer is sent back to redirect_url with the signed return fields',
  basis: 'assumption',
  assumptions: ['A-31'],
  refusals: [],
  clause: CALLBACK_CLAUSE,
  hint: "Send the paid customer back to redirect_url by a POST form with the order's ids, status and control.",
  check: compare,
};
