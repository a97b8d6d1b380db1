/**
 * What the mock does with an authenticated request whose fields passed the request schema. Each
 * operation has one behaviour (its catalogue row's mockBehaviour): start an order, move an existing one on
 * (capture, void, return, payout-pay, 3-D Secure results), report its status, or create and use card
 * references and recurring payments. An illegal move is refused and changes nothing (docs/mock.md).
 */
import { callbackUrlOf, endpointByOperation, merchantUrlText, OP, type Endpoint } from '../catalogue/index.ts';
import { toCents } from '../signing/cents.ts';
import { cardRefOfApprovedCard, orderKnown, referenceKnown } from '../rules/lookups.ts';
import type { Merchant } from '../rules/merchant.ts';
import { isThreeDs, MOVE_RULES, returnable, type OrderMove } from '../rules/orders.ts';
import type { RequestUnderTest } from '../rules/request.ts';
import type { Rule } from '../rules/rule.ts';
import type { RefusalCode, RuleId } from '../rules/book.ts';
import { customerPagePath } from '../gateway/customer-pages.ts';
import { isServerErrorId, SERVER_ERROR_ORDER_ID, THREE_DS_FAIL } from './magic.ts';
import { MockError, refusal } from './mock-error.ts';
import { isFinal, sharedCents, type CardRef, type Order, type OrderStore, type StoredCard } from './orders.ts';
import type { Gate } from './seams.ts';
import { cardOfFields, INVENTED_CARD } from './stored-card.ts';
import { transactionTypeOf } from './transaction-type.ts';
import { escapeHtml } from '../report/html.ts';

/** An order a request started (a sale, a preauth…), not a move on one (a capture, a return). */
const startsOrder = (order: Order): boolean => endpointByOperation(order.operation).mockBehaviour !== 'move';

/** The status answer's form that opens the 3-D Secure page in the customer's browser. */
const threeDsForm = (action: string): string =>
  `<form method="post" action="${escapeHtml(action)}"><button>Authenticate</button></form>`;

/** A request every refusing request rule let through: its endpoint and its merchant are known. */
export interface AcceptedRequest {
  readonly request: RequestUnderTest;
  readonly endpoint: Endpoint;
  readonly merchant: Merchant;
}

export interface OperationContext {
  readonly orders: OrderStore;
  readonly serialNumber: string;
  /** Where this mock is reached, with the request's own path prefix: the customer's pages sit under it. */
  readonly publicBase: string;
  /** Runs the order rules (a deliberately broken mock's gate switches some off, src/mock/defects.ts). */
  readonly gate: Gate;
  /** Told when an order reaches its final status (its callback, A-31). */
  readonly finalized: (order: Order) => void;
}

/** Refuses with the rule's refusal when its check fails. */
function enforce<In>(rule: Rule<In, RuleId, RefusalCode>, input: In, gate: Gate): void {
  const outcome = gate.check(rule, input);
  if (outcome.outcome === 'fail') throw refusal(rule, outcome.evidence);
}

/** A fact the request rules have made sure of: its absence is the mock's own fault, a 500. */
function known<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new MockError(500, 'SERVER_ERROR', `${what}: missing though the request passed`);
  return value;
}

/** The masked card of a request: the full number is never kept. */
const cardOf = (request: RequestUnderTest): StoredCard | undefined => cardOfFields((name) => request.field(name));

/** Moves an existing order on, once every order rule allows it (nothing is changed otherwise). */
function moveOrder(
  move: OrderMove & { readonly parent: Order },
  request: RequestUnderTest,
  gate: Gate,
  finalized: (order: Order) => void,
): void {
  for (const rule of MOVE_RULES) enforce(rule, move, gate);
  const { operation, parent, amountCents } = move;
  if (operation === OP.CAPTURE)
    parent.capturedCents += amountCents ?? (parent.amountCents ?? 0n) - parent.capturedCents;
  else if (operation === OP.PAYOUT_V4_PAY) parent.capturedCents = parent.amountCents ?? 0n;
  else if (operation === OP.VOID) parent.voided = true;
  else if (operation === OP.RETURN) {
    parent.returnedCents += amountCents ?? returnable(parent) - parent.returnedCents;
  } else if (isThreeDs(operation)) {
    // The 3-D Secure step is done; a failed authentication declines the order.
    parent.awaiting3ds = false;
    if (request.field('cres') === THREE_DS_FAIL || request.field('pares') === THREE_DS_FAIL)
      parent.finalStatus = 'declined';
    if (isFinal(parent)) finalized(parent);
  } else {
    // A catalogue row whose mockBehaviour is 'move' needs its move written here (docs/architecture.md).
    throw new Error(`the mock has no move for ${operation}`);
  }
}

