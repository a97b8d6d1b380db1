/**
 * Rules of the gateway's callbacks to the merchant and the customer's return (A-31,
 * docs/callbacks.md). The suite's callback steps check them; the mock keeps them where it posts a
 * callback or writes the return form, and a broken-gateway defect breaks one by id.
 */
import { callbackControl } from '../signing/callback.ts';
import { isControlShaped } from '../signing/control.ts';
import type { Pair } from '../signing/form-body.ts';
import { constantTimeEqual } from '../signing/verify.ts';
import { fail, PASS, skip, type Outcome, type Rule } from './rule.ts';

export interface CallbackSeen {
  readonly pairs: readonly Pair[];
  /** The merchant control key, when the checker holds it. */
  readonly controlKey: string | undefined;
}

const CLAUSE = 'Events, callbacks, notifications and their payloads: "not shown"; A-31 (the API family\'s callback)';

export const callbackSigned: Rule<CallbackSeen, 'callback-signed', never> = {
  id: 'callback-signed',
  title: 'a callback and a customer return are signed',
  basis: 'assumption',
  assumptions: ['A-31'],
  refusals: [],
  clause: CLAUSE,
  hint:
    'Sign every callback and customer return with control = SHA-1(status + orderid + client_orderid + ' +
    'merchant control key), lowercase hex; the amount is not in it.',
  check: ({ pairs, controlKey }) => {
    if (controlKey === undefined) return skip('the control key is not known here');
    const sent = pairs.find(([n]) => n === 'control')?.[1];
    if (sent === undefined) return fail('control: missing in the callback', { field: 'control', actual: 'none' });
    if (!isControlShaped(sent))
      return fail('control: must be 40 lowercase hex digits (SHA-1)', {
        field: 'control',
        expected: '40 lowercase hex digits',
        actual: `${sent.length} characters of another shape`,
      });
    let expected: string;
    try {
      expected = callbackControl(pairs, controlKey).control;
    } catch {
      return fail('control: the callback lacks a field of its formula (status, orderid, client_orderid)', {
        field: 'control',
      });
    }
    return constantTimeEqual(sent, expected)
      ? PASS
      : fail('control: does not match SHA-1(status + orderid + client_orderid + merchant_control_key)', {
          field: 'control',
          expected: 'the callback formula',
          actual: 'another value',
        });
  },
};

export const callbackRetried: Rule<{ readonly answers: readonly number[] }, 'callback-retried', never> = {
  id: 'callback-retried',
  title: 'a callback the handler did not take is sent again',
  basis: 'assumption',
  assumptions: ['A-31'],
  refusals: [],
  clause: CLAUSE,
  hint:
    'Send the callback again, on a progressive timeline (the public gateways: 30 times over 14 days), until ' +
    'the handler answers 200 (or the attempts run out).',
  check: ({ answers }) => {
    const first = answers[0];
    if (first === undefined || first === 200) return skip('the first callback was taken');
    return answers.length >= 2
      ? PASS
      : fail(`callback: not sent again after the handler answered ${first}`, {
          expected: 'another attempt',
          actual: 'none',
        });
  },
};

const GET_WHY = ' (the public API sends callbacks as GET with the fields in the query string)';

export const callbackMethod: Rule<{ readonly method: string; readonly expected: string }, 'callback-method', never> = {
  id: 'callback-method',
  title: 'a callback comes by the method the gateway is known to use',
  basis: 'assumption',
  assumptions: ['A-31'],
  refusals: [],
  clause: CLAUSE,
  hint:
    "Send the callback as an HTTP GET with its fields added to the callback URL's own query string, as the " +
    'public gateways do (or by POST where the gateway profile says callbacks.method POST).',
  check: ({ method, expected }) =>
    method === expected
      ? PASS
      : fail(`callback: came by ${method}, expected ${expected}${expected === 'GET' ? GET_WHY : ''}`, {
          expected,
          actual: method,
        }),
};

/**
 * What a merchant's callback handler answered to one callback inspect --callback-checks played: the
 * handler's side of A-31, judged by the rules below.
 */
