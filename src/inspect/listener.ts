/**
 * The listener a merchant points its integration at. Every request of the integration is judged
 * (Inspector) and forwarded unchanged: to the embedded mock (default, with the Host the integration
 * addressed, so signatures verify as sent) or to `upstream` (a sandbox, with Host rewritten to the
 * sandbox's), and the answer is relayed byte for byte. The customer's browser on the embedded mock's
 * hosted pages (checkout, 3-D Secure; the mock's customerPageOf says which paths) is served the same
 * way but never judged: its steps are kept apart, as context (customer-steps.ts). What is recorded
 * carries no secret: base strings are redacted of card data and the control key only ever appears as
 * a placeholder; a page's body (the card the customer typed) is never read.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { findPath, merchantUrlText } from '../catalogue/index.ts';
import { MAX_BODY_BYTES } from '../gateway/body-limit.ts';
import { customerPageOf, type CustomerPagePath } from '../gateway/customer-pages.ts';
import type { FinalOrder } from '../gateway/final-order.ts';
import type { Merchant } from '../gateway/merchants.ts';
import { ADMIN_PREFIX, startMock, type RunningMock } from '../mock/index.ts';
import { deliverWithFault } from '../gateway/fault-delivery.ts';
import type { FaultSettings } from '../gateway/fault-settings.ts';
import { faultWords, type Fault } from '../gateway/faults.ts';
import type { AnswerOutcome } from '../rules/history.ts';
import { redactPairsInText, withoutSecrets } from '../report/redact.ts';
import { MIN_KEY_CHARS } from '../rules/no-control-key-in-request.ts';
import { addressedOrigin, type RequestUnderTest } from '../rules/request.ts';
import { CallbackChecker, type CallbackCheckerSettings } from './callback-checks.ts';
import { customerStepOf, type CustomerStep, type PaidOrder } from './customer-steps.ts';
import { FinalOrderWatch } from './final-orders.ts';
import { ReturnChecker, type ReturnCheckerSettings } from './return-checks.ts';
import { relay, type Forwarded, type RelayBounds } from './relay.ts';
import { DEFAULT_MAX_ANSWER_BYTES, type Truncation } from '../capped-answer.ts';
import { failedChecks, Inspector, type Inspected, type RequestVerdict, type SignatureDetail } from './inspector.ts';
import type { RecordedExchange } from '../report/har.ts';

export interface InspectRecord {
  readonly seq: number;
  readonly at: string;
  readonly method: string;
  /** The path with its endpoint id; the query string is left out. */
  readonly path: string;
  readonly verdict: RequestVerdict;
  /** The answer relayed: status and the fields that say what happened (no card data). */
  readonly answer:
    | {
        readonly status: number;
        readonly type?: string;
        readonly orderStatus?: string;
        readonly paynetOrderId?: string;
        readonly errorCode?: string;
        /** The answer was larger than --max-answer-bytes: relayed whole, but only its first part read. */
        readonly truncated?: Truncation;
      }
    | { readonly error: string };
  /**
   * Set when the request was not accepted whatever inspect's checks say: the gateway answered 4xx or
   * 5xx (or not at all), or inspect itself refused to forward it. Such a request counts as failed.
   */
  readonly refused?: string;
}

export interface ListenerOptions {
  readonly merchants: readonly Merchant[];
  readonly port?: number;
  readonly host?: string;
  /** A sandbox origin to forward to, paths unchanged; by default the embedded mock. */
  readonly upstream?: string;
  readonly windowSeconds?: number;
  readonly onRecord?: (record: InspectRecord) => void;
  /** Told of each request of the customer's browser to a hosted page of the embedded mock. */
  readonly onCustomerStep?: (step: CustomerStep) => void;
  /** Hosts besides loopback the embedded mock's callbacks (and callback checks) may call. */
  readonly callbackHosts?: readonly string[];
  /** Play the gateway's callbacks against the merchant's handler (callback-checks.ts) instead of the mock's own. */
  readonly callbackChecks?: CallbackCheckerSettings;
  /** Play the payer's return against the merchant's redirect_url page (return-checks.ts). */
  readonly returnChecks?: ReturnCheckerSettings;
  /** Told of each judged exchange as it happened, before redaction (inspect --record writes it, redacted). */
  readonly onExchange?: (exchange: RecordedExchange) => void;
  /** Each relayed exchange's deadline and the answer bytes kept of it (default 30000 ms, 1 MiB). */
  readonly relayBounds?: RelayBounds;
  /** Faults and latency for the whole run, on the embedded mock's answers (gateway/faults.ts; --faults FILE). */
  readonly faults?: FaultSettings;
}

