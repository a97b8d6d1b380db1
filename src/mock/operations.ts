/**
 * What the mock does with an authenticated request whose fields passed the request schema. Each
 * operation has one behaviour (the BEHAVIOUR table): start an order, move an existing one on
 * (capture, void, return, payout-pay, 3-D Secure results), report its status, or create and use card
 * references and recurring payments. An illegal move is refused and changes nothing (docs/mock.md).
 */
import type { Endpoint } from '../catalogue/index.ts';
import { TEST_CARDS } from '../catalogue/test-cards.ts';
import { toCents } from '../signing/cents.ts';
import type { Pair } from '../signing/form-body.ts';
import type { Defect } from './defects.ts';
import { cardOutcome, SERVER_ERROR_ORDER_ID, THREE_DS_FAIL } from './magic.ts';
import type { Merchant } from './merchants.ts';
import { MockError } from './mock-error.ts';
import type { CardRef, Order, OrderStore, StoredCard } from './orders.ts';

export interface OperationContext {
  readonly endpoint: Endpoint;
  readonly params: readonly Pair[];
  readonly merchant: Merchant | undefined;
  readonly orders: OrderStore;
  readonly serialNumber: string;
  /** Where this mock is reached, for redirect URLs. */
  readonly publicBase: string;
  /** A deliberate defect (src/mock/defects.ts); undefined for the real mock. */
  readonly defect?: Defect | undefined;
}

type Behaviour = 'payment' | 'form' | 'move' | 'status' | 'card-ref-of-order' | 'card-ref-of-card' | 'card-info' | 'by-card-ref' | 'recurring-create' | 'recurring-process';

const BEHAVIOUR: Readonly<Record<string, Behaviour>> = {
  SALE: 'payment', PREAUTH: 'payment', ACCOUNT_VERIFICATION: 'payment', PAYOUT: 'payment', PAYOUT_V4: 'payment',
  PAYOUT_V4_CHECK: 'payment', TRANSFER_V4: 'payment', PAN_ELIGIBILITY_SEND: 'payment',
  SALEFORM: 'form', PREAUTHFORM: 'form', PAYMENTFORM: 'form', PAYOUTFORM: 'form', ACCOUNT_VERIFICATION_FORM: 'form',
  CAPTURE: 'move', VOID: 'move', RETURN: 'move', PAYOUT_V4_PAY: 'move',
  TDS_UPLOAD_CRES_RESULT: 'move', TDS_UPLOAD_METHOD_URL_RESULT: 'move', TDS_UPLOAD_PARES_RESULT: 'move',
  STATUS: 'status', CARDREF: 'card-ref-of-order', CARDREF_V4: 'card-ref-of-card', CARDINFO: 'card-info',
  REBILL: 'by-card-ref', TRANSFER_BY_REF_V4: 'by-card-ref', CREATE_RP_V4: 'recurring-create', PROCESS_RP_V4: 'recurring-process',
};

const field = (params: readonly Pair[], name: string): string | undefined => params.find(([k]) => k === name)?.[1];

/** The masked card of a request: the full number is never kept. */
function cardOf(params: readonly Pair[]): StoredCard | undefined {
  const number = field(params, 'credit_card_number');
  if (number === undefined) return undefined;
  return {
    bin: number.slice(0, 6), lastFour: number.slice(-4), printedName: field(params, 'card_printed_name') ?? '',
    expireMonth: field(params, 'expire_month') ?? '12', expireYear: field(params, 'expire_year') ?? '30', outcome: cardOutcome(number),
  };
}

/** What the accept-unknown-reference defect charges when a reference is unknown. */
const INVENTED_CARD = cardOf([['credit_card_number', TEST_CARDS.approved]])!;

const refuse = (why: string): never => { throw new MockError(400, 'ORDER_STATE', `orderid: ${why}`, 'orderid'); };
const exceeds = (why: string): never => { throw new MockError(400, 'AMOUNT_EXCEEDS', `amount: ${why}`, 'amount'); };

