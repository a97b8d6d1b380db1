/**
 * A reference callback handler, written for the tests from the family's public rules (not from the mock's
 * code): it verifies the callback's control itself (node:crypto SHA-1 over status + orderid + client_orderid +
 * key, compared in constant time), refuses what is not its own order or not its amount, books each
 * (orderid, type) once with the "already booked?" check and the booking in one step, lowers what is paid on a
 * chargeback or reversal, ignores a status change after a final one, and answers 200 to anything correctly
 * signed it has decided on. Its state is at `stateUrl`: `GET stateUrl?client_orderid=ID` → `{"paid": "25.00"}`.
 *
 * Each flaw switches on one broken variant, as merchants write them:
 * - `books-twice`: checks "already booked?", awaits its database, then books: two callbacks at once both book;
 * - `flips-late`: a late "approved" turns a declined order paid;
 * - `chargeback-as-payment`: reads the status, not the type: an approved chargeback is booked as a payment;
 * - `ignores-chargeback`: answers 200 to a chargeback and books nothing.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type CallbackShopFlaw = 'books-twice' | 'flips-late' | 'chargeback-as-payment' | 'ignores-chargeback';

interface Booking {
  readonly clientOrderId: string;
  readonly orderid: string;
  readonly type: string;
  status: string;
  cents: number;
}

const FINAL = new Set(['approved', 'declined', 'filtered', 'error']);
const MONEY_BACK = new Set(['chargeback', 'reversal']);
/** How long the shop's "database" takes to write: long enough for a second callback to arrive meanwhile. */
const WRITE_MS = 40;

/** "25.00" → 2500, by hand (no payconform code): the shop's own arithmetic. */
const centsOf = (amount: string): number | undefined =>
  /^\d+(\.\d{1,2})?$/.test(amount) ? Math.round(Number(amount) * 100) : undefined;
const amountOf = (cents: number): string => `${cents < 0 ? '-' : ''}${(Math.abs(cents) / 100).toFixed(2)}`;

export class CallbackShop {
  /** The shop's orders: client order id → amount in cents. */
  private readonly orders = new Map<string, number>();
  readonly bookings: Booking[] = [];
  private server: Server | undefined;
  url = '';
  stateUrl = '';

  constructor(
    private readonly controlKey: string,
    private readonly flaw?: CallbackShopFlaw,
  ) {}

  /** The shop made an order (before it sends it to the gateway). */
  order(clientOrderId: string, amount: string): void {
    const cents = centsOf(amount);
    if (cents === undefined) throw new Error(`not an amount: ${amount}`);
    this.orders.set(clientOrderId, cents);
  }

  /** What the shop holds as paid for the order, in cents. */
  paidCents(clientOrderId: string): number {
    return this.bookings.filter((b) => b.clientOrderId === clientOrderId).reduce((n, b) => n + b.cents, 0);
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        this.serve(req, body, res).catch(() => {
          res.writeHead(500);
          res.end();
        });
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    this.url = `${origin}/payment/callback`;
    this.stateUrl = `${origin}/payment/state`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server?.close(() => resolve());
      this.server?.closeAllConnections();
    });
  }

  private async serve(req: IncomingMessage, body: string, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://shop');
    if (url.pathname === '/payment/state') {
      const id = url.searchParams.get('client_orderid') ?? '';
      if (!this.orders.has(id)) return this.answer(res, 404, { error: 'no such order' });
      return this.answer(res, 200, { paid: amountOf(this.paidCents(id)) });
    }
    const fields = req.method === 'POST' ? new URLSearchParams(body) : url.searchParams;
    const status = await this.callback(Object.fromEntries(fields));
    res.writeHead(status, { 'content-type': 'text/plain' });
    res.end(status === 200 ? 'OK' : 'refused');
  }

  private answer(res: ServerResponse, status: number, json: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(json));
  }

  /** The status the handler answers a callback with. */
  private async callback(f: Record<string, string>): Promise<number> {
    const { status = '', orderid = '', client_orderid: clientOrderId = '', type = '', control = '' } = f;
    const expected = createHash('sha1').update(`${status}${orderid}${clientOrderId}${this.controlKey}`).digest();
    const sent = Buffer.from(control, 'hex');
    if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) return 403;
    if (!FINAL.has(status)) return 400;
    const amount = this.orders.get(clientOrderId);
    if (amount === undefined) return 404;
    if (centsOf(f.amount ?? '') !== amount) return 409;
    if (this.bookings.some((b) => b.clientOrderId === clientOrderId && b.orderid !== orderid)) return 409;
    const moneyBack = MONEY_BACK.has(type) && this.flaw !== 'chargeback-as-payment';
    if (MONEY_BACK.has(type) && this.flaw === 'ignores-chargeback') return 200;
    const cents = status !== 'approved' ? 0 : moneyBack ? -amount : amount;
    const booked = (): Booking | undefined =>
      this.bookings.find((b) => b.orderid === orderid && b.type === type && b.clientOrderId === clientOrderId);
    const book = (): void => void this.bookings.push({ clientOrderId, orderid, type, status, cents });
    if (this.flaw === 'books-twice') {
      // The race: the check, then the database's await, then the write.
      const earlier = booked();
      await this.write();
      if (earlier === undefined) book();
      return 200;
    }
    const earlier = booked();
    if (earlier === undefined) book();
    else if (this.flaw === 'flips-late' && earlier.status === 'declined' && status === 'approved') {
      earlier.status = status;
      earlier.cents = cents;
    }
    // A final status is final: anything else already booked for (orderid, type) changes nothing.
    await this.write();
    return 200;
  }

  private write(): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, WRITE_MS));
  }
}
