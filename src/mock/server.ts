/**
 * The embedded mock gateway on node:http. Every request goes through the same checks, in order,
 * each failure with its own code: POST only (405), a known path (404), Accept (406), content type
 * (415), body size (413) and well-formed UTF-8 form encoding (400), endpoint id and authentication
 * (400), then the operation. A client mistake is never a 500.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { matchPath, type PathMatch } from '../catalogue/index.ts';
import { isPayconformError } from '../errors.ts';
import { checkRequestFields, requestSchemaOf } from '../schemas/index.ts';
import { decodeForm, type Pair } from '../signing/form-body.ts';
import { authenticate, type AuthSettings } from './authenticate.ts';
import { serveCheckout } from './checkout.ts';
import type { Defect } from './defects.ts';
import { testMerchant, type Merchant } from './merchants.ts';
import { MockError } from './mock-error.ts';
import { NonceStore } from './nonces.ts';
import { runOperation } from './operations.ts';
import { OrderStore } from './orders.ts';

export const MEDIA_TYPE = 'application/vnd.pay+json';
export const MAX_BODY_BYTES = 64 * 1024;

export interface MockOptions {
  readonly merchants?: readonly Merchant[];
  /** 0 (default) picks a free port. */
  readonly port?: number;
  readonly host?: string;
  /** A path prefix before /api/, e.g. /paynet. */
  readonly prefix?: string;
  /** Serve endpoints under any prefix (inspect, which cannot know the integration's). */
  readonly anyPrefix?: boolean;
  /** The URL clients use, when it differs from the Host header (a reverse proxy that rewrites Host). */
  readonly publicUrl?: string;
  readonly windowSeconds?: number;
  readonly maxOrders?: number;
  /** Clock in milliseconds (tests pin it). */
  readonly now?: () => number;
  /**
   * One line per request: time, method, endpoint path, status, operation, error code or order id,
   * milliseconds. It carries no field values, so no secret or card data can reach it.
   */
  readonly log?: (line: string) => void;
  /** Start a deliberately broken variant (src/mock/defects.ts), for `npm run prove`. */
  readonly defect?: Defect | undefined;
}

export interface RunningMock {
  readonly url: string;
  readonly orders: OrderStore;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}, mediaType = MEDIA_TYPE): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': mediaType, 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Writes the request log's line; the path is the catalogue's, with the endpoint id, never the raw URL. */
