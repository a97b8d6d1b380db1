// The callback rules in detail (A-31, docs/callbacks.md): the gateway's side (signed, retried, method) and
// the merchant handler's side, on callbacks and answers written by hand. The control of a callback is
// SHA-1(status + orderid + client_orderid + merchant control key), lowercase hex, computed here.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  callbackMethod,
  callbackRetried,
  callbackSigned,
  handlerRefusesForgedControl,
  handlerRefusesOtherAmount,
  handlerRefusesUnknownOrder,
  handlerTakesGenuine,
  handlerTakesGenuineAgain,
  type HandlerAnswer,
} from '../../src/rules/callbacks.ts';
import type { Outcome } from '../../src/rules/rule.ts';
import { evidence, reason } from './outcomes.ts';

type P = [string, string];
const KEY = 'callback-key';
const GOOD = createHash('sha1').update(`approved77001A-1${KEY}`).digest('hex');
/** The callback's fields before control, in the order the public library sends them. */
const FIELDS: P[] = [
  ['orderid', '77001'],
  ['merchant_order', 'A-1'],
  ['client_orderid', 'A-1'],
  ['amount', '10.50'],
  ['status', 'approved'],
  ['type', 'sale'],
];

const signed = (pairs: readonly P[]): Outcome => callbackSigned.check({ pairs, controlKey: KEY });

describe('callback-signed', () => {
  it('passes the hand-computed control, wherever control sits among the fields', () => {
    assert.equal(signed([...FIELDS, ['control', GOOD]]).outcome, 'pass');
    assert.equal(signed([['control', GOOD], ...FIELDS]).outcome, 'pass');
  });

  it('stands aside without the control key', () => {
    const pairs: P[] = [...FIELDS, ['control', GOOD]];
    assert.equal(reason(callbackSigned.check({ pairs, controlKey: undefined })), 'the control key is not known here');
  });

  it('names a missing control', () => {
    assert.deepEqual(evidence(signed(FIELDS)), {
      message: 'control: missing in the callback',
      field: 'control',
      actual: 'none',
    });
  });

  it('says how long a control of another shape was, without echoing it', () => {
    assert.deepEqual(evidence(signed([...FIELDS, ['control', GOOD.toUpperCase()]])), {
      message: 'control: must be 40 lowercase hex digits (SHA-1)',
      field: 'control',
      expected: '40 lowercase hex digits',
      actual: '40 characters of another shape',
    });
    assert.equal(evidence(signed([...FIELDS, ['control', 'abc']])).actual, '3 characters of another shape');
  });

  it('names the formula when a field of it is missing', () => {
    const noStatus = FIELDS.filter(([n]) => n !== 'status');
    assert.deepEqual(evidence(signed([...noStatus, ['control', GOOD]])), {
      message: 'control: the callback lacks a field of its formula (status, orderid, client_orderid)',
      field: 'control',
    });
  });

  it('fails a control made with another key, or over the amount', () => {
    const otherKey = createHash('sha1').update('approved77001A-1other-key').digest('hex');
    const withAmount = createHash('sha1').update(`approved77001A-110.50${KEY}`).digest('hex');
    for (const control of [otherKey, withAmount])
      assert.deepEqual(evidence(signed([...FIELDS, ['control', control]])), {
        message: 'control: does not match SHA-1(status + orderid + client_orderid + merchant_control_key)',
        field: 'control',
        expected: 'the callback formula',
        actual: 'another value',
      });
  });
});

describe('callback-retried', () => {
  const retried = (answers: number[]): Outcome => callbackRetried.check({ answers });

  it('stands aside when there was no callback or the first one was taken', () => {
    assert.equal(reason(retried([])), 'the first callback was taken');
    assert.equal(reason(retried([200])), 'the first callback was taken');
  });

  it('passes a second attempt after a refusal, fails when none came', () => {
    assert.equal(retried([500, 200]).outcome, 'pass');
    assert.equal(retried([503, 503, 200]).outcome, 'pass');
    assert.deepEqual(evidence(retried([500])), {
      message: 'callback: not sent again after the handler answered 500',
      expected: 'another attempt',
      actual: 'none',
    });
    assert.equal(evidence(retried([201])).message, 'callback: not sent again after the handler answered 201');
  });
});

