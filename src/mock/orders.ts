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

/** An order as the mock keeps it. Its id is its serial, written out when asked: a string kept per order cost 32 B. */
export class Order {
  readonly merchantLogin: string;
  readonly operation: Operation;
  readonly merchantOrderId: string;
  /** In integer cents, where the operation carries an amount. */
  readonly amountCents: bigint | undefined;
  readonly amount: string | undefined;
  readonly currency: string | undefined;
  finalStatus: OrderStatus;
  statusRequests = 0;
  /** The order waits for a 3-D Secure result upload. */
  awaiting3ds: boolean;
  /** A hosted-form order waits for its checkout page to be submitted. */
  awaitingCheckout: boolean;
  voided = false;
  /** Captured (preauth) or paid out (payout-check) so far. */
  capturedCents = 0n;
  returnedCents = 0n;
  /** The card, masked: the mock never keeps a full card number. */
  card: StoredCard | undefined;
  /** The request's notify_url or server_callback_url: the callback goes there when the order is final. */
  readonly callbackUrl: string | undefined;
  /** The callback URL came as notify_url: later transactions on this order are reported there too. */
  readonly notify: boolean;
  /** The request's redirect_url: the hosted page sends the customer back there. */
  readonly redirectUrl: string | undefined;
  /** The final status has been announced (callback or hook), so it is never announced twice. */
  announced = false;
  /** A chargeback event took the whole amount back (events.ts): status names it, nothing is left to return. */
  chargedBack = false;

  /** Made by OrderStore.create only, which issues the serial. */
  constructor(
    private readonly serial: number,
    fields: NewOrder,
  ) {
    this.merchantLogin = fields.merchantLogin;
    this.operation = fields.operation;
    this.merchantOrderId = ownString(fields.merchantOrderId);
    this.amountCents = fields.amountCents;
    this.amount = sharedText(fields.amount);
    this.currency = sharedText(fields.currency);
    this.finalStatus = fields.finalStatus;
    this.awaiting3ds = fields.awaiting3ds;
    this.awaitingCheckout = fields.awaitingCheckout;
    this.card = fields.card;
    this.callbackUrl = sharedText(fields.callbackUrl);
    this.notify = fields.notify;
    this.redirectUrl = sharedText(fields.redirectUrl);
  }

  get paynetOrderId(): string {
    return String(this.serial);
  }
}

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

/** An id the store issued: a serial in canonical decimal (no sign, no leading zero), else none. */
const serialOf = (id: string): number | undefined => (/^[1-9][0-9]{0,14}$/.test(id) ? Number(id) : undefined);

/**
 * The newest `max` entries, oldest forgotten first, showing a merchant only its own. Entries come with
 * serials from the store's one counter, so in a ring read from its oldest slot they are in order and an
 * id is found by binary search. A Map held tables of about 8 MB for the 100,000 orders npm run bench
 * keeps, which grew while it kept deleted slots, and its oldest key had to be tracked beside it anyway.
 */
class Recent<V extends { readonly merchantLogin: string }> {
  private readonly serials: number[] = [];
  private readonly values: V[] = [];
  /** Once full, the slot of the oldest entry, the next to forget, which the newest takes. */
  private oldest = 0;
  /** The newest serial: each must be greater, or the ring would be out of order. */
  private newest = -1;
  private readonly max: number;
  constructor(max: number) {
    this.max = Math.max(1, max); // a limit below 1 keeps the newest entry, as it always has
  }
  add(serial: number, value: V): V {
    if (serial <= this.newest) throw new Error(`internal: serial ${serial} after ${this.newest}`);
    this.newest = serial;
    if (this.serials.length < this.max) {
      this.serials.push(serial);
      this.values.push(value);
    } else {
      this.serials[this.oldest] = serial;
      this.values[this.oldest] = value;
      this.oldest = (this.oldest + 1) % this.max;
    }
    return value;
  }
  /** Another merchant's entry is as unknown as a missing one. */
  find(id: string, merchantLogin: string): V | undefined {
    const value = this.get(id);
    return value?.merchantLogin === merchantLogin ? value : undefined;
  }
  /** The entries, newest first. */
  *newestFirst(): Generator<V> {
    const count = this.values.length;
    for (let i = count - 1; i >= 0; i--) yield this.values[(this.oldest + i) % count]!;
  }
  get(id: string): V | undefined {
    const serial = serialOf(id);
    const count = this.serials.length;
    let low = 0;
    let high = count - 1;
    while (serial !== undefined && low <= high) {
      const middle = (low + high) >>> 1;
      const slot = (this.oldest + middle) % count;
      const found = this.serials[slot] ?? serial;
      if (found === serial) return this.values[slot];
      if (found < serial) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }
  get size(): number {
    return this.serials.length;
  }
}

export class OrderStore {
  private readonly orders: Recent<Order>;
  private readonly cardRefs: Recent<CardRef>;
  private readonly recurring: Recent<RecurringPayment>;
  /** One counter for orders, card references and recurring payments: an id names one thing only. */
  private nextSerial = 100000000;

  constructor(maxOrders: number) {
    this.orders = new Recent(maxOrders);
    this.cardRefs = new Recent(maxOrders);
    this.recurring = new Recent(maxOrders);
  }

  create(fields: NewOrder): Order {
    const serial = this.nextSerial++;
    return this.orders.add(serial, new Order(serial, fields));
  }

  /** The merchant's own order; another merchant's order is as unknown as a missing one. */
  find(paynetOrderId: string, merchantLogin: string): Order | undefined {
    return this.orders.find(paynetOrderId, merchantLogin);
  }

  /** Any merchant's order: for the hosted checkout page, which the customer reaches by its id. */
  byId(paynetOrderId: string): Order | undefined {
    return this.orders.get(paynetOrderId);
  }

  /**
   * The newest order with this client_orderid that `accept` takes, of the merchant given or any: a scan, for the
   * admin route (events.ts) only, so no index costs the orders' hot path anything.
   */
  newestByClientOrderId(
    clientOrderId: string,
    merchantLogin: string | undefined,
    accept: (order: Order) => boolean,
  ): Order | undefined {
    for (const order of this.orders.newestFirst())
      if (
        order.merchantOrderId === clientOrderId &&
        (merchantLogin === undefined || order.merchantLogin === merchantLogin) &&
        accept(order)
      )
        return order;
    return undefined;
  }

  addCardRef(merchantLogin: string, card: StoredCard): CardRef {
    const serial = this.nextSerial++;
    return this.cardRefs.add(serial, { id: String(serial), merchantLogin, card });
  }

  /** The merchant's own card reference. */
  findCardRef(id: string, merchantLogin: string): CardRef | undefined {
    return this.cardRefs.find(id, merchantLogin);
  }

  addRecurring(plan: Omit<RecurringPayment, 'id'>): RecurringPayment {
    const serial = this.nextSerial++;
    return this.recurring.add(serial, { id: String(serial), ...plan });
  }

  /** The merchant's own recurring payment. */
  findRecurring(id: string, merchantLogin: string): RecurringPayment | undefined {
    return this.recurring.find(id, merchantLogin);
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
