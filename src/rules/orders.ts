/**
 * Rules of order state that only a gateway keeping orders can judge (A-23, A-27; docs/mock.md): what
 * capture, void, return, payout-pay and the 3-D Secure uploads may do to an earlier order. The spec
 * shows no states or transitions, so every one rests on an assumption. The mock runs them in this
 * order before it changes anything; a refused move changes nothing.
 */
import { OP, type Operation } from '../catalogue/index.ts';
import { fail, PASS, skip, type Rule } from './rule.ts';
import { withArticle } from '../article.ts';

/** What the rules read of an order (the mock's Order has these and more). */
export interface OrderState {
  readonly operation: Operation;
  readonly finalStatus: string;
  readonly awaiting3ds: boolean;
  readonly awaitingCheckout: boolean;
  readonly voided: boolean;
  readonly amountCents: bigint | undefined;
  readonly capturedCents: bigint;
  readonly returnedCents: bigint;
}

/** A request that moves an earlier order on: the operation, the order, and the amount asked for (cents). */
export interface OrderMove {
  readonly operation: Operation;
  readonly parent: OrderState;
  readonly amountCents: bigint | undefined;
}

type OrderRule<Id extends string, C extends string> = Rule<OrderMove, Id, C>;

/** A 3-D Secure result upload, which moves an order only while a step is pending. */
export const isThreeDs = (op: Operation): boolean =>
  op === OP.TDS_UPLOAD_CRES_RESULT || op === OP.TDS_UPLOAD_METHOD_URL_RESULT || op === OP.TDS_UPLOAD_PARES_RESULT;
const PREAUTHS: readonly Operation[] = [OP.PREAUTH, OP.PREAUTHFORM];
const SALES: readonly Operation[] = [OP.SALE, OP.SALEFORM, OP.REBILL];
const VOIDABLE: readonly Operation[] = [OP.SALE, OP.PREAUTH, OP.SALEFORM, OP.PREAUTHFORM, OP.REBILL];
const STATE = [{ status: 400, code: 'ORDER_STATE' as const }];
const STATE_CLAUSE = 'States and transitions "not shown"; A-23, A-27';

export const isApproved = (o: OrderState): boolean =>
  o.finalStatus === 'approved' && !o.awaiting3ds && !o.awaitingCheckout;
/** What a return may give back: a sale's amount, a preauth's captured amount. */
export const returnable = (o: OrderState): bigint =>
  SALES.includes(o.operation) ? (o.amountCents ?? 0n) : o.capturedCents;

export const threeDsStepPending: OrderRule<'3ds-step-pending', 'ORDER_STATE'> = {
  id: '3ds-step-pending',
  title: '3-D Secure result only while a step is pending',
  clause: STATE_CLAUSE,
  basis: 'assumption',
  assumptions: ['A-23', 'A-27'],
  refusals: STATE,
  hint: 'Upload a 3-D Secure result only for an order whose status asked for one.',
  check: (m) =>
    !isThreeDs(m.operation)
      ? skip('not a 3-D Secure upload')
      : m.parent.awaiting3ds
        ? PASS
        : fail('orderid: no 3-D Secure step is pending for this order', { field: 'orderid' }),
};

export const orderNotVoided: OrderRule<'order-not-voided', 'ORDER_STATE'> = {
  id: 'order-not-voided',
  title: 'a voided order stays voided',
  clause: STATE_CLAUSE,
  basis: 'assumption',
  assumptions: ['A-23', 'A-27'],
  refusals: STATE,
  hint: 'Do not capture, return or void an order that was voided.',
  check: (m) =>
    isThreeDs(m.operation)
      ? skip('a 3-D Secure upload')
      : m.parent.voided
        ? fail('orderid: the order is voided', { field: 'orderid' })
        : PASS,
};

export const orderFitsOperation: OrderRule<'order-fits-operation', 'ORDER_STATE'> = {
  id: 'order-fits-operation',
  title: 'the order is of a kind the operation acts on',
  clause: STATE_CLAUSE,
  basis: 'assumption',
  assumptions: ['A-23', 'A-27'],
  refusals: STATE,
  hint: 'Capture a preauth, pay a payout check, void a sale, preauth or rebill, return a sale or a captured preauth.',
  check(m) {
    const kind = m.parent.operation;
    const refuse = (why: string) => fail(`orderid: ${why}`, { field: 'orderid' });
    if (m.operation === OP.CAPTURE) return PREAUTHS.includes(kind) ? PASS : refuse('only a preauth can be captured');
    if (m.operation === OP.PAYOUT_V4_PAY)
      return kind === OP.PAYOUT_V4_CHECK ? PASS : refuse('only a payout-check order can be paid');
    if (m.operation === OP.VOID)
      return VOIDABLE.includes(kind) ? PASS : refuse('only a sale, a preauth or a rebill can be voided');
    if (m.operation === OP.RETURN)
      return SALES.includes(kind) || PREAUTHS.includes(kind)
        ? PASS
        : refuse('only an approved sale or a captured preauth can be returned');
    return skip('the operation does not move an order on');
  },
};

