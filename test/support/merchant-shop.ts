/**
 * A merchant's callback handler, written here as merchants write theirs after the vendor's examples
 * (`new CallbackResponse($_GET)`: the fields from the query string; then control, final status, the
 * order's ids, its amount, the status change, and 200), behind a "customizable" URL with a parameter
 * of its own (`?shop=main`, which it routes by). The typical mistakes switch on one at a time. Its
 * control check is its own code (node:crypto over the documented concatenation), not payconform's
 * signer.
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
  | 'fails-first'
  /** Reads the fields from a POST body only (right only where the gateway POSTs). */
  | 'reads-post-body'
  /** Puts the amount into the control formula. */
  | 'amount-in-formula'
  /** Takes every query field for the gateway's and refuses the one it does not know: its own URL parameter. */
  | 'refuses-own-query'
  /** Answers 204 No Content to a callback it took: the gateway wants 200. */
  | 'answers-204';

/** The handler URL's own query ("customizable" URL): the gateway must keep it. */
export const OWN_QUERY = { shop: 'main' } as const;

export interface ShopOrder {
  readonly clientOrderId: string;
  readonly amount: string;
  orderid?: string;
  status: 'processing' | 'approved' | 'declined' | 'filtered' | 'error';
}

export interface Received {
  /** The callback's fields, wherever the handler read them from, without the URL's own parameters. */
  readonly fields: Record<string, string>;
  readonly method: string;
  /** The URL's own parameters as they arrived. */
  readonly own: Record<string, string>;
  readonly answered: number;
}

const CALLBACK_FIELD_NAMES = new Set([
  'orderid',
  'merchant_order',
  'client_orderid',
  'amount',
  'status',
  'type',
  'control',
]);

export class MerchantShop {
  readonly orders = new Map<string, ShopOrder>();
  readonly received: Received[] = [];
  private server: Server | undefined;
  url = '';
  /** Origin and path of the handler, as reports name it (no query). */
  target = '';

  constructor(
    private readonly controlKey: string,
    private readonly mistake?: HandlerMistake,
    private readonly failFirst = 2,
  ) {}

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
        const query = Object.fromEntries(new URL(req.url ?? '/', 'http://shop').searchParams);
        const read = this.mistake === 'reads-post-body' ? Object.fromEntries(new URLSearchParams(body)) : query;
        const own = Object.fromEntries(
          Object.keys(OWN_QUERY).flatMap((k) => {
            const value = query[k];
            return value === undefined ? [] : [[k, value] as const];
          }),
        );
        const fields = Object.fromEntries(Object.entries(read).filter(([k]) => !(k in OWN_QUERY)));
        const answered = this.handle(read, own);
        this.received.push({ fields, method: req.method ?? '', own, answered });
        res.writeHead(answered, { 'content-type': 'text/plain' });
        res.end(answered === 200 ? 'OK' : 'refused');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.target = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/payment/callback`;
    this.url = `${this.target}?${new URLSearchParams(OWN_QUERY).toString()}`;
    return this.url;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server?.close(() => resolve());
      this.server?.closeAllConnections();
    });
  }

  /** The status code the handler answers. */
  private handle(f: Record<string, string>, own: Record<string, string>): number {
    if (this.mistake === 'fails-first' && this.received.length < this.failFirst) return 503;
    // The shop routes by its own parameter: a gateway that drops the URL's query reaches no shop.
    if (own.shop !== OWN_QUERY.shop) return 404;
    if (this.mistake === 'refuses-own-query' && Object.keys(f).some((k) => !CALLBACK_FIELD_NAMES.has(k))) return 400;
    const formula =
      this.mistake === 'amount-in-formula'
        ? `${f.status}${f.orderid}${f.client_orderid}${f.amount}`
        : `${f.status}${f.orderid}${f.client_orderid}`;
    const expected = createHash('sha1').update(`${formula}${this.controlKey}`).digest('hex');
    if (this.mistake !== 'no-control-check' && f.control !== expected) return 403;
    if (!['approved', 'declined', 'filtered', 'error'].includes(f.status ?? '')) return 400;
    const order = this.orders.get(f.client_orderid ?? '');
    if (!order) return this.mistake === 'marks-unknown-paid' ? 200 : 404;
    if (order.orderid !== undefined && order.orderid !== f.orderid) return 409;
    if (this.mistake !== 'no-amount-check' && Number(order.amount).toFixed(2) !== Number(f.amount).toFixed(2))
      return 409;
    const took = this.mistake === 'answers-204' ? 204 : 200;
    if (order.status !== 'processing') return this.mistake === 'error-on-repeat' ? 500 : took;
    order.orderid = f.orderid;
    order.status = f.status as ShopOrder['status'];
    return took;
  }
}