describe('callback-method', () => {
  const method = (m: string, expected: string): Outcome => callbackMethod.check({ method: m, expected });

  it('passes the expected method', () => {
    assert.equal(method('GET', 'GET').outcome, 'pass');
    assert.equal(method('POST', 'POST').outcome, 'pass');
  });

  it('says why GET is expected, and only then', () => {
    assert.deepEqual(evidence(method('POST', 'GET')), {
      message:
        'callback: came by POST, expected GET (the public API sends callbacks as GET with the fields in the query ' +
        'string)',
      expected: 'GET',
      actual: 'POST',
    });
    assert.deepEqual(evidence(method('GET', 'POST')), {
      message: 'callback: came by GET, expected POST',
      expected: 'POST',
      actual: 'GET',
    });
  });
});

describe('callback handler rules', () => {
  const answer = (method: string, status?: number, error?: string): HandlerAnswer => ({ method, status, error });
  const HOSTILE = [
    [
      handlerRefusesForgedControl,
      'anyone who learns the callback URL can post "approved" for an unpaid order; only the control proves the ' +
        'gateway sent it',
    ],
    [
      handlerRefusesOtherAmount,
      'the amount is not in the control formula, so a valid control does not vouch for it: an order can be ' +
        'marked paid for a cent',
    ],
    [
      handlerRefusesUnknownOrder,
      'a handler that creates or approves whatever order a callback names books payments that do not exist',
    ],
  ] as const;
  const GENUINE = [
    [handlerTakesGenuine, 'the gateway retries anything but 200, and the order stays unsettled on your side'],
    [
      handlerTakesGenuineAgain,
      'gateways retry callbacks (a time-out, a lost answer): a handler that fails on the second one is retried ' +
        'again and again, or double-books',
    ],
  ] as const;
  const GET_NOTE =
    'the public API sends callbacks as HTTP GET with the fields in the query string (A-31): read them from the ' +
    'query, not from a POST body';

  it('are A-31 assumptions that refuse nothing themselves', () => {
    for (const [rule] of [...HOSTILE, ...GENUINE]) {
      assert.equal(rule.basis, 'assumption');
      assert.deepEqual(rule.assumptions, ['A-31']);
      assert.deepEqual(rule.refusals, []);
    }
  });

  it('a hostile callback: any answer outside 2xx is a refusal and passes', () => {
    for (const [rule] of HOSTILE)
      for (const status of [199, 300, 403, 404, 500]) assert.equal(rule.check(answer('GET', status)).outcome, 'pass');
  });

  it('a hostile callback: a 2xx answer, or none, fails and says why it matters', () => {
    for (const [rule, why] of HOSTILE) {
      assert.deepEqual(evidence(rule.check(answer('GET', 200))), {
        message: `answered 200 to the GET; expected a refusal (4xx or 5xx): ${why}`,
        expected: 'a refusal (4xx or 5xx)',
        actual: 'answered 200',
      });
      assert.equal(evidence(rule.check(answer('POST', 299))).actual, 'answered 299');
      assert.deepEqual(evidence(rule.check(answer('POST', undefined, 'timed out after 5000 ms'))), {
        message: `no answer (timed out after 5000 ms) to the POST; expected a refusal (4xx or 5xx): ${why}`,
        expected: 'a refusal (4xx or 5xx)',
        actual: 'no answer (timed out after 5000 ms)',
      });
    }
  });

  it('a genuine callback: only 200 passes', () => {
    for (const [rule, why] of GENUINE) {
      assert.equal(rule.check(answer('GET', 200)).outcome, 'pass');
      assert.deepEqual(evidence(rule.check(answer('POST', 204))), {
        message: `answered 204 to the POST; expected 200: ${why}`,
        expected: '200',
        actual: 'answered 204',
      });
      assert.deepEqual(evidence(rule.check(answer('GET', undefined, 'ECONNREFUSED'))), {
        message: `no answer (ECONNREFUSED) to the GET; expected 200: ${why}`,
        expected: '200',
        actual: 'no answer (ECONNREFUSED)',
      });
    }
  });

  it('a genuine GET refused: says the fields come in the query, not in a POST body', () => {
    for (const [rule, why] of GENUINE) {
      for (const status of [199, 300, 405])
        assert.equal(
          evidence(rule.check(answer('GET', status))).message,
          `answered ${status} to the GET; expected 200: ${why}; ${GET_NOTE}`,
        );
      // A 2xx other than 200 is no refusal, and a refused POST reads no query: no note.
      assert.equal(evidence(rule.check(answer('GET', 299))).message, `answered 299 to the GET; expected 200: ${why}`);
      assert.equal(evidence(rule.check(answer('POST', 405))).message, `answered 405 to the POST; expected 200: ${why}`);
    }
  });
});
