/**
 * What a merchant's integration has sent so far, for the rules that span requests: which
 * client order ids started an order, and whether status was asked for each since it was last sent.
 */
/**
 * How a request of the integration ended, as the listener saw it: answered with an HTTP status, or
 * no whole answer reached the integration (a fault of the network or the gateway: the request may
 * still have moved money).
 */
export type AnswerOutcome =
  | { readonly kind: 'answered'; readonly status: number }
  | { readonly kind: 'lost'; readonly fault: 'timeout' | 'reset' | 'lost-answer' | 'client-gave-up' };

export class OrderHistory {
  /** merchant \0 client order id → whether status was asked for it since it was last sent. */
  private readonly started = new Map<string, { statusSince: boolean; lastAnswer?: AnswerOutcome }>();

  private static key(merchant: string, clientOrderId: string): string {
    return `${merchant}\u0000${clientOrderId}`;
  }

  /** The earlier start of this order id, if any. */
  earlier(
    merchant: string,
    clientOrderId: string,
  ): { readonly statusSince: boolean; readonly lastAnswer?: AnswerOutcome } | undefined {
    return this.started.get(OrderHistory.key(merchant, clientOrderId));
  }

  /** Records a request that starts an order (after the rules have judged it). */
  start(merchant: string, clientOrderId: string): void {
    this.started.set(OrderHistory.key(merchant, clientOrderId), { statusSince: false });
  }

  /** Records a status request for the order. */
  statusAsked(merchant: string, clientOrderId: string): void {
    const order = this.started.get(OrderHistory.key(merchant, clientOrderId));
    if (order) order.statusSince = true;
  }

  /** Records how the request that last sent this order id ended (the rules of A-20 read it). */
  answered(merchant: string, clientOrderId: string, outcome: AnswerOutcome): void {
    const order = this.started.get(OrderHistory.key(merchant, clientOrderId));
    if (order) order.lastAnswer = outcome;
  }
}
