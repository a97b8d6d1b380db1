/**
 * Orders the mock keeps in memory, per mock instance, bounded: past `maxOrders` the oldest is
 * evicted. Outcomes follow a fixed schedule so tests never sleep (docs/assumptions.md A-23): an
 * order answers `processing` to its first status request and its final state from the second on;
 * an order waiting for 3-D Secure or for its hosted checkout stays `processing` until that step is done.
 */
import type { Operation } from '../catalogue/index.ts';
import type { CardOutcome } from './magic.ts';
import type { OrderStatus } from './order-status.ts';
import { ownString } from '../own-string.ts';

export type { OrderStatus };

export interface Order {
  readonly paynetOrderId: string;
  readonly merchantLogin: string;
  readonly operation: Operation;
  readonly merchantOrderId: string;
  /** In integer cents, where the operation carries an amount. */
  readonly amountCents: bigint | undefined;
  readonly amount: string | undefined;
  readonly currency: string | undefined;
  finalStatus: OrderStatus;
  statusRequests: number;
  /** The order waits for a 3-D Secure result upload. */
  awaiting3ds: boolean;
  /** A hosted-form order waits for its checkout page to be submitted. */
  awaitingCheckout: boolean;
  voided: boolean;
  /** Captured (preauth) or paid out (payout-check) so far. */
  capturedCents: bigint;
  returnedCents: bigint;
  /** The card, masked: the mock never keeps a full card number. */
  card: StoredCard | undefined;
  /** The request's notify_url or server_callback_url: the callback goes there when the order is final. */
  readonly callbackUrl: string | undefined;
  /** The callback URL came as notify_url: later transactions on this order are reported there too. */
  readonly notify: boolean;
  /** The request's redirect_url: the hosted page sends the customer back there. */
  readonly redirectUrl: string | undefined;
  /** The final status has been announced (callback or hook), so it is never announced twice. */
  announced: boolean;
}

/** The order has its outcome: no step is awaited and the outcome is a final status. */
export const isFinal = (order: Order): boolean =>
  !order.awaiting3ds && !order.awaitingCheckout && order.finalStatus !== 'processing';

/** What the mock remembers of a card: enough for card info and to replay the card's magic outcome. */
export interface StoredCard {
  readonly bin: string;
  readonly lastFour: string;
  readonly printedName: string;
  readonly expireMonth: string;
  readonly expireYear: string;
  readonly outcome: CardOutcome;
}

export interface CardRef {
  readonly id: string;
  readonly merchantLogin: string;
  readonly card: StoredCard;
}

export interface RecurringPayment {
  readonly id: string;
  readonly merchantLogin: string;
  readonly cardRef: CardRef;
  readonly amount: string;
  readonly currency: string;
}

/**
 * Values many orders repeat (currency, amount, the merchant's callback and return URLs), kept once: with a copy
 * per order, every young-generation GC had to move each new order's copies too (npm run bench keeps 100,000).
 */
class Shared<T> {
  private readonly kept = new Map<string, T>();
  constructor(private readonly make: (text: string) => T) {}
  of(text: string): T {
    let value = this.kept.get(text);
    if (value === undefined) {
      if (this.kept.size >= 4096) this.kept.clear(); // bounded: unique values (a URL per order) are not kept here
      const own = ownString(text); // as key too: a slice would keep its request body alive
      this.kept.set(own, (value = this.make(own)));
    }
    return value;
  }
}
const SHARED_TEXT = new Shared((text) => text);
const SHARED_CENTS = new Shared(BigInt);

/** A repeated text value kept once, never a slice of a request body. */
export const sharedText = (text: string | undefined): string | undefined =>
  text === undefined ? undefined : SHARED_TEXT.of(text);

/** An amount in cents (decimal digits) as the one bigint of that value. */
export const sharedCents = (cents: string): bigint => SHARED_CENTS.of(cents);

