/**
 * The embedded mock gateway on node:http. Every request is judged by the rule book
 * (src/rules/book.ts) in its order, and the first failure is answered with that rule's refusal:
 * POST only (405), a known path (404), Accept (406), content type (415), then, with the body read,
 * its size (413) and form encoding (400), the endpoint id and authentication (400), the fields, and
 * then the operation with its order rules. A client mistake is never a 500. Behind inspect, a
 * request is answered from inspect's judgement instead (answerJudged): it is judged once.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SPEC_ANSWERS, type AnswerFormat } from '../catalogue/answer-format.ts';
import type { PathMatch } from '../catalogue/index.ts';
import { BODY_RULES, HEAD_RULES } from '../rules/book.ts';
import { acceptHeader } from '../rules/http.ts';
import type { Merchant } from '../rules/merchant.ts';
import { NonceStore } from '../rules/nonces.ts';
import { addressedOrigin, RequestUnderTest, type RuleContext } from '../rules/request.ts';
import type { Judgement, RequestRule } from '../rules/run.ts';
import { customerPageOf } from '../gateway/customer-pages.ts';
import { MAX_BODY_BYTES } from '../gateway/body-limit.ts';
import { testMerchant } from '../gateway/merchants.ts';
import { deliverWithFault } from '../gateway/fault-delivery.ts';
import type { FaultSettings } from '../gateway/fault-settings.ts';
import { FaultPlan, faultWords, pickFault, reachesGateway, type Fault } from '../gateway/faults.ts';
import type { Pair } from '../signing/form-body.ts';
import { serveCustomerPage } from './serve-customer-page.ts';
import { withDefect, type Defect } from './defects.ts';
import { internalErrorAnswer, MockError, refusal } from './mock-error.ts';
import { runOperation, type AcceptedRequest } from './operations.ts';
import { OrderStore, type Order } from './orders.ts';
import { callbackFacts, CallbackSender, signedReturn, type CallbackSettings } from './callbacks.ts';
import { answerWriter, PLAIN_GATE, PLAIN_SIGNER, type Gate, type MockAnswer, type WrittenAnswer } from './seams.ts';
import { ADMIN_PREFIX, newAdminToken } from './admin.ts';
import { mockAdmin } from './admin-mock.ts';
import { MockClock } from './clock.ts';

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
  /** The clock's offset from `now` at start (`mock --clock`, clock.ts; default 0). */
  readonly clockOffsetMs?: number;
  /** The admin route's token (admin.ts; default a random one per run). */
  readonly adminToken?: string;
  /** Faults and latency for the whole run, seeded (gateway/faults.ts; `--faults FILE`, a profile's `faults`). */
  readonly faults?: FaultSettings;
}

/** What goes back for a judged request: the answer, its fault, or only the fault where the gateway never got it. */
export type JudgedDelivery =
  | { readonly written: WrittenAnswer; readonly fault: undefined }
  | { readonly written: WrittenAnswer | undefined; readonly fault: Fault };

