// The integration under faults, judged by inspect (A-58..A-60) on real signed requests, told how each exchange
// ended as the listener tells it (C2): a resend or a new order after an answer that said nothing fails the rule
// meant for it, with its exact words; a correct integration (distinct orders, status polls, a status asked again
// after a time-out, a refused request corrected and sent again) passes every check.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { endpointByOperation, OP } from '../../src/catalogue/index.ts';
import { buildRequest } from '../../src/client/client.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';
import { Inspector, type CheckVerdict, type RequestVerdict } from '../../src/inspect/inspector.ts';
import type { AnswerOutcome } from '../../src/rules/history.ts';
import { sampleRequest } from '../../src/schemas/index.ts';
import type { Pair } from '../../src/signing/form-body.ts';

const merchant = testMerchant();
const credentials = {
  login: merchant.login,
  controlKey: merchant.merchantControlKey,
  privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
};
const TIMEOUT: AnswerOutcome = { kind: 'lost', fault: 'timeout' };
const OK: AnswerOutcome = { kind: 'answered', status: 200 };
const HABITS = ['order-id-unique', 'no-blind-retry', 'no-new-order-while-unknown'] as const;

/** One integration's requests through one inspector: each signed as payconform's client signs it. */
function integration() {
  const inspector = new Inspector({ merchants: [merchant] });
  return (operation: string, id: string, outcome: AnswerOutcome | undefined, extra: Pair[] = []): RequestVerdict => {
    const endpoint = endpointByOperation(operation);
    const pairs = sampleRequest(endpoint, [['client_orderid', id], ...extra]);
    const r = buildRequest(
      endpoint,
      { baseUrl: 'http://127.0.0.1:8080/paynet', credentials, endpointId: '1001' },
      pairs,
    );
    const request = inspector.request({ method: r.method, url: r.url, headers: r.headers, body: Buffer.from(r.body) });
    const { verdict } = inspector.inspect(request);
    if (outcome) inspector.answered(request, outcome);
    return verdict;
  };
}

const check = (v: RequestVerdict, id: (typeof HABITS)[number]): CheckVerdict => v.checks.find((c) => c.id === id)!;
const failed = (v: RequestVerdict): string[] => v.checks.filter((c) => c.outcome === 'fail').map((c) => c.id);

describe('no-blind-retry after an answer that said nothing (A-58)', () => {
  it('fails the same sale sent again after a time-out, naming the lost answer; only that rule fails', () => {
    const send = integration();
    assert.deepEqual(failed(send(OP.SALE, 'T-1', TIMEOUT)), []);
    const again = send(OP.SALE, 'T-1', OK);
    assert.deepEqual(failed(again), ['no-blind-retry']);
    assert.equal(
      check(again, 'no-blind-retry').message,
      'sent again after its answer was lost (timeout), with no status request for the order in between',
    );
  });

  it('fails it after a 503 and after a reset the same way, each named', () => {
    const send = integration();
    send(OP.SALE, 'T-2', { kind: 'answered', status: 503 });
    assert.equal(
      check(send(OP.SALE, 'T-2', OK), 'no-blind-retry').message,
      'sent again after it was answered 503, with no status request for the order in between',
    );
    send(OP.SALE, 'T-3', { kind: 'lost', fault: 'reset' });
    assert.equal(
      check(send(OP.SALE, 'T-3', OK), 'no-blind-retry').message,
      'sent again after its answer was lost (reset), with no status request for the order in between',
    );
  });

  it('fails a return sent again after its own answer was lost, and passes one sent after a status request', () => {
    const send = integration();
    send(OP.SALE, 'T-4', OK);
    send(OP.RETURN, 'T-4', { kind: 'lost', fault: 'lost-answer' });
    const blind = send(OP.RETURN, 'T-4', OK);
    assert.deepEqual(failed(blind), ['no-blind-retry']);
    assert.equal(
      check(blind, 'no-blind-retry').message,
      "sent after the order's RETURN request ended unknown (its answer was lost (lost-answer)), " +
        'with no status request for the order in between',
    );
    send(OP.RETURN, 'T-4', { kind: 'answered', status: 502 });
    send(OP.STATUS, 'T-4', OK);
    assert.deepEqual(failed(send(OP.RETURN, 'T-4', OK)), []);
  });

  it('passes the same sale sent again once a status request for it came back (the gateway had no such order)', () => {
    const send = integration();
    send(OP.SALE, 'T-5', TIMEOUT);
    send(OP.STATUS, 'T-5', { kind: 'answered', status: 400 });
    assert.deepEqual(failed(send(OP.SALE, 'T-5', OK)), []);
  });

  it('counts a status request only once it was answered: one whose own answer was lost asked nothing', () => {
    const send = integration();
    send(OP.SALE, 'T-7', TIMEOUT);
    send(OP.STATUS, 'T-7', TIMEOUT);
    assert.deepEqual(failed(send(OP.SALE, 'T-7', OK)), ['no-blind-retry']);
    send(OP.SALE, 'T-8', OK);
    send(OP.CAPTURE, 'T-8', TIMEOUT);
    send(OP.STATUS, 'T-8', { kind: 'answered', status: 503 });
    assert.deepEqual(failed(send(OP.CAPTURE, 'T-8', OK)), ['no-blind-retry']);
  });

  it('fails order-id-unique, not no-blind-retry, where the status said the gateway holds the order', () => {
    const send = integration();
    send(OP.SALE, 'T-6', TIMEOUT);
    send(OP.STATUS, 'T-6', OK);
    assert.deepEqual(failed(send(OP.SALE, 'T-6', OK)), ['order-id-unique']);
  });
});

