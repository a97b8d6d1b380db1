/**
 * Behind --upstream, which orders of the integration are final: an answer to a request that carried
 * server_callback_url names the order, and a later status answer with a final status makes it
 * final. (With the embedded mock, the mock says so itself, even when the integration never polls.)
 */
import { CALLBACK_STATUSES, callbackUrlOf, transactionType } from '../catalogue/index.ts';
import type { FinalOrder } from '../gateway/final-order.ts';
import type { Merchant } from '../rules/merchant.ts';
import type { RequestUnderTest } from '../rules/request.ts';

interface Started {
  readonly callbackUrl: string;
  readonly clientOrderId: string;
  readonly amount: string;
  readonly type: string;
  readonly merchant: Merchant;
}

const FINAL = new Set<string>(CALLBACK_STATUSES);
const MAX_ORDERS = 10_000;

export class FinalOrderWatch {
  private readonly started = new Map<string, Started>();

  constructor(private readonly onFinal: (order: FinalOrder) => void) {}

  /** One relayed exchange: the request as judged, and what the gateway answered. */
  saw(request: RequestUnderTest, answer: { status: number; orderStatus?: string; paynetOrderId?: string }): void {
    const id = answer.paynetOrderId;
    if (id === undefined || answer.status !== 200) return;
    const known = this.started.get(id);
    const status = answer.orderStatus?.toLowerCase();
    if (known && status !== undefined && FINAL.has(status)) {
      this.started.delete(id);
      return this.onFinal({
        facts: { orderid: id, clientOrderId: known.clientOrderId, amount: known.amount, status, type: known.type },
        callbackUrl: known.callbackUrl,
        merchant: known.merchant,
      });
    }
    const { merchant, match } = request;
    if (known || merchant === undefined || match === undefined) return;
    const callbackUrl = callbackUrlOf((name) => request.field(name))?.url;
    if (callbackUrl === undefined) return;
    const oldest = this.started.keys().next();
    if (this.started.size >= MAX_ORDERS && oldest.done !== true) this.started.delete(oldest.value);
    this.started.set(id, {
      callbackUrl,
      merchant,
      clientOrderId: request.clientOrderId ?? '',
      amount: request.field('amount') ?? '0.00',
      type: transactionType(match.endpoint.path),
    });
  }
}
