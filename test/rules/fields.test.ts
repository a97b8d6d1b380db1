// The request's own fields: the schema's mandatory fields once and well-formed, the control
// field left to the control rules, and the amount's grammar, with the exact words of each refusal.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testMerchant } from '../../src/gateway/merchants.ts';
import { amountFormat, requiredFields } from '../../src/rules/fields.ts';
import { NonceStore } from '../../src/rules/nonces.ts';
import { RequestUnderTest } from '../../src/rules/request.ts';
import type { Outcome } from '../../src/rules/rule.ts';
import { judgeRequest } from '../../src/rules/run.ts';
import { evidence } from './outcomes.ts';

// PayoutRequest's mandatory fields (schemas/requests.ts, A-25), written out by hand.
const PAYOUT_FIELDS =
  'client_orderid=ORD-1&amount=10.00&currency=EUR&card_printed_name=JANE+DOE&credit_card_number=4111111111111111' +
  '&expire_month=12&expire_year=30';
const judge = (rule: { check(r: RequestUnderTest): Outcome }, body: string, path = '/api/v2/payout/1001') =>
  rule.check(
    new RequestUnderTest(
      { method: 'POST', url: `http://h${path}`, headers: {}, body: Buffer.from(body) },
      {
        merchants: [testMerchant()],
        windowSeconds: 300,
        now: () => 0,
        nonces: new NonceStore(300),
        maxBodyBytes: 1e4,
        explain: false,
      },
    ),
  );
const unread = (path: string) =>
  new RequestUnderTest(
    { method: 'POST', url: `http://h${path}`, headers: {}, body: undefined },
    { merchants: [], windowSeconds: 300, now: () => 0, nonces: new NonceStore(300), maxBodyBytes: 1e4, explain: false },
  );

describe('required-fields', () => {
  it('passes the mandatory fields, with anything else beside them', () => {
    assert.equal(judge(requiredFields, PAYOUT_FIELDS).outcome, 'pass');
    assert.equal(judge(requiredFields, `${PAYOUT_FIELDS}&order_desc=x`).outcome, 'pass');
  });

  it('names a missing field and the schema that requires it', () => {
    const body = PAYOUT_FIELDS.replace('&currency=EUR', '');
    assert.deepEqual(evidence(judge(requiredFields, body)), {
      message: 'currency: is required by PayoutRequest',
      field: 'currency',
      code: 'FIELD_MISSING',
    });
  });

  it('refuses a field sent twice, and one that breaks its format', () => {
    assert.deepEqual(evidence(judge(requiredFields, `${PAYOUT_FIELDS}&currency=USD`)), {
      message: 'currency: must appear once',
      field: 'currency',
      code: 'FIELD_DUPLICATE',
    });
    const bad = evidence(judge(requiredFields, PAYOUT_FIELDS.replace('expire_month=12', 'expire_month=13')));
    assert.equal(bad.field, 'expire_month');
    assert.equal(bad.code, 'FIELD_INVALID');
    assert.match(bad.message, /^expire_month: /);
  });

  it('leaves the control field to the control rules: two of them are not its duplicate', () => {
    assert.equal(judge(requiredFields, `${PAYOUT_FIELDS}&control=a&control=b`).outcome, 'pass');
    assert.equal(evidence(judge(requiredFields, `${PAYOUT_FIELDS}&controls=a&controls=b`)).code, 'FIELD_DUPLICATE');
  });

  it('needs the endpoint and the form; refuses with the three field codes', () => {
    assert.deepEqual(requiredFields.needs, ['endpoint', 'form']);
    assert.deepEqual(
      requiredFields.refusals.map((r) => `${r.status} ${r.code}`),
      ['400 FIELD_MISSING', '400 FIELD_INVALID', '400 FIELD_DUPLICATE'],
    );
  });
});

describe('amount-format', () => {
  it('passes a plain decimal, names what is wrong with another, stands aside without an amount', () => {
    assert.equal(judge(amountFormat, 'amount=10.5').outcome, 'pass');
    assert.deepEqual(evidence(judge(amountFormat, 'amount=1e3')), {
      message: 'amount: exponent notation is not allowed (write the digits, e.g. 1000.00)',
      field: 'amount',
    });
    assert.deepEqual(judge(amountFormat, 'x=1'), { outcome: 'skip', reason: 'no amount in this request' });
    assert.deepEqual(amountFormat.needs, ['form']);
    assert.deepEqual(amountFormat.refusals, [{ status: 400, code: 'FIELD_INVALID' }]);
  });
});

describe('the facts the field rules need', () => {
  it('are not reached before the body is read, nor required-fields without a catalogue row', () => {
    const reasons = (path: string) =>
      judgeRequest([requiredFields, amountFormat], unread(path)).map(({ outcome }) =>
        outcome.outcome === 'skip' ? outcome.reason : outcome.outcome,
      );
    assert.deepEqual(reasons('/api/v2/payout/1001'), [
      'not reached: the body is not a well-formed form',
      'not reached: the body is not a well-formed form',
    ]);
    assert.deepEqual(reasons('/nowhere/1')[0], 'not reached: the path names no catalogue endpoint');
  });
});