export interface RunningMock {
  readonly url: string;
  readonly orders: OrderStore;
  /** Every callback attempt so far, and a way to wait for those under way. */
  readonly callbacks: Pick<CallbackSender, 'deliveries' | 'idle'>;
  /**
   * Answers a request someone else has judged by every request rule (inspect, in front of this mock):
   * the first refusing rule that failed is refused, else the operation runs; nothing is judged again.
   */
  answerJudged(request: RequestUnderTest, judgements: readonly Judgement[]): WrittenAnswer;
  /** The mock's clock, which the OAuth window and callback retries read (clock.ts). */
  readonly clock: MockClock;
  /** The token the admin route asks for (admin.ts): not a merchant secret, never logged. */
  readonly adminToken: string;
  /** Serves a request under /_payconform/ (events on demand, the clock): inspect's listener hands them here. */
  serveAdmin(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /**
   * answerJudged with the fault the request gets (its magic client_orderid, or the run's faults), drawn once: no
   * written answer where the gateway never gets the request (a reset, a proxy's 502 or 503).
   */
  deliveryJudged(request: RequestUnderTest, judgements: readonly Judgement[]): JudgedDelivery;
  close(): Promise<void>;
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
  status: number | '-',
  outcome: string,
): void {
  if (log === undefined) return;
  const id = (m: PathMatch): string => (m.group === true ? `group/${m.endpointId}` : m.endpointId);
  const path = match ? `${match.prefix}${match.endpoint.path.replace('{endpointId}', id(match))}` : '-';
  const ms = (performance.now() - started).toFixed(1);
  const operation = match?.endpoint.operation ?? '-';
  log(`${new Date().toISOString()} ${String(method).slice(0, 10)} ${path} ${status} ${operation} ${outcome} ${ms}ms`);
}

/** The body as read: all of it, or the bytes seen where it is larger than the rules allow (not read further). */
interface ReadBody {
  readonly body?: Buffer;
  readonly tooLarge?: number;
}

/**
 * Reads the body and hands it to `done` once (an error of the stream as an Error). A callback, not a promise:
 * on the mock's hot path each promise and its microtask is work the minimal verifying server does not do.
 */
function readBody(req: IncomingMessage, done: (read: ReadBody | Error) => void): void {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > MAX_BODY_BYTES) return done({ tooLarge: declared });
  const chunks: Buffer[] = [];
  let size = 0;
  let settled = false;
  const settle = (read: ReadBody | Error): void => {
    if (settled) return;
    settled = true;
    done(read);
  };
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      req.removeAllListeners('data');
      settle({ tooLarge: size });
    } else chunks.push(chunk);
  });
  // `on`, not `once`: settle answers once already, and `once` wraps each listener anew per request.
  req.on('end', () => settle({ body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks) }));
  req.on('error', (err: Error) => settle(err));
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
function enforce(rules: readonly RequestRule[], request: RequestUnderTest, gate: Gate): void {
  const failed = gate.firstFailure(rules, request);
  if (failed) throw refusal(failed.rule, failed.evidence);
}

/** A request the refusing rules let through: its endpoint and merchant, which they made sure of. */
function accepted(request: RequestUnderTest): AcceptedRequest {
  const { match, merchant } = request;
  if (match === undefined || merchant === undefined)
    throw new MockError(500, 'SERVER_ERROR', 'a request passed the rules without its endpoint or merchant');
  return { request, endpoint: match.endpoint, merchant };
}

/** The answer to a refusal: a ValidationErrorResponse (4xx) or ServerErrorResponse (500). */
function refusalAnswer(err: MockError, serialNumber: string): MockAnswer {
  return {
    status: err.status,
    body: {
      type: err.status >= 500 ? 'error' : 'validation-error',
      'error-code': err.code,
      'error-message': err.message,
      'serial-number': serialNumber,
      ...(err.field ? { field: err.field } : {}),
    },
    headers: err.status === 405 ? { allow: 'POST' } : err.status === 413 ? { connection: 'close' } : {},
  };
}

/** The request log's last column: the order an answer made, or the code it refused with. */
const logOutcome = ({ status, body }: MockAnswer): string =>
  status === 200 ? `order ${body['paynet-order-id']}` : (body['error-code'] ?? '-');

