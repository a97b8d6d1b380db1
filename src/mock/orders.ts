/**
 * Orders the mock keeps in memory, per mock instance, bounded: past `maxOrders` the oldest is
 * evicted. Outcomes follow a fixed schedule so tests never sleep (docs/assumptions.md A-23): an
 * order answers `processing` to its first status request and its final state from the second on.
 */
export type OrderStatus = 'processing' | 'approved' | 'declined' | 'filtered' | 'error' | 'unknown';

export interface Order {
  readonly paynetOrderId: string;
  readonly merchantLogin: string;
  readonly operation: string;
  readonly merchantOrderId: string;
  readonly amount: string | undefined;
  readonly currency: string | undefined;
  readonly finalStatus: OrderStatus;
  statusRequests: number;
}

export class OrderStore {
  private readonly orders = new Map<string, Order>();
  private nextId = 100000000;

  constructor(private readonly maxOrders: number) {}

  create(fields: Omit<Order, 'paynetOrderId' | 'statusRequests'>): Order {
    const order: Order = { ...fields, paynetOrderId: String(this.nextId++), statusRequests: 0 };
    if (this.orders.size >= this.maxOrders) this.orders.delete(this.orders.keys().next().value!);
    this.orders.set(order.paynetOrderId, order);
    return order;
  }

  /** The merchant's own order; another merchant's order is as unknown as a missing one. */
  find(paynetOrderId: string, merchantLogin: string): Order | undefined {
    const order = this.orders.get(paynetOrderId);
    return order?.merchantLogin === merchantLogin ? order : undefined;
  }

  /** The status a status request sees now, advancing the schedule. */
  poll(order: Order): OrderStatus {
    order.statusRequests += 1;
    return order.statusRequests === 1 ? 'processing' : order.finalStatus;
  }

  get size(): number {
    return this.orders.size;
  }
}
