/**
 * The embedded mock gateway on node:http. Every request is judged by the rule book
 * (src/rules/book.ts) in its order, and the first failure is answered with that rule's refusal:
 * POST only (405), a known path (404), Accept (406), content type (415), then, with the body read,
 * its size (413) and form encoding (400), the endpoint id and authentication (400), the fields, and
 * then the operation with its order rules. A client mistake is never a 500.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { renderAnswer, SPEC_ANSWERS, type AnswerFormat } from '../catalogue/answer-format.ts';
import type { PathMatch } from '../catalogue/index.ts';
import { BODY_RULES, HEAD_RULES } from '../rules/book.ts';
import { acceptHeader, MEDIA_TYPE } from '../rules/http.ts';
import type { Merchant } from '../rules/merchant.ts';
import { NonceStore } from '../rules/nonces.ts';
import { RequestUnderTest, type RuleContext } from '../rules/request.ts';
import { firstFailure, type RequestRule } from '../rules/run.ts';
import { customerPageOf, serveCustomerPage } from './customer-pages.ts';
import { breakageOf, type Breakage, type Defect } from './defects.ts';
import { testMerchant } from './merchants.ts';
import { MockError, refusal } from './mock-error.ts';
import { runOperation } from './operations.ts';
import { OrderStore, type Order } from './orders.ts';
import { callbackFacts, CallbackSender, signedReturn, type CallbackSettings } from './callbacks.ts';
import type { Pair } from '../signing/form-body.ts';

export { MEDIA_TYPE };
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
  /** Callbacks to server_callback_url: allowed hosts, retries, or a hook instead (docs/callbacks.md). */
  readonly callbacks?: CallbackSettings;
  /** How answers are written (a gateway profile's `answers`, read by the CLI): the spec's JSON by default. */
  readonly answers?: AnswerFormat;
  /** The gateway's names of answer fields (ours → theirs, a profile's answerFields). */
  readonly answerFields?: Readonly<Record<string, string>>;
  /**
   * false: serve requests without the Accept header, as the family's public gateways do (a profile's
   * request.acceptRequired).
   */
  readonly acceptRequired?: boolean;
}

export interface RunningMock {
  readonly url: string;
  readonly orders: OrderStore;
  /** Every callback attempt so far, and a way to wait for those under way. */
  readonly callbacks: Pick<CallbackSender, 'deliveries' | 'idle'>;
  close(): Promise<void>;
}

/**
 * The HTTP status an answer goes out with. A profile's errorStatus (200, the public gateways' way) replaces only the
 * spec's two refusal statuses, 400 and 500: a failed OAuth check stays 403 as the public docs say
 * (doc.payneteasy.com integration_helpers/oauth.html, A-21), and HTTP's own statuses (404, 405, 413, 415) stay.
 */
function answeredStatus(status: number, format: AnswerFormat): number {
  return format.errorStatus !== undefined && (status === 400 || status === 500) ? format.errorStatus : status;
}

/** Writes an answer in the mock's answer format (catalogue/answer-format.ts, the one writer). */
function send(
  res: ServerResponse,
  status: number,
  body: Record<string, unknown>,
  headers: Record<string, string>,
  format: AnswerFormat,
  names: Readonly<Record<string, string>>,
): void {
  const { text, contentType } = renderAnswer(body, format, names);
  res.writeHead(answeredStatus(status, format), {
    'content-type': contentType,
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/**
 * Writes the request log's line; the path is the catalogue's, with the endpoint id (in the group URL
 * form `…/group/{id}` when so requested), never the raw URL.
 */
function logRequest(
  log: ((line: string) => void) | undefined,
  started: number,
  method: string | undefined,
  match: PathMatch | undefined,
  status: number,
  outcome: string,
): void {
  if (log === undefined) return;
  const id = (m: PathMatch): string => (m.group === true ? `group/${m.endpointId}` : m.endpointId);
  const path = match ? `${match.prefix}${match.endpoint.path.replace('{endpointId}', id(match))}` : '-';
  const ms = (performance.now() - started).toFixed(1);
  log(
    `${new Date().toISOString()} ${String(method).slice(0, 10)} ${path} ${status} ${match?.endpoint.operation ?? '-'} ${outcome} ${ms}ms`,
  );
}

/** The body, or undefined with the bytes seen when it is larger than the rules allow (not read further). */
function readBody(req: IncomingMessage): Promise<{ body?: Buffer; tooLarge?: number }> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > MAX_BODY_BYTES) return Promise.resolve({ tooLarge: declared });
  // Events rather than an async iterator, which costs more per request on this hot path.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.removeAllListeners('data');
        resolve({ tooLarge: size });
      } else chunks.push(chunk);
    });
    req.once('end', () => resolve({ body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks) }));
    req.once('error', reject);
  });
}

/**
 * After a 413 the rest of the body is not read: the answer says `Connection: close`, and once it is
 * written the socket is ended and, after a short drain that lets the client read the answer before a
 * reset could discard it, destroyed.
 */
function closeAfterAnswer(req: IncomingMessage, res: ServerResponse): void {
  res.once('finish', () => {
    const socket = req.socket;
    socket.end();
    socket.resume();
    setTimeout(() => socket.destroy(), 200).unref();
  });
}

/** The rules the mock refuses on: a rule without a refusal (a merchant habit) is inspect's to report. */
const refusing = (rules: readonly RequestRule[]): RequestRule[] => rules.filter((r) => r.refusals.length > 0);
const MOCK_HEAD_RULES = refusing(HEAD_RULES);
const MOCK_HEAD_RULES_NO_ACCEPT = MOCK_HEAD_RULES.filter((r) => r.id !== acceptHeader.id);
const MOCK_BODY_RULES = refusing(BODY_RULES);

