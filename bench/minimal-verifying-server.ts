/**
 * The least work a verifying mock must do for a signed SALE (issue 28), as the mock's limit peer in
 * `npm run bench`: node:http, read the body, parse the form, recompute and compare the control
 * (SHA-1 of endpointId + client_orderid + amount in cents + email + merchant_control_key, api-spec.md
 * "SALE"), keep the order in a Map, answer JSON. Nothing from src/: it is the yardstick, not the
 * mock. Run as a child process (`node --import tsx bench/minimal-verifying-server.ts`), it prints
 * `listening on http://…` like `payconform mock`.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

export interface MinimalMerchant {
  readonly endpointId: string;
  readonly controlKey: string;
}

const SALE_PATH = '/api/v2/sale/';
const MAX_ORDERS = 100_000;

/** Cents as the spec writes them ("10.00 becomes 1000"), or undefined for an amount that is not one. */
export function cents(amount: string): string | undefined {
  const m = /^([0-9]*)(?:\.([0-9]{1,2}))?$/.exec(amount);
  if (m === null || amount === '') return undefined;
  const digits = `${m[1] ?? ''}${(m[2] ?? '').padEnd(2, '0')}`.replace(/^0+(?=.)/, '');
  return digits;
}

/** Orders by id, the oldest dropped past MAX_ORDERS as the mock's store does. */
interface Orders {
  serial: number;
  readonly kept: Map<string, object>;
}

function answer(res: ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/vnd.pay+json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function refuse(res: ServerResponse, status: number, code: string): void {
  answer(res, status, { type: 'validation-error', 'error-code': code });
}

/** One SALE: the control recomputed from the form and compared in constant time, the order kept. */
function sale(res: ServerResponse, body: string, merchant: MinimalMerchant, orders: Orders): void {
  const form = new URLSearchParams(body);
  const orderId = form.get('client_orderid') ?? '';
  const amountCents = cents(form.get('amount') ?? '');
  const sent = Buffer.from(form.get('control') ?? '', 'latin1');
  if (amountCents === undefined) return refuse(res, 400, 'FIELD_INVALID');
  const text = `${merchant.endpointId}${orderId}${amountCents}${form.get('email') ?? ''}${merchant.controlKey}`;
  const expected = Buffer.from(createHash('sha1').update(text).digest('hex'), 'latin1');
  if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) return refuse(res, 400, 'CONTROL_INVALID');
  const id = String(++orders.serial);
  // The oldest by its serial id: reading a Map's first key walks past every slot deleted before it, which made
  // each order past MAX_ORDERS cost about 100 µs on a machine fast enough to reach it within the bench's rounds.
  orders.kept.delete(String(orders.serial - MAX_ORDERS));
  orders.kept.set(id, { orderId, amountCents, currency: form.get('currency') });
  answer(res, 200, {
    type: 'async-response',
    status: 'processing',
    'paynet-order-id': id,
    'merchant-order-id': orderId,
  });
}

export function minimalVerifyingServer(merchant: MinimalMerchant): Server {
  const orders: Orders = { serial: 0, kept: new Map() };
  const path = `${SALE_PATH}${merchant.endpointId}`;
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST') return refuse(res, 405, 'METHOD_NOT_ALLOWED');
      if (req.url !== path) return refuse(res, 404, 'ENDPOINT_UNKNOWN');
      sale(res, Buffer.concat(chunks).toString('utf8'), merchant, orders);
    });
  });
}

// As a child process: the merchant from the environment (the bench passes the test merchant's).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = minimalVerifyingServer({
    endpointId: process.env.MINIMAL_ENDPOINT_ID ?? '',
    controlKey: process.env.MINIMAL_CONTROL_KEY ?? '',
  });
  // A clean exit on the bench's SIGTERM, so `node --cpu-prof` writes its profile.
  process.once('SIGTERM', () => process.exit(0));
  server.listen(0, '127.0.0.1', () => {
    console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
}
