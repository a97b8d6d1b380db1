/**
 * Behind --upstream, which orders of the integration are final: an answer to a request that carried
 * server_callback_url names the order, and a later status answer with a final status makes it
 * final. (With the embedded mock, the mock says so itself, even when the integration never polls.)
 */
import {
  CALLBACK_STATUSES,
  callbackUrlOf,
  endpointByOperation,
  isOperation,
  transactionType,
} from '../catalogue/index.ts';
import type { FinalOrder } from '../mock/callbacks.ts';
import type { Merchant } from '../rules/merchant.ts';
import { decodeForm, type Pair } from '../signing/form-body.ts';
import type { RequestVerdict } from './inspector.ts';

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

  constructor(
    private readonly merchants: readonly Merchant[],
    private readonly onFinal: (order: FinalOrder) => void,
  ) {}

  /** One relayed exchange: the request's verdict and body, and what the gateway answered. */
  saw(
    verdict: RequestVerdict,
    body: Buffer,
    answer: { status: number; orderStatus?: string; paynetOrderId?: string },
  ): void {
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
    const merchant = this.merchants.find((m) => m.login === verdict.merchant);
    if (known || merchant === undefined || verdict.operation === undefined || !isOperation(verdict.operation)) return;
    let params: readonly Pair[];
    try {
      params = decodeForm(body.toString('utf8'));
    } catch {
      return;
    }
    const field = (name: string): string | undefined => params.find(([n]) => n === name)?.[1];
    const callbackUrl = callbackUrlOf(field)?.url;
    if (callbackUrl === undefined) return;
    if (this.started.size >= MAX_ORDERS) this.started.delete(this.started.keys().next().value!);
    this.started.set(id, {
      callbackUrl,
      merchant,
      clientOrderId: field('client_orderid') ?? field('client-order-id') ?? verdict.clientOrderId ?? '',
      amount: field('amount') ?? '0.00',
      type: transactionType(endpointByOperation(verdict.operation).path),
    });
  }
}