/** One request's operation: a class, so its helpers are not closures made afresh per request. */
class Run {
  readonly login: string;
  readonly merchantOrderId: string;
  readonly amount: string | undefined;
  readonly amountCents: bigint | undefined;
  readonly callbackUrl: string | undefined;
  /** The callback URL is a notify_url: the order's later transactions are reported there too. */
  readonly notify: boolean;
  readonly redirectUrl: string | undefined;

  readonly request: RequestUnderTest;

  constructor(
    readonly accepted: AcceptedRequest,
    readonly ctx: OperationContext,
  ) {
    const { request, merchant } = accepted;
    this.request = request;
    this.login = merchant.login;
    this.merchantOrderId = request.clientOrderId ?? '-';
    // A blank amount is none: a return without one reverses the whole order.
    this.amount = request.amount === undefined ? undefined : request.field('amount');
    // The request value derived the cents once. An amount they cannot be read from passed only a mock broken on
    // the amount rules: the mock's own fault, a 500, as when it converted the amount itself.
    const amount = request.amount;
    if (amount?.problem !== undefined) throw new Error(`internal: ${amount.problem}`);
    this.amountCents = amount === undefined ? undefined : sharedCents(amount.cents);
    const callback = callbackUrlOf((name) => request.field(name));
    // The order keeps them once (orders.ts, sharedText).
    this.callbackUrl = callback?.url;
    this.notify = callback?.notify ?? false;
    this.redirectUrl = merchantUrlText(request.field('redirect_url'));
  }

  parent(): Order {
    const order = this.ctx.orders.find(this.request.field('orderid') ?? '', this.login);
    enforce(orderKnown, { order }, this.ctx.gate);
    return known(order, 'the order');
  }

  /**
   * The order a status asks for: by orderid, or, with none sent, the merchant's newest order started with this
   * client_orderid (the status page: "can be requested with only client_orderid", A-61). A scan of the orders,
   * made only by a status that lost its orderid: no index costs every other request anything.
   */
  statusOrder(): Order {
    if ((this.request.field('orderid') ?? '').trim() !== '') return this.parent();
    const order = this.ctx.orders.newestByClientOrderId(this.merchantOrderId, this.login, startsOrder);
    enforce(orderKnown, { order }, this.ctx.gate);
    return known(order, 'the order');
  }

  cardRef(): CardRef {
    const id = this.request.field('cardrefid') ?? '';
    const ref = this.ctx.orders.findCardRef(id, this.login);
    enforce(referenceKnown, { field: 'cardrefid', found: ref !== undefined }, this.ctx.gate);
    return ref ?? { id, merchantLogin: this.login, card: INVENTED_CARD };
  }

  /** The answer's fields every operation writes, in the order they are written; built at once, not spread. */
  answer(type: string, order: Order): Record<string, string> {
    return {
      type,
      status: 'processing',
      'paynet-order-id': order.paynetOrderId,
      'merchant-order-id': order.merchantOrderId,
      'serial-number': this.ctx.serialNumber,
    };
  }

  /** A new order of this operation; a card decides its outcome, `approved` forces one. */
  start(
    card: StoredCard | undefined,
    overrides: {
      amount?: string | undefined;
      currency?: string | undefined;
      awaitingCheckout?: boolean;
      approved?: boolean;
      parent?: Order;
    } = {},
  ): Order {
    // A later transaction (a reversal …) without a URL of its own is reported to its parent's notify_url.
    const inherited =
      this.callbackUrl === undefined && overrides.parent?.notify === true ? overrides.parent : undefined;
    const order = this.ctx.orders.create({
      merchantLogin: this.login,
      operation: this.accepted.endpoint.operation,
      merchantOrderId: this.merchantOrderId,
      amountCents: overrides.amount === undefined ? this.amountCents : sharedCents(toCents(overrides.amount)),
      amount: overrides.amount ?? this.amount,
      currency: overrides.currency ?? this.request.field('currency'),
      finalStatus: overrides.approved ? 'approved' : (card?.outcome.finalStatus ?? 'approved'),
      awaiting3ds: !overrides.approved && (card?.outcome.awaiting3ds ?? false),
      awaitingCheckout: overrides.awaitingCheckout ?? false,
      card,
      callbackUrl: inherited?.callbackUrl ?? this.callbackUrl,
      notify: inherited !== undefined || this.notify,
      redirectUrl: this.redirectUrl,
    });
    if (isFinal(order)) this.ctx.finalized(order);
    return order;
  }

