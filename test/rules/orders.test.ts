// The order rules on hand-built order states (A-23, A-27; docs/mock.md "card-gateway rules"): which
// operation may move which order, each amount limit at its boundary, and the exact words of each refusal.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { OP, type Operation } from '../../src/catalogue/index.ts';
import {
  captureWithinAuthorised,
  isApproved,
  isThreeDs,
  MOVE_RULES,
  orderApproved,
  orderFitsOperation,
  orderNotVoided,
  payOnce,
  returnable,
  returnWithinPaid,
  threeDsStepPending,
  voidBeforeSettlement,
  type OrderMove,
  type OrderState,
} from '../../src/rules/orders.ts';
import type { Outcome } from '../../src/rules/rule.ts';
import { evidence, reason } from './outcomes.ts';

const order = (o: Partial<OrderState> = {}): OrderState => ({
  operation: OP.PREAUTH,
  finalStatus: 'approved',
  awaiting3ds: false,
  awaitingCheckout: false,
  voided: false,
  amountCents: 1000n,
  capturedCents: 0n,
  returnedCents: 0n,
  ...o,
});
const move = (operation: Operation, parent: Partial<OrderState> = {}, amountCents?: bigint): OrderMove => ({
  operation,
  parent: order(parent),
  amountCents,
});
const passes = (o: Outcome) => assert.equal(o.outcome, 'pass');

const UPLOADS = [OP.TDS_UPLOAD_CRES_RESULT, OP.TDS_UPLOAD_METHOD_URL_RESULT, OP.TDS_UPLOAD_PARES_RESULT];
const SALES = [OP.SALE, OP.SALEFORM, OP.REBILL];
const PREAUTHS = [OP.PREAUTH, OP.PREAUTHFORM];

describe('order states', () => {
  it('an order is approved only with final status approved and no pending 3-D Secure or checkout step', () => {
    assert.equal(isApproved(order()), true);
    assert.equal(isApproved(order({ finalStatus: 'declined' })), false);
    assert.equal(isApproved(order({ awaiting3ds: true })), false);
    assert.equal(isApproved(order({ awaitingCheckout: true })), false);
  });

  it("a return may give back a sale's amount, a preauth's captured amount", () => {
    for (const operation of SALES) assert.equal(returnable(order({ operation, capturedCents: 7n })), 1000n);
    assert.equal(returnable(order({ operation: OP.SALE, amountCents: undefined })), 0n);
    for (const operation of PREAUTHS) assert.equal(returnable(order({ operation, capturedCents: 7n })), 7n);
  });

  it('the three result uploads are the 3-D Secure moves, nothing else', () => {
    for (const op of UPLOADS) assert.equal(isThreeDs(op), true, op);
    for (const op of [OP.SALE, OP.CAPTURE, OP.STATUS]) assert.equal(isThreeDs(op), false, op);
  });

  it('run in the order the mock checks them: the 3-D Secure step and voiding first, amounts last', () => {
    assert.deepEqual(
      MOVE_RULES.map((r) => r.id),
      [
        '3ds-step-pending',
        'order-not-voided',
        'order-fits-operation',
        'void-before-settlement',
        'order-approved',
        'capture-within-authorised',
        'pay-once',
        'return-within-paid',
      ],
    );
  });

  it('refuse with ORDER_STATE, the amount limits with AMOUNT_EXCEEDS (return-within-paid with either)', () => {
    const state = [{ status: 400, code: 'ORDER_STATE' }];
    for (const rule of [threeDsStepPending, orderNotVoided, orderFitsOperation, voidBeforeSettlement, orderApproved])
      assert.deepEqual(rule.refusals, state, rule.id);
    assert.deepEqual(payOnce.refusals, state);
    assert.deepEqual(captureWithinAuthorised.refusals, [{ status: 400, code: 'AMOUNT_EXCEEDS' }]);
    assert.deepEqual(returnWithinPaid.refusals, [
      { status: 400, code: 'AMOUNT_EXCEEDS' },
      { status: 400, code: 'ORDER_STATE' },
    ]);
  });
});