export interface RunningListener {
  readonly url: string;
  readonly target: string;
  readonly records: readonly InspectRecord[];
  /** The customer's steps on the embedded gateway's hosted pages: context, never judged (customer-steps.ts). */
  readonly customerSteps: readonly CustomerStep[];
  /** The callback checks, when asked for (--callback-checks). */
  readonly callbackChecker: CallbackChecker | undefined;
  /** The customer-return checks, when asked for (--return-checks). */
  readonly returnChecker: ReturnChecker | undefined;
  /** The embedded mock's admin token (events on demand, the clock); none behind --upstream. */
  readonly adminToken: string | undefined;
  /** The session's judge: its history (how each exchange ended, C2) is what the rules across requests read. */
  readonly inspector: Inspector;
  close(): Promise<void>;
}

const utf8 = new TextDecoder('utf-8', { fatal: false });

/** The gateway's answer as recorded: its HTTP status and its top-level text fields. */
interface Relayed {
  readonly status: number;
  readonly fields: Readonly<Record<string, string>>;
  readonly truncated?: Truncation;
  /** A fault inspect injected (a magic client_orderid or --faults) and how the exchange then ended. */
  readonly injected?: { readonly fault: Fault; readonly outcome: AnswerOutcome };
  /** The answer as the integration got it, for --record: none where a fault kept it from the integration. */
  readonly raw?: { readonly headers: Readonly<Record<string, string | undefined>>; readonly text: string };
}

/** A written answer's headers as text. */
const headerText = (headers: Readonly<Record<string, string | number>>): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, String(value)]));

/** Far above any form body of the API (the mock refuses over 64 KiB): beyond it nothing is forwarded. */
const MAX_INSPECTED_BYTES = 16 * MAX_BODY_BYTES;

/** The whole body, to be judged and forwarded unchanged (undefined when it is too large to hold), and its size. */
function readBody(req: IncomingMessage): Promise<{ body: Buffer | undefined; size: number }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_INSPECTED_BYTES) chunks.push(c);
    });
    req.once('end', () => resolve({ body: size <= MAX_INSPECTED_BYTES ? Buffer.concat(chunks) : undefined, size }));
    req.once('error', reject);
  });
}

/**
 * Card data masked wherever the request's values appear in the verdict's texts, and the merchants' control keys
 * replaced in every way they may be written: a request that sent a key (no-control-key-in-request) puts it in its
 * base string, and a rule may quote the field that held it.
 */
function redactVerdict(verdict: RequestVerdict, request: RequestUnderTest, keys: readonly string[]): RequestVerdict {
  const params = request.params ?? [];
  const clean = (s: string): string => withoutSecrets(redactPairsInText(s, params), keys);
  const cleaned = <K extends string>(key: K, s: string | undefined): { [k in K]?: string } =>
    (s === undefined ? {} : { [key]: clean(s) }) as { [k in K]?: string };
  const signed = (v: SignatureDetail['correct']): SignatureDetail['correct'] =>
    v && { ...cleaned('baseString', v.baseString), ...cleaned('controlInput', v.controlInput) };
  return {
    ...verdict,
    ...cleaned('clientOrderId', verdict.clientOrderId),
    checks: verdict.checks.map((c) => {
      const texts = {
        ...cleaned('message', c.message),
        ...cleaned('expected', c.expected),
        ...cleaned('actual', c.actual),
      };
      if (!c.signature) return { ...c, ...texts };
      const { correct, sent, explanation } = c.signature;
      return {
        ...c,
        ...texts,
        signature: {
          ...c.signature,
          ...(correct ? { correct: signed(correct) } : {}),
          ...(sent ? { sent: signed(sent) } : {}),
          ...cleaned('explanation', explanation),
        },
      };
    }),
  };
}

