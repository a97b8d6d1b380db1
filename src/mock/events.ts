/**
 * Events on demand (docs/callbacks.md, "Events on demand"; ): the mock delivers, for an order named by
 * its client_orderid, a chargeback, a reversal, its final callback again (`repeat`), a callback with another final
 * status (`late`) or two identical ones at once (`duplicate`). The callbacks are eventDelivery's
 * (gateway/callback-events.ts), sent by the mock's own CallbackSender. A chargeback or reversal goes to notify_url
 * only, as the family's gateways report later transactions there alone, and changes the order.
 */
import { CALLBACK_EVENTS, eventDelivery, type CallbackEvent } from '../gateway/callback-events.ts';
import type { FinalOrder } from '../gateway/final-order.ts';
import type { Merchant } from '../rules/merchant.ts';
import { returnable } from '../rules/orders.ts';
import { endpointByOperation } from '../catalogue/index.ts';
import { callbackFacts, type CallbackDelivery, type CallbackSender } from './callbacks.ts';
import { isFinal, type Order, type OrderStore } from './orders.ts';

/** What the admin route asks for: `{"event", "order", "merchant"?}`. */
export interface EventRequest {
  readonly event: CallbackEvent;
  /** The order's client_orderid. */
  readonly order: string;
  /** The merchant's login; by default whichever merchant made the newest order with that client_orderid. */
  readonly merchant?: string;
}

/** The answer: 200 with what was sent, or a refusal with one line. */
export type EventOutcome =
  | { readonly status: 200; readonly body: EventReport }
  | { readonly status: 400 | 404 | 409; readonly body: { readonly error: string } };

/** What the trigger prints: the order, and each callback's facts and first attempt (never the control). */
export interface EventReport {
  readonly event: CallbackEvent;
  readonly orderid: string;
  readonly client_orderid: string;
  readonly callbacks: ReadonlyArray<{
    readonly status: string;
    readonly type: string;
    readonly amount: string;
    readonly target: string;
    readonly outcome: CallbackDelivery['outcome'];
    readonly answered?: number;
    readonly error?: string;
  }>;
}

/** An initial transaction, not a capture, return or void made on one (they carry their parent's client_orderid). */
const isInitial = (order: Order): boolean => endpointByOperation(order.operation).mockBehaviour !== 'move';

/** The event request in a parsed JSON body, or why it is not one. */
export function eventRequestOf(body: unknown): EventRequest | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the body must be a JSON object';
  const { event, order, merchant } = body as Record<string, unknown>;
  if (typeof event !== 'string' || !(CALLBACK_EVENTS as readonly string[]).includes(event))
    return `event: must be one of ${CALLBACK_EVENTS.join(', ')}`;
  if (typeof order !== 'string' || order === '' || order.length > 128)
    return 'order: must be the order’s client_orderid (1 to 128 characters)';
  if (merchant !== undefined && (typeof merchant !== 'string' || merchant === '' || merchant.length > 128))
    return 'merchant: must be a merchant login (1 to 128 characters)';
  return { event: event as CallbackEvent, order, ...(merchant === undefined ? {} : { merchant }) };
}

/** Why no event can happen to the order yet, or undefined. */
function notFinal(order: Order): string | undefined {
  if (!isFinal(order)) return `the order is not final yet (${order.finalStatus}): no final callback to follow`;
  if (order.callbackUrl === undefined) return 'the order carried neither notify_url nor server_callback_url';
  return undefined;
}

/** Why a chargeback or reversal cannot happen to an approved order, or undefined when it can. */
function cannotTakeBack(event: CallbackEvent, order: Order): string | undefined {
  if (event !== 'chargeback' && event !== 'reversal') return undefined;
  if (!order.notify)
    return (
      `the order carried server_callback_url only: the family reports a ${event} to notify_url alone ` +
      '(A-31, merchants_callbacks.html); make the order with notify_url'
    );
  if (order.chargedBack) return `the order was charged back already: nothing is left for a ${event}`;
  if (order.returnedCents > 0n) return `the order was returned already (in part or whole): a ${event} takes it whole`;
  if (returnable(order) === 0n) return `nothing was captured or paid on the order: a ${event} has nothing to take back`;
  return undefined;
}

/** The order's state after the event: a chargeback or reversal takes the whole amount back. */
function applyEvent(event: CallbackEvent, order: Order): void {
  if (event !== 'chargeback' && event !== 'reversal') return;
  order.returnedCents = returnable(order);
  if (event === 'chargeback') order.chargedBack = true;
}

export interface EventContext {
  readonly orders: OrderStore;
  readonly merchants: readonly Merchant[];
  readonly sender: Pick<CallbackSender, 'event'>;
}

/** Delivers the event for the order, or says why not (unknown order 404, impossible event 409). */
export async function deliverEvent(request: EventRequest, ctx: EventContext): Promise<EventOutcome> {
  const { event, merchant: login } = request;
  const order = ctx.orders.newestByClientOrderId(request.order, login, isInitial);
  const who = login === undefined ? '' : ` of merchant ${login}`;
  if (order === undefined)
    return { status: 404, body: { error: `no order with client_orderid ${request.order}${who}` } };
  const merchant = ctx.merchants.find((m) => m.login === order.merchantLogin);
  if (merchant === undefined) return { status: 404, body: { error: `the order's merchant is no longer known` } };
  const delivery = notFinal(order) ?? eventDelivery(event, callbackFacts(order));
  if (typeof delivery === 'string') return { status: 409, body: { error: delivery } };
  const why = cannotTakeBack(event, order);
  if (why !== undefined) return { status: 409, body: { error: why } };
  applyEvent(event, order);
  const callbackUrl = order.callbackUrl ?? '';
  const finals: FinalOrder[] = delivery.callbacks.map((facts) => ({ facts, callbackUrl, merchant }));
  const firsts = await ctx.sender.event(finals, delivery.together, event);
  return {
    status: 200,
    body: {
      event,
      orderid: order.paynetOrderId,
      client_orderid: order.merchantOrderId,
      callbacks: delivery.callbacks.map(({ status, type, amount }, i) => {
        const first = firsts[i];
        return {
          status,
          type,
          amount,
          target: first?.target ?? '-',
          outcome: first?.outcome ?? 'failed',
          ...(first?.answered === undefined ? {} : { answered: first.answered }),
          ...(first?.error === undefined ? {} : { error: first.error }),
        };
      }),
    },
  };
}