export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const windowSeconds = options.windowSeconds ?? 300;
  const prefix = (options.prefix ?? '').replace(/\/+$/, '');
  const clock = new MockClock(options.now ?? Date.now, options.clockOffsetMs ?? 0);
  const context: RuleContext = {
    merchants: options.merchants ?? [testMerchant()],
    windowSeconds,
    now: clock.now,
    nonces: new NonceStore(windowSeconds),
    prefix: options.anyPrefix ? undefined : prefix,
    maxBodyBytes: MAX_BODY_BYTES,
    explain: false,
  };
  // A deliberately broken mock is the same mock with its seams wrapped (defects.ts).
  const seams = withDefect(options.defect, {
    gate: PLAIN_GATE,
    write: answerWriter(options.answers ?? SPEC_ANSWERS, options.answerFields ?? {}),
    sign: PLAIN_SIGNER,
    callbacks: options.callbacks ?? {},
  });
  const headRules = options.acceptRequired === false ? MOCK_HEAD_RULES_NO_ACCEPT : MOCK_HEAD_RULES;
  const orders = new OrderStore(options.maxOrders ?? 100_000);
  let serial = 0;
  const refusing = new Set(headRules.concat(MOCK_BODY_RULES).map((r) => r.id));
  const callbacks = new CallbackSender(seams.callbacks, options.log, seams.sign, clock);
  // Events on demand go out even where onFinal replaces the mock's callbacks (inspect --callback-checks).
  const { onFinal, ...ownCallbacks } = seams.callbacks;
  const eventSender = onFinal ? new CallbackSender(ownCallbacks, options.log, seams.sign, clock) : callbacks;
  const adminToken = options.adminToken ?? newAdminToken();
  const admin = mockAdmin({
    token: adminToken,
    orders,
    merchants: context.merchants,
    clock,
    sender: eventSender,
    log: options.log,
  });
  const faultPlan = options.faults === undefined ? undefined : new FaultPlan(options.faults);
  /** The fault of a request the rules let through (faults.ts): on the hot path, one startsWith. */
  const faultOf = (request: RequestUnderTest): Fault | undefined =>
    request.match === undefined
      ? undefined
      : pickFault(faultPlan, request.clientOrderId, request.match.endpoint.operation);
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
    return signedReturn(callbackFacts(order), merchant.merchantControlKey, seams.sign);
  }

  /** The origin clients reach this mock at: the one they addressed, unless a public URL is given. */
  const originOf = (host: string | undefined): string =>
    options.publicUrl?.replace(/\/+$/, '') ?? addressedOrigin(host);

  /** The operation's answer to a request the rules let through. */
  function operationAnswer(request: RequestUnderTest, serialNumber: string): MockAnswer {
    const body = runOperation(accepted(request), {
      orders,
      serialNumber,
      publicBase: `${originOf(request.seen.headers.host)}${request.match?.prefix ?? ''}`,
      gate: seams.gate,
      finalized,
    });
    return { status: 200, body };
  }

  /** What a thrown refusal (or any other fault, the mock's own) is answered with. */
  const faultAnswer = (err: unknown, serialNumber: string): MockAnswer =>
    err instanceof MockError ? refusalAnswer(err, serialNumber) : internalErrorAnswer(serialNumber);

  function answerJudged(request: RequestUnderTest, judgements: readonly Judgement[]): WrittenAnswer {
    const serialNumber = `mock-${++serial}`;
    let answer: MockAnswer;
    try {
      const failed = judgements.find((j) => j.outcome.outcome === 'fail' && refusing.has(j.rule.id));
      if (failed?.outcome.outcome === 'fail') throw refusal(failed.rule, failed.outcome.evidence);
      answer = operationAnswer(request, serialNumber);
    } catch (err) {
      answer = faultAnswer(err, serialNumber);
    }
    return seams.write(answer, request);
  }

  function deliveryJudged(request: RequestUnderTest, judgements: readonly Judgement[]): JudgedDelivery {
    const refused = judgements.some((j) => j.outcome.outcome === 'fail' && refusing.has(j.rule.id));
    const fault = refused ? undefined : faultOf(request);
    if (fault === undefined) return { written: answerJudged(request, judgements), fault };
    return { written: reachesGateway(fault.kind) ? answerJudged(request, judgements) : undefined, fault };
  }

  /** A page of the customer's browser (checkout, 3-D Secure), served beside the API. */
  async function customerPageAnswer(
    req: IncomingMessage,
    res: ServerResponse,
    customerPage: NonNullable<ReturnType<typeof customerPageOf>>,
    started: number,
  ): Promise<void> {
    try {
      await serveCustomerPage(req, res, customerPage, orders, { finalized, returnFields });
    } catch {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('internal error of the mock gateway\n');
    }
    const outcome = `${customerPage.kind} ${customerPage.orderId}`;
    logRequest(options.log, started, req.method, undefined, res.statusCode, outcome);
  }

  /** Writes the answer (a 413 closes the connection after it) and logs the request's line. */
  function send(
    req: IncomingMessage,
    res: ServerResponse,
    request: RequestUnderTest,
    answer: MockAnswer,
    started: number,
  ): void {
    const written = seams.write(answer, request);
    if (written.answer.status === 413) closeAfterAnswer(req, res);
    res.writeHead(written.status, written.headers);
    res.end(written.text);
    // The outcome's text is made only for a log that prints it.
    if (options.log !== undefined)
      logRequest(options.log, started, req.method, request.match, written.answer.status, logOutcome(written.answer));
  }

  /** Delivers an answer with its fault (faults.ts); the log line, once the exchange has ended, says the fault. */
  function sendFaulted(
    req: IncomingMessage,
    res: ServerResponse,
    request: RequestUnderTest,
    answer: MockAnswer | undefined,
    fault: Fault,
    started: number,
  ): void {
    const written = answer === undefined ? undefined : seams.write(answer, request);
    void deliverWithFault(res, written, fault).then((outcome) => {
      if (options.log === undefined) return;
      const ended = outcome.kind === 'answered' ? 'answered' : `lost:${outcome.fault}`;
      const made = written === undefined ? 'not-processed' : logOutcome(written.answer);
      const status = outcome.kind === 'answered' ? outcome.status : '-';
      logRequest(options.log, started, req.method, request.match, status, `${made} ${faultWords(fault)} ${ended}`);
    });
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const serialNumber = `mock-${++serial}`;
    const started = options.log ? performance.now() : 0;
    const url = req.url ?? '/';
    if (url.startsWith(ADMIN_PREFIX)) return void admin(req, res);
    // The customer's pages sit beside the API, under the prefix the order was made with.
    const query = url.indexOf('?');
    const pathname = query === -1 ? url : url.slice(0, query);
    const customerPage =
      pathname.includes('/checkout/') || pathname.includes('/3ds/') ? customerPageOf(pathname) : undefined;
    if (customerPage && (options.anyPrefix || customerPage.prefix === prefix))
      return void customerPageAnswer(req, res, customerPage, started);
    const headers = req.headers as Record<string, string | undefined>;
    const request = new RequestUnderTest(
      { method: req.method ?? 'GET', url: `${originOf(req.headers.host)}${url}`, headers },
      context,
    );
    try {
      enforce(headRules, request, seams.gate);
    } catch (err) {
      return send(req, res, request, faultAnswer(err, serialNumber), started);
    }
    readBody(req, (read) => {
      let answer: MockAnswer | undefined;
      let fault: Fault | undefined;
      try {
        if (read instanceof Error) throw read;
        enforce(MOCK_BODY_RULES, request.withBody(read.body, read.tooLarge), seams.gate);
        fault = faultOf(request);
        // A reset or a proxy's 502/503 comes before the gateway: the operation does not run.
        if (fault === undefined || reachesGateway(fault.kind)) answer = operationAnswer(request, serialNumber);
      } catch (err) {
        answer = faultAnswer(err, serialNumber);
      }
      if (fault !== undefined) sendFaulted(req, res, request, answer, fault, started);
      else if (answer !== undefined) send(req, res, request, answer, started);
    });
  }

  const server = createServer(handle);
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
    answerJudged,
    clock,
    adminToken,
    serveAdmin: admin,
    deliveryJudged,
    close: () =>
      new Promise<void>((resolve) => {
        callbacks.close();
        eventSender.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