export async function startListener(options: ListenerOptions): Promise<RunningListener> {
  const allowedHosts = options.callbackHosts ?? [];
  const checker = options.callbackChecks ? new CallbackChecker({ allowedHosts, ...options.callbackChecks }) : undefined;
  // The embedded mock tells the checker of each final order; without checks it posts its own callbacks.
  // Events on demand (payconform trigger) go by the mock's own sender, as the checks' callbacks go.
  const method = options.callbackChecks?.method;
  const callbacks = checker
    ? { allowedHosts, ...(method ? { method } : {}), onFinal: (order: FinalOrder) => checker.check(order) }
    : { allowedHosts };
  const mock: RunningMock | undefined =
    options.upstream === undefined
      ? await startMock({
          merchants: options.merchants,
          windowSeconds: options.windowSeconds,
          anyPrefix: true,
          callbacks,
          ...(options.faults === undefined ? {} : { faults: options.faults }),
        })
      : undefined;
  // Upstream, inspect learns an order is final from a status answer it relays.
  const finalOrders =
    checker && options.upstream !== undefined ? new FinalOrderWatch((order) => checker.check(order)) : undefined;
  // Returns go where a request's redirect_url says, once a status answer or a paid checkout makes its order final.
  const returnChecker = options.returnChecks ? new ReturnChecker({ allowedHosts, ...options.returnChecks }) : undefined;
  const returnOrders = returnChecker
    ? new FinalOrderWatch(
        (order) => returnChecker.check(order),
        (request) => merchantUrlText(request.field('redirect_url')),
      )
    : undefined;
  const gatewayUrl = options.upstream ?? mock?.url;
  if (gatewayUrl === undefined)
    throw new Error('inspect: no gateway to answer, neither upstream nor the embedded mock');
  const upstreamUrl = new URL(gatewayUrl);
  // The embedded mock's clock, which the admin route advances, is the one the OAuth window is judged by.
  const inspector = new Inspector({
    merchants: options.merchants,
    windowSeconds: options.windowSeconds,
    ...(mock === undefined ? {} : { now: mock.clock.now }),
  });
  // The keys the rule looks for (a shorter one would redact every word that holds it: "k" in a test's file).
  const controlKeys = options.merchants.map((m) => m.merchantControlKey).filter((k) => k.length >= MIN_KEY_CHARS);
  // undici's own timers are idle timers: each relay's deadline is its AbortSignal (relay.ts).
  const dispatcher = new Agent({ connect: { timeout: 10_000 } });
  const bounds = options.relayBounds ?? { timeoutMs: 30_000, maxAnswerBytes: DEFAULT_MAX_ANSWER_BYTES };
  const records: InspectRecord[] = [];
  const target = options.upstream === undefined ? 'the embedded mock gateway' : upstreamUrl.origin;
  const customerSteps: CustomerStep[] = [];
  let seq = 0;
  // The embedded mock sees the Host the integration addressed, so signatures verify as sent; a sandbox sees its own.
  const hostFor = (req: IncomingMessage): string =>
    options.upstream === undefined ? (req.headers.host ?? upstreamUrl.host) : upstreamUrl.host;

  /** The customer's browser on the embedded gateway's hosted pages: served, shown apart, never judged. */
  async function serveCustomerStep(
    req: IncomingMessage,
    res: ServerResponse,
    page: CustomerPagePath,
    sent: Forwarded,
    orderOf: (orderId: string) => PaidOrder | undefined,
  ): Promise<void> {
    // Recorded shortened, as a request's method is; sent on as it came.
    const method = (req.method ?? '?').slice(0, 10);
    const step = await relay(res, `${upstreamUrl.origin}${req.url ?? '/'}`, sent, dispatcher, bounds)
      .then((r) => customerStepOf(page, method, r.statusCode, orderOf(page.orderId)))
      .catch(() => {
        if (res.headersSent) res.destroy();
        else {
          res.writeHead(502, { 'content-type': 'text/plain' });
          res.end('payconform inspect: no answer from the embedded mock gateway\n');
        }
        return customerStepOf(page, method, undefined, undefined);
      });
    customerSteps.push(step);
    if (step.paid) returnOrders?.paid(step.orderId, step.paid.orderStatus);
    options.onCustomerStep?.(step);
  }

  /** The gateway's answer to a judged request: the embedded mock's, from inspect's judgement, or the sandbox's. */
  async function answerOf(
    res: ServerResponse,
    request: RequestUnderTest,
    judgements: Inspected['judgements'],
    to: string,
    sent: Forwarded,
  ): Promise<Relayed> {
    if (mock !== undefined) {
      const delivery = mock.deliveryJudged(request, judgements);
      if (delivery.fault !== undefined) {
        // Injected on purpose (gateway/faults.ts): the integration sees the fault, the history hears how it ended.
        const { written, fault } = delivery;
        const outcome = await deliverWithFault(res, written, fault);
        const status = outcome.kind === 'answered' ? outcome.status : (written?.status ?? 0);
        const raw =
          outcome.kind === 'answered' && written
            ? { headers: headerText(written.headers), text: written.text }
            : undefined;
        return { status, fields: written?.answer.body ?? {}, injected: { fault, outcome }, ...(raw ? { raw } : {}) };
      }
      const { written } = delivery;
      res.writeHead(written.status, written.headers);
      res.end(written.text);
      return {
        status: written.status,
        fields: written.answer.body,
        raw: { headers: headerText(written.headers), text: written.text },
      };
    }
    const r = await relay(res, to, sent, dispatcher, bounds);
    let parsed: Record<string, unknown> = {};
    try {
      parsed = JSON.parse(utf8.decode(r.text)) as Record<string, unknown>;
    } catch {
      /* not JSON: only the status is recorded */
    }
    const fields: Record<string, string> = {};
    for (const [name, value] of Object.entries(parsed)) if (typeof value === 'string') fields[name] = value;
    return {
      status: r.statusCode,
      fields,
      ...(r.truncated === undefined ? {} : { truncated: r.truncated }),
      raw: { headers: r.headers, text: utf8.decode(r.text) },
    };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // The admin route (events on demand, the clock) is the embedded mock's: not judged, not recorded.
    if ((req.url ?? '').startsWith(ADMIN_PREFIX)) return adminAnswer(req, res);
    // Whether the integration closed its connection before the answer was all written: it gave up waiting.
    let clientLeft = false;
    res.once('close', () => (clientLeft = !res.writableFinished));
    const { body, size } = await readBody(req);
    const headers: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(req.headers))
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
    const method = req.method ?? 'GET';
    // Upstream, the sandbox verifies an OAuth signature against its own URL (the path unchanged),
    // so that is the URL the signature is judged for.
    const signedFor = options.upstream === undefined ? undefined : `${upstreamUrl.origin}${req.url ?? '/'}`;
    const request = inspector.request({
      method,
      url: `${addressedOrigin(req.headers.host)}${req.url ?? '/'}`,
      headers,
      ...(body === undefined ? { bodyBytes: size } : { body }),
      ...(signedFor ? { signedFor } : {}),
    });
    const pathname = request.pathname;
    const recordOf = (verdict: RequestVerdict, answer: InspectRecord['answer'], refused: string | undefined): void => {
      const record: InspectRecord = {
        seq: ++seq,
        at: new Date().toISOString(),
        method: (req.method ?? '?').slice(0, 10),
        path: findPath(pathname) ? pathname : pathname.slice(0, 120),
        verdict,
        answer,
        ...(refused ? { refused } : {}),
      };
      records.push(record);
      options.onRecord?.(record);
    };
    const customerPage = mock === undefined ? undefined : customerPageOf(pathname);
    if (customerPage && body !== undefined && mock !== undefined) {
      const sent = { method, headers, host: hostFor(req), body };
      return serveCustomerStep(req, res, customerPage, sent, (id) => mock.orders.byId(id));
    }
    if (body === undefined) {
      // Too large to hold, so not forwarded: judged by its size (the body-size rule fails) and counted.
      const refused = `inspect answered 413: a body of ${size} bytes is over ${MAX_INSPECTED_BYTES}, not forwarded`;
      res.writeHead(413, { 'content-type': 'text/plain' });
      res.end(`payconform ${refused}\n`);
      recordOf(redactVerdict(inspector.inspect(request).verdict, request, controlKeys), { status: 413 }, refused);
      return;
    }
    const { verdict: judged, judgements } = inspector.inspect(request);
    const verdict = redactVerdict(judged, request, controlKeys);
    if (options.upstream !== undefined && verdict.critical) {
      // A secret sent (A-44) is not carried further: each proxy and log between here and the sandbox would keep it.
      const refused = `inspect answered 400: a critical finding (a secret in the request), not forwarded`;
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end(`payconform ${refused}\n`);
      recordOf(verdict, { status: 400 }, refused);
      return;
    }

    let answer: InspectRecord['answer'];
    let refused: string | undefined;
    const startedAt = new Date();
    const t0 = performance.now();
    let raw: Relayed['raw'];
    try {
      const {
        status,
        fields,
        truncated,
        injected,
        raw: got,
      } = await answerOf(res, request, judgements, `${upstreamUrl.origin}${req.url ?? '/'}`, {
        method,
        headers,
        host: hostFor(req),
        body,
      });
      const outcome: AnswerOutcome =
        injected?.outcome ?? (clientLeft ? { kind: 'lost', fault: 'client-gave-up' } : { kind: 'answered', status });
      raw = outcome.kind === 'answered' ? got : undefined;
      answer = {
        status,
        ...(fields.type ? { type: fields.type } : {}),
        ...(fields.status ? { orderStatus: fields.status } : {}),
        ...(fields['paynet-order-id'] ? { paynetOrderId: fields['paynet-order-id'] } : {}),
        ...(fields['error-code'] ? { errorCode: fields['error-code'] } : {}),
        ...(truncated === undefined ? {} : { truncated }),
      };
      const code = fields['error-code'];
      // An injected fault was asked for: it is not the gateway refusing the integration's request.
      if (status >= 400 && injected === undefined) refused = `${target} answered ${status}${code ? ` ${code}` : ''}`;
      if (injected !== undefined && injected.outcome.kind === 'lost')
        answer = { error: `no whole answer: ${faultWords(injected.fault)}, ${injected.outcome.fault}` };
      else {
        finalOrders?.saw(request, answer);
        returnOrders?.saw(request, answer);
      }
      inspector.answered(request, outcome);
    } catch (err) {
      const gaveUp = clientLeft;
      const code = (err as { code?: string }).code ?? 'error';
      // Read before inspect writes its own 502: whether part of the gateway's answer had gone on.
      const cut = res.headersSent;
      // Once part of the answer went on, the caller must see it cut, not finished with inspect's own text.
      if (cut) res.destroy();
      else {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`payconform inspect: no answer from ${upstreamUrl.origin} (${code})\n`);
      }
      answer = { error: `no answer from ${upstreamUrl.origin} (${code})` };
      refused = `${target} did not answer (${code})`;
      // Whether the gateway moved money is unknown to the integration: its next request for the order is judged so.
      inspector.answered(request, {
        kind: 'lost',
        fault: gaveUp ? 'client-gave-up' : cut ? 'lost-answer' : 'timeout',
      });
    }
    recordOf(verdict, answer, refused);
    options.onExchange?.({
      startedAt,
      ms: performance.now() - t0,
      method,
      url: `${addressedOrigin(req.headers.host)}${req.url ?? '/'}`,
      requestHeaders: headers,
      body: body.toString('utf8'),
      ...(raw === undefined ? {} : { answer: { status: answer && 'status' in answer ? answer.status : 0, ...raw } }),
      verdict: { passed: verdict.passed, failed: failedChecks(verdict).map((c) => c.id) },
    });
  }

  async function adminAnswer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (mock !== undefined) return mock.serveAdmin(req, res);
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(
      `${JSON.stringify({ error: 'events and the clock need the embedded mock: inspect without --upstream' })}\n`,
    );
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (res.headersSent) return void res.destroy();
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('payconform inspect: internal error\n');
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
    });
  } catch (err) {
    // Nothing may keep the process alive after a listener that could not start (a busy port).
    await dispatcher.destroy();
    await mock?.close();
    throw err;
  }
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
    target,
    records,
    customerSteps,
    callbackChecker: checker,
    returnChecker,
    adminToken: mock?.adminToken,
    inspector,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      // Relays and callbacks still under way are cut, not awaited: an upstream or a handler that never answers
      // cannot hold inspect open.
      checker?.close();
      returnChecker?.close();
      await dispatcher.destroy();
      await mock?.close();
    },
  };
}