  addCardRef(card: StoredCard): Record<string, string> {
    const { id } = this.ctx.orders.addCardRef(this.login, card);
    return { ...this.answer('async-response', this.start(undefined, { approved: true })), 'card-ref-id': id };
  }
}

export function runOperation(accepted: AcceptedRequest, ctx: OperationContext): Record<string, string> {
  const { endpoint, request } = accepted;
  const { orders } = ctx;
  const run = new Run(accepted, ctx);
  if (isServerErrorId(run.merchantOrderId))
    throw new MockError(
      500,
      'SERVER_ERROR',
      `client_orderid ${SERVER_ERROR_ORDER_ID} makes the mock answer 500 on purpose`,
    );
  switch (endpoint.mockBehaviour) {
    case 'status': {
      const order = run.statusOrder();
      const status = orders.poll(order);
      const { card } = order;
      return {
        ...run.answer('status-response', order),
        status,
        ...(order.amount === undefined ? {} : { amount: order.amount }),
        ...(order.currency === undefined ? {} : { currency: order.currency }),
        // What shop plugins book the order by, and the masked card however it was paid.
        'transaction-type': transactionTypeOf(order),
        ...(card === undefined ? {} : { bin: card.bin, 'last-four-digits': card.lastFour }),
        ...(order.awaiting3ds
          ? {
              html: threeDsForm(ctx.publicBase + customerPagePath('3ds', '', order.paynetOrderId)),
            }
          : {}),
      };
    }
    case 'form': {
      const order = run.start(undefined, { awaitingCheckout: true });
      return {
        ...run.answer('async-form-response', order),
        'redirect-url': `${ctx.publicBase}${customerPagePath('checkout', '', order.paynetOrderId)}`,
      };
    }
    case 'move': {
      const parent = run.parent();
      moveOrder(
        { operation: endpoint.operation, parent, amountCents: run.amountCents },
        request,
        ctx.gate,
        ctx.finalized,
      );
      const order = run.start(undefined, {
        approved: true,
        currency: parent.currency,
        amount: run.amount ?? parent.amount,
        parent,
      });
      return run.answer('async-response', order);
    }
    case 'card-ref-of-order': {
      const parent = run.parent();
      enforce(cardRefOfApprovedCard, { parent, hasCard: parent.card !== undefined }, ctx.gate);
      return run.addCardRef(known(parent.card, "the order's card"));
    }
    case 'card-ref-of-card':
      return run.addCardRef(known(cardOf(request), 'credit_card_number'));
    case 'card-info': {
      // The page's own answer (get-card-info-response): the masked card, no order of its own.
      const { card } = run.cardRef();
      return {
        type: 'get-card-info-response',
        'serial-number': ctx.serialNumber,
        'card-printed-name': card.printedName,
        bin: card.bin,
        'last-four-digits': card.lastFour,
        'expire-year': card.expireYear,
        'expire-month': card.expireMonth,
      };
    }
    case 'by-card-ref':
      return run.answer('async-response', run.start(run.cardRef().card));
    case 'recurring-create': {
      const cardRef = run.cardRef();
      const { id } = orders.addRecurring({
        merchantLogin: run.login,
        cardRef,
        amount: known(run.amount, 'amount'),
        currency: known(request.field('currency'), 'currency'),
      });
      return {
        ...run.answer('async-response', run.start(undefined, { approved: true })),
        'recurring-payment-id': id,
      };
    }
    case 'recurring-process': {
      const found = orders.findRecurring(request.field('recurring-payment-id') ?? '', run.login);
      enforce(referenceKnown, { field: 'recurring-payment-id', found: found !== undefined }, ctx.gate);
      const plan = found ?? { amount: '1.00', currency: 'USD', cardRef: { card: INVENTED_CARD } };
      return run.answer(
        'async-response',
        run.start(plan.cardRef.card, { amount: plan.amount, currency: plan.currency }),
      );
    }
    case 'payment':
      return run.answer('async-response', run.start(cardOf(request)));
  }
}
