/**
 * Rules of the gateway's callbacks to the merchant and the customer's return (A-31,
 * docs/callbacks.md). The suite's callback steps check them; the mock keeps them where it posts a
 * callback or writes the return form, and a broken-gateway defect breaks one by id.
 */
import { callbackControl } from '../signing/callback.ts';
import type { Pair } from '../signing/form-body.ts';
import { constantTimeEqual } from '../signing/verify.ts';
import { fail, PASS, skip, type Rule } from './rule.ts';

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
  refusals: [],
  clause: CLAUSE,
  hint:
    'Sign every callback and customer return with control = SHA-1(status + orderid + client_orderid + ' +
    'merchant control key), lowercase hex; the amount is not in it.',
  check: ({ pairs, controlKey }) => {
    if (controlKey === undefined) return skip('the control key is not known here');
    const sent = pairs.find(([n]) => n === 'control')?.[1];
    if (sent === undefined) return fail('control: missing in the callback', { field: 'control' });
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
  refusals: [],
  clause: CLAUSE,
  hint:
    "Send the callback as an HTTP GET with its fields added to the callback URL's own query string, as the " +
    'public gateways do (or by POST where the gateway profile says callbacks.method POST).',
  check: ({ method, expected }) =>
    method === expected
      ? PASS
      : fail(`callback: came by ${method}, ` + `expected ${expected}${expected === 'GET' ? GET_WHY : ''}`, {
          expected,
          actual: method,
        }),
};