describe('3ds-step-pending', () => {
  it('takes a result upload only while a step is pending', () => {
    for (const op of UPLOADS) {
      passes(threeDsStepPending.check(move(op, { awaiting3ds: true })));
      assert.deepEqual(evidence(threeDsStepPending.check(move(op))), {
        message: 'orderid: no 3-D Secure step is pending for this order',
        field: 'orderid',
      });
    }
    assert.equal(reason(threeDsStepPending.check(move(OP.CAPTURE))), 'not a 3-D Secure upload');
  });
});

describe('order-not-voided', () => {
  it('refuses any move of a voided order, leaves the uploads to 3ds-step-pending', () => {
    assert.deepEqual(evidence(orderNotVoided.check(move(OP.CAPTURE, { voided: true }))), {
      message: 'orderid: the order is voided',
      field: 'orderid',
    });
    passes(orderNotVoided.check(move(OP.CAPTURE)));
    assert.equal(
      reason(orderNotVoided.check(move(OP.TDS_UPLOAD_PARES_RESULT, { voided: true }))),
      'a 3-D Secure upload',
    );
  });
});

describe('order-fits-operation', () => {
  const refused = (op: Operation, kind: Operation, why: string) =>
    assert.deepEqual(evidence(orderFitsOperation.check(move(op, { operation: kind }))), {
      message: `orderid: ${why}`,
      field: 'orderid',
    });

  it('capture: a preauth only', () => {
    for (const kind of PREAUTHS) passes(orderFitsOperation.check(move(OP.CAPTURE, { operation: kind })));
    refused(OP.CAPTURE, OP.SALE, 'only a preauth can be captured');
  });

  it('payout-pay: a payout check only', () => {
    passes(orderFitsOperation.check(move(OP.PAYOUT_V4_PAY, { operation: OP.PAYOUT_V4_CHECK })));
    refused(OP.PAYOUT_V4_PAY, OP.PAYOUT_V4, 'only a payout-check order can be paid');
  });

  it('void: a sale, a preauth or a rebill', () => {
    for (const kind of [...SALES, ...PREAUTHS]) passes(orderFitsOperation.check(move(OP.VOID, { operation: kind })));
    refused(OP.VOID, OP.PAYOUT_V4_CHECK, 'only a sale, a preauth or a rebill can be voided');
  });

  it('return: a sale or a preauth', () => {
    for (const kind of [...SALES, ...PREAUTHS]) passes(orderFitsOperation.check(move(OP.RETURN, { operation: kind })));
    refused(OP.RETURN, OP.PAYOUT_V4_CHECK, 'only an approved sale or a captured preauth can be returned');
  });

  it('stands aside for an operation that moves no order', () => {
    assert.equal(reason(orderFitsOperation.check(move(OP.STATUS))), 'the operation does not move an order on');
  });
});

describe('void-before-settlement', () => {
  it('refuses a void after one cent was captured or returned, takes it at none', () => {
    const settled = {
      message: 'orderid: a captured or returned order is settled and cannot be voided',
      field: 'orderid',
    };
    assert.deepEqual(evidence(voidBeforeSettlement.check(move(OP.VOID, { capturedCents: 1n }))), settled);
    assert.deepEqual(evidence(voidBeforeSettlement.check(move(OP.VOID, { returnedCents: 1n }))), settled);
    passes(voidBeforeSettlement.check(move(OP.VOID)));
    assert.equal(reason(voidBeforeSettlement.check(move(OP.CAPTURE, { capturedCents: 1n }))), 'not a void');
  });
});

