/**
 * What a merchant's integration has sent so far, for the rules that span requests (A-30, A-58..A-60):
 * which client order ids started an order, whether status was asked for each since, how each request
 * about an order ended, and which payments have a start whose outcome is still unknown.
 */
/**
 * How a request of the integration ended, as the listener saw it: answered with an HTTP status, or
 * no whole answer reached the integration (a fault of the network or the gateway: the request may
 * still have moved money).
 */
export type AnswerOutcome =
  | { readonly kind: 'answered'; readonly status: number }
  | { readonly kind: 'lost'; readonly fault: 'timeout' | 'reset' | 'lost-answer' | 'client-gave-up' };

/** No answer, or a 5xx: whether the gateway made the order or moved the money is unknown. */
export const outcomeUnknown = (outcome: AnswerOutcome): boolean => outcome.kind === 'lost' || outcome.status >= 500;

/** Answered 4xx: a refusal, the order was not made. */
export const refused = (outcome: AnswerOutcome): boolean =>
  outcome.kind === 'answered' && outcome.status >= 400 && outcome.status < 500;

/** The outcome in a few words for a finding: "its answer was lost (timeout)", "it was answered 503". */
export const outcomeWords = (outcome: AnswerOutcome): string =>
  outcome.kind === 'lost' ? `its answer was lost (${outcome.fault})` : `it was answered ${outcome.status}`;

/** What the history keeps of one client order id of one merchant. */
export interface EarlierOrder {
  /** Status was asked for it since it was last started. */
  readonly statusSince: boolean;
  /** How the request that last started it ended, once the listener told. */
  readonly lastAnswer?: AnswerOutcome;
  /** The gateway is known to hold it: a start or a status about it was answered under 400. */
  readonly made: boolean;
  /** Some start of it was told an outcome (until then, nothing says the order was not made). */
  readonly told: boolean;
}

/** The last request about an order whose outcome is unknown, until a status request is seen for the order. */
export interface UnknownOutcome {
  readonly operation: string;
  readonly outcome: AnswerOutcome;
}

/** A start of a payment whose outcome is unknown: its client order id and how it ended. */
export interface UnresolvedStart {
  readonly clientOrderId: string;
  readonly outcome: AnswerOutcome;
}

interface Order {
  statusSince: boolean;
  lastAnswer?: AnswerOutcome;
  made: boolean;
  told: boolean;
  /** The payment's fingerprint (payment.ts), when the start carried a card. */
  payment?: string;
}

export class OrderHistory {
  /** merchant \0 client order id → what was started under it. */
  private readonly started = new Map<string, Order>();
  /** merchant \0 client order id → the last request about it whose outcome is unknown, until status is asked. */
  private readonly unknown = new Map<string, UnknownOutcome>();
  /** What a status request in flight cleared from `unknown`: put back if the status's own answer says nothing. */
  private readonly asked = new Map<string, UnknownOutcome>();
  /** payment fingerprint → a start of it whose outcome is unknown and whose status was not asked. */
  private readonly unknownPayments = new Map<string, UnresolvedStart>();

  private static key(merchant: string, clientOrderId: string): string {
    return `${merchant}\u0000${clientOrderId}`;
  }

  /** The earlier start of this order id, if any. */
  earlier(merchant: string, clientOrderId: string): EarlierOrder | undefined {
    return this.started.get(OrderHistory.key(merchant, clientOrderId));
  }

  /** The last request about the order whose outcome is unknown, if no status was asked since. */
  unknownOutcome(merchant: string, clientOrderId: string): UnknownOutcome | undefined {
    return this.unknown.get(OrderHistory.key(merchant, clientOrderId));
  }

  /** An earlier start of this payment whose outcome is unknown and whose status was not asked. */
  unresolvedStart(payment: string): UnresolvedStart | undefined {
    return this.unknownPayments.get(payment);
  }

  /** Records a request that starts an order (after the rules have judged it), with its payment's fingerprint. */
  start(merchant: string, clientOrderId: string, payment?: string): void {
    const key = OrderHistory.key(merchant, clientOrderId);
    const before = this.started.get(key);
    this.started.set(key, {
      statusSince: false,
      made: before?.made ?? false,
      told: before?.told ?? false,
      ...(payment === undefined ? {} : { payment }),
    });
  }

  /** Records a status request for the order: what was unknown about it is asked (until its answer is lost). */
  statusAsked(merchant: string, clientOrderId: string): void {
    const key = OrderHistory.key(merchant, clientOrderId);
    const unknown = this.unknown.get(key);
    if (unknown) this.asked.set(key, unknown);
    this.unknown.delete(key);
    const order = this.started.get(key);
    if (!order) return;
    order.statusSince = true;
    if (order.payment !== undefined && this.unknownPayments.get(order.payment)?.clientOrderId === clientOrderId)
      this.unknownPayments.delete(order.payment);
  }

  /** Records how a request about the order ended: one that starts it, another (capture, return …), or a status. */
  answered(
    merchant: string,
    clientOrderId: string,
    operation: string,
    kind: RequestKind,
    outcome: AnswerOutcome,
  ): void {
    const key = OrderHistory.key(merchant, clientOrderId);
    const order = this.started.get(key);
    if (kind === 'status') {
      if (outcomeUnknown(outcome)) this.statusSaidNothing(key, clientOrderId, order);
      // A status answered under 400 says the gateway holds the order; a refusal (an unknown order) says nothing more.
      else if (order && outcome.kind === 'answered' && outcome.status < 400) order.made = true;
      if (!outcomeUnknown(outcome)) this.asked.delete(key);
      return;
    }
    if (outcomeUnknown(outcome)) this.unknown.set(key, { operation, outcome });
    else if (this.unknown.get(key)?.operation === operation) this.unknown.delete(key);
    if (kind !== 'start' || !order) return;
    order.lastAnswer = outcome;
    order.told = true;
    if (outcome.kind === 'answered' && outcome.status < 400) order.made = true;
    if (order.payment === undefined) return;
    if (outcomeUnknown(outcome) && !order.statusSince)
      this.unknownPayments.set(order.payment, { clientOrderId, outcome });
    else if (this.unknownPayments.get(order.payment)?.clientOrderId === clientOrderId)
      this.unknownPayments.delete(order.payment);
  }

  /** A status request whose own answer was lost or 5xx asked nothing: what it cleared is unknown again. */
  private statusSaidNothing(key: string, clientOrderId: string, order: Order | undefined): void {
    const cleared = this.asked.get(key);
    if (cleared) this.unknown.set(key, cleared);
    this.asked.delete(key);
    if (!order) return;
    order.statusSince = false;
    const last = order.lastAnswer;
    if (order.payment !== undefined && last !== undefined && outcomeUnknown(last))
      this.unknownPayments.set(order.payment, { clientOrderId, outcome: last });
  }
}

/** What a request does to its order: starts it, asks its status, or acts on it (capture, return, void …). */
export type RequestKind = 'start' | 'status' | 'acts';