/** Moves an existing order on, or refuses with the rule it breaks (nothing is changed then). */
function moveOrder(operation: string, parent: Order, amount: bigint | undefined, params: readonly Pair[], defect: Defect | undefined): void {
  const approved = defect === 'move-unapproved-order' || (parent.finalStatus === 'approved' && !parent.awaiting3ds && !parent.awaitingCheckout);
  if (operation.startsWith('TDS_')) {
    if (!parent.awaiting3ds && defect !== '3ds-upload-anytime') refuse('no 3-D Secure step is pending for this order');
    parent.awaiting3ds = false;
    if (field(params, 'cres') === THREE_DS_FAIL || field(params, 'pares') === THREE_DS_FAIL) parent.finalStatus = 'declined';
    return;
  }
  if (parent.voided && defect !== 'capture-after-void') refuse('the order is voided');
  if (operation === 'CAPTURE') {
    if (parent.operation !== 'PREAUTH' && parent.operation !== 'PREAUTHFORM') refuse('only a preauth can be captured');
    if (!approved) refuse(`a ${parent.finalStatus} preauth cannot be captured`);
    const room = (parent.amountCents ?? 0n) - parent.capturedCents;
    if ((amount ?? room) > room && defect !== 'capture-above-authorised') exceeds(`capture above the authorised amount (${room} cents left)`);
    parent.capturedCents += amount ?? room;
  } else if (operation === 'PAYOUT_V4_PAY') {
    if (parent.operation !== 'PAYOUT_V4_CHECK') refuse('only a payout-check order can be paid');
    if (!approved) refuse(`a ${parent.finalStatus} payout check cannot be paid`);
    if (parent.capturedCents > 0n && defect !== 'pay-twice') refuse('this payout check is already paid');
    parent.capturedCents = parent.amountCents ?? 0n;
  } else if (operation === 'VOID') {
    if (!['SALE', 'PREAUTH', 'SALEFORM', 'PREAUTHFORM', 'REBILL'].includes(parent.operation)) refuse('only a sale, a preauth or a rebill can be voided');
    if (parent.capturedCents > 0n || parent.returnedCents > 0n) refuse('a captured or returned order is settled and cannot be voided');
    if (!approved) refuse(`a ${parent.finalStatus} order cannot be voided`);
    parent.voided = true;
  } else if (operation === 'RETURN') {
    const preauth = parent.operation === 'PREAUTH' || parent.operation === 'PREAUTHFORM';
    const sale = ['SALE', 'SALEFORM', 'REBILL'].includes(parent.operation);
    if (!approved || (!sale && !preauth)) refuse('only an approved sale or a captured preauth can be returned');
    const base = sale ? parent.amountCents ?? 0n : parent.capturedCents;
    if (base === 0n && defect !== 'return-above-captured') refuse('nothing was captured to return');
    const room = base - parent.returnedCents;
    if ((amount ?? room) > room && defect !== 'return-above-captured') exceeds(`return above the ${sale ? 'sale' : 'captured'} amount (${room} cents left)`);
    parent.returnedCents += amount ?? room;
  }
}

/** One request's operation: a class, so its helpers are not closures made afresh per request. */
class Run {
  readonly login: string;
  readonly merchantOrderId: string;
  readonly amount: string | undefined;
  readonly amountCents: bigint | undefined;

  constructor(readonly ctx: OperationContext) {
    this.login = ctx.merchant?.login ?? '';
    this.merchantOrderId = field(ctx.params, 'client_orderid') ?? field(ctx.params, 'client-order-id') ?? '-';
    this.amount = field(ctx.params, 'amount');
    // The request schema has checked the amount's grammar already.
    this.amountCents = this.amount === undefined ? undefined : BigInt(toCents(this.amount));
  }

  parent(): Order {
    const order = this.ctx.orders.find(field(this.ctx.params, 'orderid') ?? '', this.login);
    if (!order) throw new MockError(400, 'ORDER_UNKNOWN', 'orderid: no such order for this merchant', 'orderid');
    return order;
  }

  cardRef(): CardRef {
    const id = field(this.ctx.params, 'cardrefid') ?? '';
    const ref = this.ctx.orders.cardRefs.find(id, this.login);
    if (!ref && this.ctx.defect === 'accept-unknown-reference') return { id, merchantLogin: this.login, card: INVENTED_CARD };
    if (!ref) throw new MockError(400, 'CARD_REF_UNKNOWN', 'cardrefid: no such card reference for this merchant', 'cardrefid');
    return ref;
  }

  base(order: Order): Record<string, string> {
    return { status: 'processing', 'paynet-order-id': order.paynetOrderId, 'merchant-order-id': order.merchantOrderId, 'serial-number': this.ctx.serialNumber };
  }

