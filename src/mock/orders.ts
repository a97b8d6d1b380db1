/**
 * Orders the mock keeps in memory, per mock instance, bounded: past `maxOrders` the oldest is
 * evicted. Outcomes follow a fixed schedule so tests never sleep (docs/assumptions.md A-23): an
 * order answers `processing` to its first status request and its final state from the second on;
 * an order waiting for 3-D Secure or for its hosted checkout stays `processing` until that step is done.
 */
export type OrderStatus = 'processing' | 'approved' | 'declined' | 'filtered' | 'error' | 'unknown';

export interface Order {
  readonly paynetOrderId: string;
  readonly merchantLogin: string;
  readonly operation: string;
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
  capturedCents: bigint;
  returnedCents: bigint;
}

export type NewOrder = Pick<Order, 'merchantLogin' | 'operation' | 'merchantOrderId' | 'amountCents' | 'amount' | 'currency' | 'finalStatus' | 'awaiting3ds' | 'awaitingCheckout'>;

export class OrderStore {
  private readonly orders = new Map<string, Order>();
  private nextId = 100000000;

  constructor(private readonly maxOrders: number) {}

  create(fields: NewOrder): Order {
    // Field by field: a spread into a literal with more properties is V8's slow path on Node 20.
    const order: Order = {
      paynetOrderId: String(this.nextId++), merchantLogin: fields.merchantLogin, operation: fields.operation,
      merchantOrderId: fields.merchantOrderId, amountCents: fields.amountCents, amount: fields.amount, currency: fields.currency,
      finalStatus: fields.finalStatus, awaiting3ds: fields.awaiting3ds, awaitingCheckout: fields.awaitingCheckout,
      statusRequests: 0, voided: false, capturedCents: 0n, returnedCents: 0n,
    };
    if (this.orders.size >= this.maxOrders) this.orders.delete(this.orders.keys().next().value!);
    this.orders.set(order.paynetOrderId, order);
    return order;
  }

  /** The merchant's own order; another merchant's order is as unknown as a missing one. */
  find(paynetOrderId: string, merchantLogin: string): Order | undefined {
    const order = this.orders.get(paynetOrderId);
    return order?.merchantLogin === merchantLogin ? order : undefined;
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
