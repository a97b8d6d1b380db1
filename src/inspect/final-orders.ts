/**
 * Which orders of the integration are final, for the checks that play the gateway against the merchant: an answer
 * to a request that carried the URL a check needs (server_callback_url, or redirect_url for the customer's return)
 * names the order, and a later status answer with a final status, or the customer's paid checkout on the
 * embedded mock's hosted page, makes it final. (With the embedded mock, callbacks are told by the mock itself, even
 * when the integration never polls.)
 */
import { CALLBACK_STATUSES, callbackUrlOf, transactionType } from '../catalogue/index.ts';
import type { FinalOrder } from '../gateway/final-order.ts';
import type { Merchant } from '../rules/merchant.ts';
import type { RequestUnderTest } from '../rules/request.ts';

interface Started {
  readonly url: string;
  readonly clientOrderId: string;
  readonly amount: string;
  readonly type: string;
  readonly merchant: Merchant;
}

const FINAL = new Set<string>(CALLBACK_STATUSES);
const MAX_ORDERS = 10_000;

/** The URL of the merchant's callback handler a request names, if any. */
export const callbackUrlOfRequest = (request: RequestUnderTest): string | undefined =>
  callbackUrlOf((name) => request.field(name))?.url;

export class FinalOrderWatch {
  private readonly started = new Map<string, Started>();

  /** `urlOf`: the URL the checks go to, from the request that started the order (the callback's by default). */
  constructor(
    private readonly onFinal: (order: FinalOrder) => void,
    private readonly urlOf: (request: RequestUnderTest) => string | undefined = callbackUrlOfRequest,
  ) {}

  /** One relayed exchange: the request as judged, and what the gateway answered. */
  saw(request: RequestUnderTest, answer: { status: number; orderStatus?: string; paynetOrderId?: string }): void {
    const id = answer.paynetOrderId;
    if (id === undefined || answer.status !== 200) return;
    const known = this.started.get(id);
    if (known && answer.orderStatus !== undefined) return this.paid(id, answer.orderStatus);
    const { merchant, match } = request;
    if (known || merchant === undefined || match === undefined) return;
    const url = this.urlOf(request);
    if (url === undefined) return;
    const oldest = this.started.keys().next();
    if (this.started.size >= MAX_ORDERS && oldest.done !== true) this.started.delete(oldest.value);
    this.started.set(id, {
      url,
      merchant,
      clientOrderId: request.clientOrderId ?? '',
      amount: request.field('amount') ?? '0.00',
      type: transactionType(match.endpoint.path),
    });
  }

  /** The order's status is known (a status answer, a paid checkout): a final one ends the watch and is told. */
  paid(id: string, orderStatus: string): void {
    const known = this.started.get(id);
    const status = orderStatus.toLowerCase();
    if (known === undefined || !FINAL.has(status)) return;
    this.started.delete(id);
    this.onFinal({
      facts: { orderid: id, clientOrderId: known.clientOrderId, amount: known.amount, status, type: known.type },
      callbackUrl: known.url,
      merchant: known.merchant,
    });
  }
}