/** Throws the refusal of the first rule that fails. */
function enforce(rules: readonly RequestRule[], request: RequestUnderTest, broken: Breakage): void {
  const failed = firstFailure(rules, request, broken.bent);
  if (failed) throw refusal(failed.rule, failed.evidence);
}

export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const windowSeconds = options.windowSeconds ?? 300;
  const prefix = (options.prefix ?? '').replace(/\/+$/, '');
  const context: RuleContext = {
    merchants: options.merchants ?? [testMerchant()],
    windowSeconds,
    now: options.now ?? Date.now,
    nonces: new NonceStore(windowSeconds),
    prefix: options.anyPrefix ? undefined : prefix,
    maxBodyBytes: MAX_BODY_BYTES,
    explain: false,
  };
  const broken = breakageOf(options.defect);
  const given = options.answers ?? SPEC_ANSWERS;
  const format: AnswerFormat = broken.breaks('answer-media-type') ? { ...given, mediaType: 'application/json' } : given;
  const names = options.answerFields ?? {};
  const headRules = options.acceptRequired === false ? MOCK_HEAD_RULES_NO_ACCEPT : MOCK_HEAD_RULES;
  const orders = new OrderStore(options.maxOrders ?? 100_000);
  let serial = 0;
  const callbacks = new CallbackSender(options.callbacks ?? {}, options.log, broken);
  /** An order reached its final status: announced once, by callback where it carried a URL. */
  function finalized(order: Order): void {
    if (order.announced || order.callbackUrl === undefined) return;
    order.announced = true;
    // The callback says the order is final: so does status from now on.
    order.statusRequests = Math.max(order.statusRequests, 1);
    const merchant = context.merchants.find((m) => m.login === order.merchantLogin);
    if (merchant) callbacks.final({ facts: callbackFacts(order), callbackUrl: order.callbackUrl, merchant });
  }
  /** The signed fields of the customer's return to redirect_url, once the hosted page is paid. */
  function returnFields(order: Order): Pair[] | undefined {
    const merchant = context.merchants.find((m) => m.login === order.merchantLogin);
    if (order.redirectUrl === undefined || merchant === undefined) return undefined;
    return signedReturn(callbackFacts(order), merchant.merchantControlKey, broken);
  }

  /** The message of a refusal, as a broken mock may leak into it. */
  function messageOf(err: MockError, request: RequestUnderTest | undefined): string {
    let message = err.message;
    if (err.code === 'CONTROL_INVALID' && broken.breaks('no-control-key-in-answer'))
      message += ` (SHA-1 of the formula's fields, then ${request?.merchant?.merchantControlKey})`;
    const pan = broken.breaks('no-full-pan-in-answer') ? request?.field('credit_card_number') : undefined;
    return pan === undefined ? message : `${message} (card ${pan})`;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const serialNumber = `mock-${++serial}`;
    const started = options.log ? performance.now() : 0;
    let request: RequestUnderTest | undefined;
    try {
      const pathname = (req.url ?? '/').split('?')[0];
      // The customer's pages sit beside the API, under the prefix the order was made with.
      const customerPage =
        pathname.includes('/checkout/') || pathname.includes('/3ds/') ? customerPageOf(pathname) : undefined;
      if (customerPage && (options.anyPrefix || customerPage.prefix === prefix)) {
        await serveCustomerPage(req, res, customerPage, orders, { finalized, returnFields });
        return logRequest(
          options.log,
          started,
          req.method,
          undefined,
          res.statusCode,
          `${customerPage.kind} ${customerPage.orderId}`,
        );
      }
      const origin = options.publicUrl?.replace(/\/+$/, '') ?? `http://${req.headers.host ?? 'localhost'}`;
      request = new RequestUnderTest(
        {
          method: req.method ?? 'GET',
          url: `${origin}${req.url ?? ''}`,
          headers: req.headers as Record<string, string | undefined>,
        },
        context,
      );
      enforce(headRules, request, broken);
      const { body, tooLarge } = await readBody(req);
      enforce(MOCK_BODY_RULES, request.withBody(body, tooLarge), broken);
      const match = request.match!;
      const answer = runOperation({
        endpoint: match.endpoint,
        params: request.params!,
        merchant: request.merchant!,
        orders,
        serialNumber,
        publicBase: `${origin}${match.prefix}`,
        broken,
        finalized,
      });
      send(res, 200, answer, {}, format, names);
      logRequest(options.log, started, req.method, match, 200, `order ${answer['paynet-order-id']}`);
    } catch (err) {
      const match = request?.match;
      // A broken mock (validation-error-status) crashes on a field problem instead of refusing it.
      if (err instanceof MockError && !(broken.breaks('validation-error-status') && err.code.startsWith('FIELD_'))) {
        if (err.status === 413) closeAfterAnswer(req, res);
        send(
          res,
          err.status,
          {
            type: err.status >= 500 ? 'error' : 'validation-error',
            'error-code': err.code,
            'error-message': messageOf(err, request),
            'serial-number': serialNumber,
            ...(err.field ? { field: err.field } : {}),
          },
          err.status === 405 ? { allow: 'POST' } : err.status === 413 ? { connection: 'close' } : {},
          format,
          names,
        );
        return logRequest(options.log, started, req.method, match, err.status, err.code);
      }
      send(
        res,
        500,
        {
          type: 'error',
          'error-code': 'SERVER_ERROR',
          'error-message': 'internal error of the mock gateway',
          'serial-number': serialNumber,
        },
        {},
        format,
        names,
      );
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
    callbacks,
    close: () =>
      new Promise<void>((resolve) => {
        callbacks.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