export const voidBeforeSettlement: OrderRule<'void-before-settlement', 'ORDER_STATE'> = {
  id: 'void-before-settlement',
  title: 'void only before capture or return',
  clause: STATE_CLAUSE,
  basis: 'assumption',
  assumptions: ['A-23', 'A-27'],
  refusals: STATE,
  hint: 'Return a captured order instead of voiding it.',
  check: (m) =>
    m.operation !== OP.VOID
      ? skip('not a void')
      : m.parent.capturedCents > 0n || m.parent.returnedCents > 0n
        ? fail('orderid: a captured or returned order is settled and cannot be voided', { field: 'orderid' })
        : PASS,
};

export const orderApproved: OrderRule<'order-approved', 'ORDER_STATE'> = {
  id: 'order-approved',
  title: 'only an approved order moves on',
  clause: STATE_CLAUSE,
  basis: 'assumption',
  assumptions: ['A-23', 'A-27'],
  refusals: STATE,
  hint: 'Ask status until the order is approved before you capture, pay, void or return it.',
  check(m) {
    if (isApproved(m.parent)) return PASS;
    const status = m.parent.finalStatus;
    const refuse = (why: string) => fail(`orderid: ${why}`, { field: 'orderid', expected: 'approved', actual: status });
    if (m.operation === OP.CAPTURE) return refuse(`${withArticle(status)} preauth cannot be captured`);
    if (m.operation === OP.PAYOUT_V4_PAY) return refuse(`${withArticle(status)} payout check cannot be paid`);
    if (m.operation === OP.VOID) return refuse(`${withArticle(status)} order cannot be voided`);
    if (m.operation === OP.RETURN) return refuse('only an approved sale or a captured preauth can be returned');
    return skip('the operation does not move an order on');
  },
};

export const captureWithinAuthorised: OrderRule<'capture-within-authorised', 'AMOUNT_EXCEEDS'> = {
  id: 'capture-within-authorised',
  title: 'capture at most what was authorised',
  clause: STATE_CLAUSE,
  basis: 'assumption',
  assumptions: ['A-23', 'A-27'],
  refusals: [{ status: 400, code: 'AMOUNT_EXCEEDS' }],
  hint: "Capture at most the preauth's amount, less what was captured already.",
  check(m) {
    if (m.operation !== OP.CAPTURE) return skip('not a capture');
    const room = (m.parent.amountCents ?? 0n) - m.parent.capturedCents;
    return (m.amountCents ?? room) <= room
      ? PASS
      : fail(`amount: capture above the authorised amount (${room} cents left)`, {
          field: 'amount',
          expected: `≤ ${room} cents`,
          actual: `${m.amountCents} cents`,
        });
  },
};

export const payOnce: OrderRule<'pay-once', 'ORDER_STATE'> = {
  id: 'pay-once',
  title: 'a payout check is paid once',
  clause: STATE_CLAUSE,
  basis: 'assumption',
  assumptions: ['A-23', 'A-27'],
  refusals: STATE,
  hint: 'Pay each payout check once.',
  check: (m) =>
    m.operation !== OP.PAYOUT_V4_PAY
      ? skip('not a payout-pay')
      : m.parent.capturedCents > 0n
        ? fail('orderid: this payout check is already paid', { field: 'orderid' })
        : PASS,
};

export const returnWithinPaid: OrderRule<'return-within-paid', 'ORDER_STATE' | 'AMOUNT_EXCEEDS'> = {
  id: 'return-within-paid',
  title: 'return at most what was paid',
  clause: STATE_CLAUSE,
  basis: 'assumption',
  assumptions: ['A-23', 'A-27'],
  refusals: [
    { status: 400, code: 'AMOUNT_EXCEEDS' },
    { status: 400, code: 'ORDER_STATE' },
  ],
  hint: "Return at most the sale's or the captured amount, less what was returned already.",
  check(m) {
    if (m.operation !== OP.RETURN) return skip('not a return');
    const base = returnable(m.parent);
    if (base === 0n) return fail('orderid: nothing was captured to return', { field: 'orderid', code: 'ORDER_STATE' });
    const room = base - m.parent.returnedCents;
    const what = SALES.includes(m.parent.operation) ? 'sale' : 'captured';
    return (m.amountCents ?? room) <= room
      ? PASS
      : fail(`amount: return above the ${what} amount (${room} cents left)`, {
          field: 'amount',
          expected: `≤ ${room} cents`,
          actual: `${m.amountCents} cents`,
        });
  },
};

/** The rules a move runs, in the order the mock checks them. */
export const MOVE_RULES = [
  threeDsStepPending,
  orderNotVoided,
  orderFitsOperation,
  voidBeforeSettlement,
  orderApproved,
  captureWithinAuthorised,
  payOnce,
  returnWithinPaid,
] as const;