export interface HandlerAnswer {
  /** How the callback went: GET with the fields in the query (the public gateways), or POST. */
  readonly method: string;
  /** The handler's HTTP status, when it answered. */
  readonly status?: number | undefined;
  /** Why there is no status (a time-out, a socket error). */
  readonly error?: string | undefined;
}

type HandlerRule<Id extends string> = Rule<HandlerAnswer, Id, never>;

const is2xx = (status: number): boolean => status >= 200 && status < 300;
const got = ({ status, error }: HandlerAnswer): string =>
  status !== undefined ? `answered ${status}` : `no answer (${error})`;

/** Said with a refused genuine callback sent by GET: the usual cause is a handler that reads only a POST body. */
const GET_NOTE =
  'the public API sends callbacks as HTTP GET with the fields in the query string (A-31): read them from the ' +
  'query, not from a POST body';

/** A rule of the merchant's handler: every one rests on A-31 and refuses nothing itself. */
function handlerRule<Id extends string>(
  id: Id,
  title: string,
  hint: string,
  check: (answer: HandlerAnswer) => Outcome,
): HandlerRule<Id> {
  return { id, title, basis: 'assumption', assumptions: ['A-31'], refusals: [], clause: CLAUSE, hint, check };
}

/** A hostile callback: an answer other than 2xx (a refusal) passes; no answer proves nothing and fails. */
function refusesHostile<Id extends string>(id: Id, title: string, why: string, hint: string): HandlerRule<Id> {
  return handlerRule(id, title, hint, (answer) =>
    answer.status !== undefined && !is2xx(answer.status)
      ? PASS
      : fail(`${got(answer)} to the ${answer.method}; expected a refusal (4xx or 5xx): ${why}`, {
          expected: 'a refusal (4xx or 5xx)',
          actual: got(answer),
        }),
  );
}

/** A genuine callback: the gateway takes 200 only and retries anything else. */
function takesGenuine<Id extends string>(id: Id, title: string, why: string, hint: string): HandlerRule<Id> {
  return handlerRule(id, title, hint, (answer) => {
    if (answer.status === 200) return PASS;
    const refusedGet = answer.method === 'GET' && answer.status !== undefined && !is2xx(answer.status);
    return fail(`${got(answer)} to the ${answer.method}; expected 200: ${why}${refusedGet ? `; ${GET_NOTE}` : ''}`, {
      expected: '200',
      actual: got(answer),
    });
  });
}

export const handlerRefusesForgedControl = refusesHostile(
  'callback-forged-control',
  'a callback with a forged control is not accepted',
  'anyone who learns the callback URL can post "approved" for an unpaid order; only the control proves the ' +
    'gateway sent it',
  'Compute SHA-1(status + orderid + client_orderid + merchant control key), compare it with control in ' +
    'constant time, and answer 403 when it differs.',
);

export const handlerRefusesOtherAmount = refusesHostile(
  'callback-other-amount',
  'a correctly signed callback with another amount is not accepted',
  'the amount is not in the control formula, so a valid control does not vouch for it: an order can be ' +
    'marked paid for a cent',
  "After the control, compare orderid, client_orderid and amount with your own order (as the vendor's " +
    'library does), and refuse the callback when one differs.',
);

export const handlerRefusesUnknownOrder = refusesHostile(
  'callback-unknown-order',
  'a correctly signed callback for an order you never made is not accepted',
  'a handler that creates or approves whatever order a callback names books payments that do not exist',
  'Look the order up by client_orderid; answer 404 (and change nothing) when it is not yours.',
);

export const handlerTakesGenuine = takesGenuine(
  'callback-genuine',
  'the genuine callback is accepted (200)',
  'the gateway retries anything but 200, and the order stays unsettled on your side',
  'Answer 200 once the status is recorded; verify with the control formula of docs/callbacks.md ' +
    '(payconform verify --callback shows the right value).',
);

export const handlerTakesGenuineAgain = takesGenuine(
  'callback-genuine-again',
  'the same genuine callback again is accepted (200)',
  'gateways retry callbacks (a time-out, a lost answer): a handler that fails on the second one is retried ' +
    'again and again, or double-books',
  'Make the handler idempotent: a callback for an order already in that status is answered 200 and changes ' +
    'nothing.',
);
