/**
 * A merchant's callback handler, written here as merchants write theirs (the vendor library's
 * order: control, final status, the order's ids, its amount, then the status change), with the
 * typical mistakes to switch on one at a time. Its control check is its own code (node:crypto over
 * the documented concatenation), not payconform's signer.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type HandlerMistake =
  | 'no-control-check'
  | 'no-amount-check'
  | 'error-on-repeat'
  | 'marks-unknown-paid'
  /** Answers 503 to its first `failFirst` callbacks (a handler that is down for a moment). */
  | 'fails-first';

export interface ShopOrder {
  readonly clientOrderId: string;
  readonly amount: string;
  orderid?: string;
  status: 'processing' | 'approved' | 'declined' | 'filtered' | 'error';
}

export interface Received {
  readonly fields: Record<string, string>;
  readonly answered: number;
}

export class MerchantShop {
  readonly orders = new Map<string, ShopOrder>();
  readonly received: Received[] = [];
  private server: Server | undefined;
  url = '';

  constructor(private readonly controlKey: string, private readonly mistake?: HandlerMistake, private readonly failFirst = 2) {}

  /** The shop made an order (before it sends it to the gateway). */
  order(clientOrderId: string, amount: string): ShopOrder {
    const order: ShopOrder = { clientOrderId, amount, status: 'processing' };
    this.orders.set(clientOrderId, order);
    return order;
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        const fields = Object.fromEntries(new URLSearchParams(body));
        const answered = this.handle(fields);
        this.received.push({ fields, answered });
        res.writeHead(answered, { 'content-type': 'text/plain' });
        res.end(answered === 200 ? 'OK' : 'refused');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/payment/callback`;
    return this.url;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server?.close(() => resolve());
      this.server?.closeAllConnections();
    });
  }

  /** The status code the handler answers. */
  private handle(f: Record<string, string>): number {
    if (this.mistake === 'fails-first' && this.received.length < this.failFirst) return 503;
    const expected = createHash('sha1').update(`${f.status}${f.orderid}${f.client_orderid}${this.controlKey}`).digest('hex');
    if (this.mistake !== 'no-control-check' && f.control !== expected) return 403;
    if (!['approved', 'declined', 'filtered', 'error'].includes(f.status ?? '')) return 400;
    const order = this.orders.get(f.client_orderid ?? '');
    if (!order) return this.mistake === 'marks-unknown-paid' ? 200 : 404;
    if (order.orderid !== undefined && order.orderid !== f.orderid) return 409;
    if (this.mistake !== 'no-amount-check' && Number(order.amount).toFixed(2) !== Number(f.amount).toFixed(2)) return 409;
    if (order.status !== 'processing') return this.mistake === 'error-on-repeat' ? 500 : 200;
    order.orderid = f.orderid;
    order.status = f.status as ShopOrder['status'];
    return 200;
  }
}
