// A request's reference must name something of the merchant: an order, a card reference
// or a recurring payment, and a card reference comes from an approved card order. Exact words of each.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { OP } from '../../src/catalogue/index.ts';
import { cardRefOfApprovedCard, orderKnown, referenceKnown } from '../../src/rules/lookups.ts';
import type { OrderState } from '../../src/rules/orders.ts';
import { evidence } from './outcomes.ts';

const approved: OrderState = {
  operation: OP.SALE,
  finalStatus: 'approved',
  awaiting3ds: false,
  awaitingCheckout: false,
  voided: false,
  amountCents: 100n,
  capturedCents: 0n,
  returnedCents: 0n,
};

describe('order-known', () => {
  it('passes an order of the merchant, refuses none', () => {
    assert.equal(orderKnown.check({ order: approved }).outcome, 'pass');
    assert.deepEqual(evidence(orderKnown.check({ order: undefined })), {
      message: 'orderid: no such order for this merchant',
      field: 'orderid',
    });
    assert.deepEqual(orderKnown.refusals, [{ status: 400, code: 'ORDER_UNKNOWN' }]);
  });
});

describe('reference-known', () => {
  it('names the card reference or the recurring payment, each with its own code', () => {
    assert.equal(referenceKnown.check({ field: 'cardrefid', found: true }).outcome, 'pass');
    assert.equal(referenceKnown.check({ field: 'recurring-payment-id', found: true }).outcome, 'pass');
    assert.deepEqual(evidence(referenceKnown.check({ field: 'cardrefid', found: false })), {
      message: 'cardrefid: no such card reference for this merchant',
      field: 'cardrefid',
    });
    assert.deepEqual(evidence(referenceKnown.check({ field: 'recurring-payment-id', found: false })), {
      message: 'recurring-payment-id: no such recurring payment for this merchant',
      field: 'recurring-payment-id',
      code: 'RECURRING_PAYMENT_UNKNOWN',
    });
    assert.deepEqual(referenceKnown.refusals, [
      { status: 400, code: 'CARD_REF_UNKNOWN' },
      { status: 400, code: 'RECURRING_PAYMENT_UNKNOWN' },
    ]);
  });
});

describe('card-ref-of-approved-card', () => {
  it('needs both an approved order and a card', () => {
    const refused = { message: 'orderid: a card reference needs an approved order paid with a card', field: 'orderid' };
    assert.equal(cardRefOfApprovedCard.check({ parent: approved, hasCard: true }).outcome, 'pass');
    assert.deepEqual(evidence(cardRefOfApprovedCard.check({ parent: approved, hasCard: false })), refused);
    const declined = { ...approved, finalStatus: 'declined' };
    assert.deepEqual(evidence(cardRefOfApprovedCard.check({ parent: declined, hasCard: true })), refused);
    assert.deepEqual(cardRefOfApprovedCard.refusals, [{ status: 400, code: 'ORDER_STATE' }]);
  });
});