  /** A new order of this operation; a card decides its outcome, `approved` forces one. */
  start(card: StoredCard | undefined, overrides: { amount?: string | undefined; currency?: string | undefined; awaitingCheckout?: boolean; approved?: boolean } = {}): Order {
    return this.ctx.orders.create({
      merchantLogin: this.login, operation: this.ctx.endpoint.operation, merchantOrderId: this.merchantOrderId,
      amountCents: overrides.amount === undefined ? this.amountCents : BigInt(toCents(overrides.amount)),
      amount: overrides.amount ?? this.amount, currency: overrides.currency ?? field(this.ctx.params, 'currency'),
      finalStatus: overrides.approved ? 'approved' : card?.outcome.finalStatus ?? 'approved',
      awaiting3ds: !overrides.approved && (card?.outcome.awaiting3ds ?? false), awaitingCheckout: overrides.awaitingCheckout ?? false, card,
    });
  }

  addCardRef(card: StoredCard): Record<string, string> {
    const id = this.ctx.orders.newId();
    this.ctx.orders.cardRefs.add(id, { id, merchantLogin: this.login, card });
    return { type: 'async-response', ...this.base(this.start(undefined, { approved: true })), 'card-ref-id': id };
  }
}

export function runOperation(ctx: OperationContext): Record<string, string> {
  const { endpoint, params, orders } = ctx;
  const run = new Run(ctx);
  if (run.merchantOrderId === SERVER_ERROR_ORDER_ID) throw new MockError(500, 'SERVER_ERROR', `client_orderid ${SERVER_ERROR_ORDER_ID} makes the mock answer 500 on purpose`);
  switch (BEHAVIOUR[endpoint.operation]) {
    case 'status': {
      const order = run.parent();
      const status = ctx.defect === 'lose-order' ? 'unknown' : orders.poll(order);
      return {
        type: 'status-response', ...run.base(order), status,
        ...(order.amount === undefined ? {} : { amount: order.amount }), ...(order.currency === undefined ? {} : { currency: order.currency }),
        ...(order.awaiting3ds ? { html: `<form method="post" action="${ctx.publicBase}/3ds/${order.paynetOrderId}"><button>Authenticate</button></form>` } : {}),
      };
    }
    case 'form': {
      const order = run.start(undefined, { awaitingCheckout: true });
      return { type: 'async-form-response', ...run.base(order), 'redirect-url': `${ctx.publicBase}/checkout/${order.paynetOrderId}` };
    }
    case 'move': {
      const parent = run.parent();
      moveOrder(endpoint.operation, parent, run.amountCents, params, ctx.defect);
      return { type: 'async-response', ...run.base(run.start(undefined, { approved: true, currency: parent.currency, amount: run.amount ?? parent.amount })) };
    }
    case 'card-ref-of-order': {
      const parent = run.parent();
      if (parent.card === undefined || parent.finalStatus !== 'approved' || parent.awaiting3ds || parent.awaitingCheckout) refuse('a card reference needs an approved order paid with a card');
      return run.addCardRef(parent.card!);
    }
    case 'card-ref-of-card':
      return run.addCardRef(cardOf(params)!);
    case 'card-info': {
      const { card } = run.cardRef();
      return {
        type: 'async-response', ...run.base(run.start(undefined, { approved: true })),
        bin: card.bin, 'last-four-digits': card.lastFour, 'card-printed-name': card.printedName, 'expire-month': card.expireMonth, 'expire-year': card.expireYear,
      };
    }
    case 'by-card-ref':
      return { type: 'async-response', ...run.base(run.start(run.cardRef().card)) };
    case 'recurring-create': {
      const cardRef = run.cardRef();
      const id = orders.newId();
      orders.recurring.add(id, { id, merchantLogin: run.login, cardRef, amount: run.amount!, currency: field(params, 'currency')! });
      return { type: 'async-response', ...run.base(run.start(undefined, { approved: true })), 'recurring-payment-id': id };
    }
    case 'recurring-process': {
      const unknown = ctx.defect === 'accept-unknown-reference' ? { amount: '1.00', currency: 'USD', cardRef: { card: INVENTED_CARD } } : undefined;
      const plan = orders.recurring.find(field(params, 'recurring-payment-id') ?? '', run.login) ?? unknown;
      if (!plan) throw new MockError(400, 'RECURRING_PAYMENT_UNKNOWN', 'recurring-payment-id: no such recurring payment for this merchant', 'recurring-payment-id');
      return { type: 'async-response', ...run.base(run.start(plan.cardRef.card, { amount: plan.amount, currency: plan.currency })) };
    }
    default:
      return { type: 'async-response', ...run.base(run.start(cardOf(params))) };
  }
}
