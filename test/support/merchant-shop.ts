/**
 * A merchant's callback handler, written here as merchants write theirs after the vendor's examples
 * (`new CallbackResponse($_GET)`: the fields from the query string; then control, final status, the
 * order's ids, its amount, the status change, and 200), behind a "customizable" URL with a parameter
 * of its own (`?shop=main`, which it routes by). The typical mistakes switch on one at a time. Its
 * control check is its own code (node:crypto over the documented concatenation), not payconform's
 * signer.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
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

/**
 * Mistakes of the shop's customer-return page (redirect_url), which the payer's browser posts the final redirect to
 * and which verifies control, looks the order up and answers 303 to its result page.
 */
export type ReturnMistake =
  /** Books any "approved" return without checking its control (checks the others). */
  | 'books-approved-unchecked'
  /** Shows the result page of whatever order a correctly signed return names. */
  | 'return-unknown-taken'
  /** Answers 500 to a return for an order already final (a reload). */
  | 'return-error-on-repeat';

/** Where the shop's return page sends the payer: its result page for the order. */
export const resultPage = (clientOrderId: string): string =>
  `/payment/result?order=${encodeURIComponent(clientOrderId)}`;

/** The handler URL's own query ("customizable" URL): the gateway must keep it. */
export const OWN_QUERY = { shop: 'main' } as const;

export interface ShopOrder {
  readonly clientOrderId: string;
  readonly amount: string;
  orderid?: string;
  status: 'processing' | 'approved' | 'declined' | 'filtered' | 'error';
  /** The payer came back through the return page. */
  returned?: boolean;
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

const RETURN_PATH = '/payment/return';

export class MerchantShop {
  readonly orders = new Map<string, ShopOrder>();
  readonly received: Received[] = [];
  /** The returns the shop's redirect_url page got: their fields and what it answered. */
  readonly returns: Array<{ readonly fields: Record<string, string>; readonly answered: number }> = [];
  /** The return page (redirect_url): the final redirect is posted here. */
  returnUrl = '';
  /** Set after construction: a mistake of the return page (the callback handler's is the constructor's). */
  returnMistake: ReturnMistake | undefined;
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
        if (new URL(req.url ?? '/', 'http://shop').pathname === RETURN_PATH) return this.serveReturn(body, res);
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
    this.returnUrl = this.target.replace(/\/payment\/callback$/, RETURN_PATH);
    return this.url;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server?.close(() => resolve());
      this.server?.closeAllConnections();
    });
  }

  /** The return page: control verified over the fields as posted, the order looked up, then its result page. */
  private serveReturn(body: string, res: ServerResponse): void {
    const f = Object.fromEntries(new URLSearchParams(body));
    const answered = this.handleReturn(f);
    this.returns.push({ fields: f, answered });
    res.writeHead(answered, answered === 303 ? { location: resultPage(f.client_orderid ?? '') } : {});
    res.end(answered === 303 ? '' : 'refused');
  }

  private handleReturn(f: Record<string, string>): number {
    const expected = createHash('sha1')
      .update(`${f.status}${f.orderid}${f.client_orderid}${this.controlKey}`)
      .digest('hex');
    const unchecked = this.returnMistake === 'books-approved-unchecked' && f.status === 'approved';
    if (!unchecked && f.control !== expected) return 403;
    const order = this.orders.get(f.client_orderid ?? '');
    if (!order) return this.returnMistake === 'return-unknown-taken' ? 303 : 404;
    if (order.orderid !== undefined && order.orderid !== f.orderid) return 409;
    if (order.returned && this.returnMistake === 'return-error-on-repeat') return 500;
    order.returned = true;
    return 303;
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