describe('a request refused 4xx made no order (A-59)', () => {
  it('passes the corrected request sent again under the same client_orderid', () => {
    const send = integration();
    send(OP.SALE, 'R-1', { kind: 'answered', status: 400 });
    const corrected = send(OP.SALE, 'R-1', OK);
    assert.deepEqual(failed(corrected), []);
    for (const id of HABITS) assert.equal(check(corrected, id).outcome, 'pass', id);
    // Once it was answered 200 the id is used up: a third start is a reused id and a blind resend.
    assert.deepEqual(failed(send(OP.SALE, 'R-1', OK)), ['order-id-unique', 'no-blind-retry']);
  });
});

describe('no-new-order-while-unknown (A-60)', () => {
  it('fails the same payment started under a new client_orderid after a time-out, naming the first', () => {
    const send = integration();
    send(OP.SALE, 'N-1', TIMEOUT);
    const second = send(OP.SALE, 'N-2', OK);
    assert.deepEqual(failed(second), ['no-new-order-while-unknown']);
    assert.equal(
      check(second, 'no-new-order-while-unknown').message,
      'the same payment (amount, currency, card) was started as "N-1", and its answer was lost (timeout) ' +
        'with no status request for it since: a likely double charge',
    );
  });

  it('fails it after a 502 too, and never shows the card number', () => {
    const send = integration();
    send(OP.SALE, 'N-3', { kind: 'answered', status: 502 });
    const second = send(OP.SALE, 'N-4', OK);
    assert.deepEqual(failed(second), ['no-new-order-while-unknown']);
    assert.doesNotMatch(JSON.stringify(second), /4111111111111111|411111\d*1111/);
  });

  it('passes another card, another amount, and the same payment once a status for the first order was answered', () => {
    const send = integration();
    send(OP.SALE, 'N-5', TIMEOUT);
    assert.deepEqual(failed(send(OP.SALE, 'N-6', OK, [['credit_card_number', '5555555555554444']])), []);
    assert.deepEqual(failed(send(OP.SALE, 'N-7', OK, [['amount', '11.00']])), []);
    send(OP.STATUS, 'N-5', { kind: 'lost', fault: 'reset' });
    assert.deepEqual(failed(send(OP.SALE, 'N-8', OK)), ['no-new-order-while-unknown'], 'the status said nothing');
    send(OP.STATUS, 'N-5', { kind: 'answered', status: 400 });
    assert.deepEqual(failed(send(OP.SALE, 'N-11', OK)), []);
  });

  it('does not judge a hosted form, which carries no card to tell one payment from another', () => {
    const send = integration();
    send(OP.SALEFORM, 'N-9', TIMEOUT);
    const other = send(OP.SALEFORM, 'N-10', OK);
    assert.equal(check(other, 'no-new-order-while-unknown').outcome, 'skip');
    assert.equal(
      check(other, 'no-new-order-while-unknown').message,
      'no card in the request to tell one payment from another',
    );
  });
});

describe('a correct integration under faults', () => {
  it('passes every check: distinct orders of the same card and amount, status polls, a status asked again', () => {
    const send = integration();
    const verdicts = [
      send(OP.SALE, 'C-1', OK),
      send(OP.STATUS, 'C-1', OK),
      send(OP.STATUS, 'C-1', OK),
      send(OP.SALE, 'C-2', OK),
      // The sale's answer is lost: status, whose own answer is lost too, asked again, then the order is known.
      send(OP.SALE, 'C-3', TIMEOUT),
      send(OP.STATUS, 'C-3', TIMEOUT),
      send(OP.STATUS, 'C-3', { kind: 'answered', status: 503 }),
      send(OP.STATUS, 'C-3', OK),
      send(OP.RETURN, 'C-3', OK),
      send(OP.RETURN, 'C-3', OK),
      send(OP.SALE, 'C-4', { kind: 'lost', fault: 'client-gave-up' }),
      send(OP.STATUS, 'C-4', { kind: 'answered', status: 400 }),
      send(OP.SALE, 'C-4', OK),
      send(OP.SALE, 'C-5', OK),
    ];
    for (const [i, v] of verdicts.entries()) assert.deepEqual(failed(v), [], `request ${i + 1}`);
  });
});