function logRequest(log: ((line: string) => void) | undefined, started: number, method: string | undefined, match: PathMatch | undefined, status: number, outcome: string): void {
  if (log === undefined) return;
  const path = match ? `${match.prefix}${match.endpoint.path.replace('{endpointId}', match.endpointId)}` : '-';
  const ms = (performance.now() - started).toFixed(1);
  log(`${new Date().toISOString()} ${String(method).slice(0, 10)} ${path} ${status} ${match?.endpoint.operation ?? '-'} ${outcome} ${ms}ms`);
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > MAX_BODY_BYTES) return Promise.reject(new MockError(413, 'BODY_TOO_LARGE', `body: at most ${MAX_BODY_BYTES} bytes`));
  // Events rather than an async iterator, which costs more per request on this hot path.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.removeAllListeners('data');
        req.resume();
        reject(new MockError(413, 'BODY_TOO_LARGE', `body: at most ${MAX_BODY_BYTES} bytes`));
      } else chunks.push(chunk);
    });
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const windowSeconds = options.windowSeconds ?? 300;
  const auth: AuthSettings = {
    merchants: options.merchants ?? [testMerchant()],
    windowSeconds,
    now: options.now ?? Date.now,
    nonces: new NonceStore(windowSeconds),
    defect: options.defect,
  };
  const { defect } = options;
  const mediaType = defect === 'wrong-response-content-type' ? 'application/json' : MEDIA_TYPE;
  const orders = new OrderStore(options.maxOrders ?? 100_000);
  const prefix = (options.prefix ?? '').replace(/\/+$/, '');
  let serial = 0;
  const checkoutPath = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/checkout/([0-9]+)$`);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const serialNumber = `mock-${++serial}`;
    const started = options.log ? performance.now() : 0;
    let match: PathMatch | undefined;
    let params: Pair[] | undefined;
    try {
      const pathname = (req.url ?? '/').split('?')[0]!;
      const checkout = pathname.includes('/checkout/') ? checkoutPath.exec(pathname) : null;
      if (checkout) {
        await serveCheckout(req, res, checkout[1]!, orders, `${prefix}/checkout/${checkout[1]}`);
        return logRequest(options.log, started, req.method, match, res.statusCode, `checkout ${checkout[1]}`);
      }
      if (req.method !== 'POST') throw new MockError(405, 'METHOD_NOT_ALLOWED', `method: only POST is allowed (got ${req.method})`);
      try {
        match = matchPath(pathname);
      } catch (err) {
        if (isPayconformError(err) && err.code === 'ERR_ENDPOINT_ID') throw new MockError(400, 'ENDPOINT_UNKNOWN', err.message, 'endpointId');
        throw new MockError(404, 'NOT_FOUND', `path: ${pathname.slice(0, 100)} is no endpoint of this gateway`);
      }
      if (match.prefix !== prefix && !options.anyPrefix) throw new MockError(404, 'NOT_FOUND', `path: endpoints are under ${prefix || '(no prefix)'}/api/`);
      if (req.headers.accept?.trim() !== MEDIA_TYPE && defect !== 'ignore-accept-header') throw new MockError(406, 'NOT_ACCEPTABLE', `accept: must be ${MEDIA_TYPE}`, 'accept');
      const contentType = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (contentType !== 'application/x-www-form-urlencoded' && defect !== 'accept-any-body-type') throw new MockError(415, 'UNSUPPORTED_MEDIA_TYPE', 'content-type: must be application/x-www-form-urlencoded', 'content-type');
      try {
        params = decodeForm(utf8.decode(await readBody(req)));
      } catch (err) {
        if (err instanceof MockError) throw err;
        throw new MockError(400, 'BODY_MALFORMED', `body: ${isPayconformError(err) ? err.message : 'is not UTF-8'}`);
      }
      const origin = options.publicUrl?.replace(/\/+$/, '') ?? `http://${req.headers.host ?? 'localhost'}`;
      const request = { method: 'POST', url: `${origin}${req.url ?? ''}`, params, match };
      const merchant = authenticate(match.endpoint, match.endpointId, request, req.headers.authorization, auth);
      const problem = defect === 'skip-field-validation' ? undefined : checkRequestFields(requestSchemaOf(match.endpoint)!, params);
      if (problem) throw new MockError(400, problem.code, problem.message, problem.field);
      const answer = runOperation({ endpoint: match.endpoint, params, merchant, orders, serialNumber, publicBase: `${origin}${prefix}`, defect });
      send(res, 200, answer, {}, mediaType);
      logRequest(options.log, started, req.method, match, 200, `order ${answer['paynet-order-id']}`);
    } catch (err) {
      // server-error-on-client-mistake: a field problem, found by the schema or the signature formula, crashes.
      if (err instanceof MockError && !(defect === 'server-error-on-client-mistake' && err.code.startsWith('FIELD_'))) {
        const pan = defect === 'leak-full-pan' ? params?.find(([n]) => n === 'credit_card_number')?.[1] : undefined;
        const message = pan === undefined ? err.message : `${err.message} (card ${pan})`;
        send(res, err.status, { type: err.status >= 500 ? 'error' : 'validation-error', 'error-code': err.code, 'error-message': message, 'serial-number': serialNumber, ...(err.field ? { field: err.field } : {}) },
          err.status === 405 ? { allow: 'POST' } : {}, mediaType);
        return logRequest(options.log, started, req.method, match, err.status, err.code);
      }
      send(res, 500, { type: 'error', 'error-code': 'SERVER_ERROR', 'error-message': 'internal error of the mock gateway', 'serial-number': serialNumber }, {}, mediaType);
      logRequest(options.log, started, req.method, match, 500, 'SERVER_ERROR');
    }
  }

  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    orders,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