describe('order-approved', () => {
  const refusal = (op: Operation, status: string) => evidence(orderApproved.check(move(op, { finalStatus: status })));

  it('names the status the order has, with its article, and expects approved', () => {
    assert.deepEqual(refusal(OP.CAPTURE, 'declined'), {
      message: 'orderid: a declined preauth cannot be captured',
      field: 'orderid',
      expected: 'approved',
      actual: 'declined',
    });
    assert.equal(refusal(OP.PAYOUT_V4_PAY, 'error').message, 'orderid: an error payout check cannot be paid');
    assert.equal(refusal(OP.VOID, 'processing').message, 'orderid: a processing order cannot be voided');
    assert.equal(
      refusal(OP.RETURN, 'filtered').message,
      'orderid: only an approved sale or a captured preauth can be returned',
    );
  });

  it('refuses an approved order still waiting for 3-D Secure or checkout; stands aside elsewhere', () => {
    assert.equal(evidence(orderApproved.check(move(OP.VOID, { awaiting3ds: true }))).actual, 'approved');
    assert.equal(orderApproved.check(move(OP.VOID, { awaitingCheckout: true })).outcome, 'fail');
    passes(orderApproved.check(move(OP.VOID)));
    assert.equal(
      reason(orderApproved.check(move(OP.STATUS, { finalStatus: 'declined' }))),
      'the operation does not move an order on',
    );
  });
});

describe('capture-within-authorised', () => {
  it("takes up to the preauth's amount less what was captured: 1000 - 600 leaves 400", () => {
    passes(captureWithinAuthorised.check(move(OP.CAPTURE, { capturedCents: 600n }, 400n)));
    assert.deepEqual(evidence(captureWithinAuthorised.check(move(OP.CAPTURE, { capturedCents: 600n }, 401n))), {
      message: 'amount: capture above the authorised amount (400 cents left)',
      field: 'amount',
      expected: '≤ 400 cents',
      actual: '401 cents',
    });
  });

  it('a capture without an amount takes what is left; an order without an amount leaves nothing', () => {
    passes(captureWithinAuthorised.check(move(OP.CAPTURE, { capturedCents: 600n })));
    assert.equal(
      evidence(captureWithinAuthorised.check(move(OP.CAPTURE, { amountCents: undefined }, 1n))).message,
      'amount: capture above the authorised amount (0 cents left)',
    );
    assert.equal(reason(captureWithinAuthorised.check(move(OP.RETURN, {}, 5000n))), 'not a capture');
  });
});

describe('pay-once', () => {
  it('pays a payout check once', () => {
    const check = { operation: OP.PAYOUT_V4_CHECK };
    passes(payOnce.check(move(OP.PAYOUT_V4_PAY, check)));
    assert.deepEqual(evidence(payOnce.check(move(OP.PAYOUT_V4_PAY, { ...check, capturedCents: 1n }))), {
      message: 'orderid: this payout check is already paid',
      field: 'orderid',
    });
    assert.equal(reason(payOnce.check(move(OP.CAPTURE, { capturedCents: 1n }))), 'not a payout-pay');
  });
});

describe('return-within-paid', () => {
  it("returns up to a sale's amount less what was returned: 1000 - 900 leaves 100", () => {
    for (const operation of SALES) {
      passes(returnWithinPaid.check(move(OP.RETURN, { operation, returnedCents: 900n }, 100n)));
      assert.deepEqual(evidence(returnWithinPaid.check(move(OP.RETURN, { operation, returnedCents: 900n }, 101n))), {
        message: 'amount: return above the sale amount (100 cents left)',
        field: 'amount',
        expected: '≤ 100 cents',
        actual: '101 cents',
      });
    }
  });

  it("returns up to a preauth's captured amount, and refuses where nothing was captured", () => {
    passes(returnWithinPaid.check(move(OP.RETURN, { capturedCents: 500n }, 500n)));
    assert.equal(
      evidence(returnWithinPaid.check(move(OP.RETURN, { capturedCents: 500n }, 501n))).message,
      'amount: return above the captured amount (500 cents left)',
    );
    passes(returnWithinPaid.check(move(OP.RETURN, { capturedCents: 500n, returnedCents: 499n })));
    assert.deepEqual(evidence(returnWithinPaid.check(move(OP.RETURN, {}, 1n))), {
      message: 'orderid: nothing was captured to return',
      field: 'orderid',
      code: 'ORDER_STATE',
    });
    assert.equal(reason(returnWithinPaid.check(move(OP.VOID))), 'not a return');
  });
});