export type NewOrder = Pick<
  Order,
  | 'merchantLogin'
  | 'operation'
  | 'merchantOrderId'
  | 'amountCents'
  | 'amount'
  | 'currency'
  | 'finalStatus'
  | 'awaiting3ds'
  | 'awaitingCheckout'
  | 'card'
  | 'callbackUrl'
  | 'notify'
  | 'redirectUrl'
>;

/**
 * A map that forgets its oldest entry past `max`, and shows a merchant only its own entries. Ids are
 * never reused (OrderStore.newId). The oldest id is kept in a ring rather than read as the Map's first
 * key: a Map keeps deleted slots until it rehashes, and walking past them made every new order at the
 * limit cost about 100 us (npm run bench sends more than 100,000 orders).
 */
class OwnedMap<V extends { readonly merchantLogin: string }> {
  private readonly entries = new Map<string, V>();
  /** Ids in the order they came; once full, `oldest` is the next to forget and its slot the newest's. */
  private readonly ids: string[] = [];
  private oldest = 0;
  private readonly max: number;
  constructor(max: number) {
    this.max = Math.max(1, max); // a limit below 1 keeps the newest entry, as it always has
  }
  add(id: string, value: V): V {
    if (this.ids.length < this.max) this.ids.push(id);
    else {
      const forgotten = this.ids[this.oldest];
      if (forgotten !== undefined) this.entries.delete(forgotten);
      this.ids[this.oldest] = id;
      this.oldest = (this.oldest + 1) % this.max;
    }
    this.entries.set(id, value);
    return value;
  }
  /** Another merchant's entry is as unknown as a missing one. */
  find(id: string, merchantLogin: string): V | undefined {
    const value = this.entries.get(id);
    return value?.merchantLogin === merchantLogin ? value : undefined;
  }
  get(id: string): V | undefined {
    return this.entries.get(id);
  }
  get size(): number {
    return this.entries.size;
  }
}

export class OrderStore {
  private readonly orders: OwnedMap<Order>;
  readonly cardRefs: OwnedMap<CardRef>;
  readonly recurring: OwnedMap<RecurringPayment>;
  private nextId = 100000000;

  constructor(maxOrders: number) {
    this.orders = new OwnedMap(maxOrders);
    this.cardRefs = new OwnedMap(maxOrders);
    this.recurring = new OwnedMap(maxOrders);
  }

  /** A fresh id, unique across orders, card references and recurring payments. */
  newId(): string {
    return String(this.nextId++);
  }

  create(fields: NewOrder): Order {
    // Field by field: a spread into a literal with more properties is V8's slow path on Node 20.
    const order: Order = {
      paynetOrderId: this.newId(),
      merchantLogin: fields.merchantLogin,
      operation: fields.operation,
      merchantOrderId: ownString(fields.merchantOrderId),
      amountCents: fields.amountCents,
      amount: sharedText(fields.amount),
      currency: sharedText(fields.currency),
      finalStatus: fields.finalStatus,
      awaiting3ds: fields.awaiting3ds,
      awaitingCheckout: fields.awaitingCheckout,
      statusRequests: 0,
      voided: false,
      capturedCents: 0n,
      returnedCents: 0n,
      card: fields.card,
      callbackUrl: sharedText(fields.callbackUrl),
      notify: fields.notify,
      redirectUrl: sharedText(fields.redirectUrl),
      announced: false,
    };
    return this.orders.add(order.paynetOrderId, order);
  }

  /** The merchant's own order; another merchant's order is as unknown as a missing one. */
  find(paynetOrderId: string, merchantLogin: string): Order | undefined {
    return this.orders.find(paynetOrderId, merchantLogin);
  }

  /** Any merchant's order: for the hosted checkout page, which the customer reaches by its id. */
  byId(paynetOrderId: string): Order | undefined {
    return this.orders.get(paynetOrderId);
  }

  /** The status a status request sees now, advancing the schedule. */
  poll(order: Order): OrderStatus {
    order.statusRequests += 1;
    return order.statusRequests === 1 || order.awaiting3ds || order.awaitingCheckout ? 'processing' : order.finalStatus;
  }

  get size(): number {
    return this.orders.size;
  }
}
