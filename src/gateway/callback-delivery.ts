/**
 * Sending one gateway callback to a merchant's handler (docs/callbacks.md, A-31), as the mock and
 * inspect --callback-checks both do: an HTTP GET with the fields added to the URL's own query, as
 * the public gateways send it (or a form-encoded POST where a profile asks), a time-out, loopback or
 * explicitly allowed hosts only (a mock must not be made to call arbitrary hosts). Nothing here
 * logs a field value.
 */
import { request as httpRequest, type ClientRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { CallbackMethod } from '../catalogue/index.ts';
import { encodeForm, type Pair } from '../signing/form-body.ts';
import { DEFAULT_MAX_ANSWER_BYTES } from '../capped-answer.ts';

export interface SendOutcome {
  /** The handler's HTTP status, when it answered. */
  readonly status?: number;
  /** Why there is no status: `timeout` (no whole answer by the deadline), a socket error code, or the host rule. */
  readonly error?: string;
  /** Where a 3xx answer sends the browser (a customer return's handler is judged by it). */
  readonly location?: string;
}

/**
 * A host as compared: lower case, without IPv6 brackets, and without one trailing dot, since
 * `shop.test.` (the name written from the DNS root) is the same name as `shop.test`.
 */
const comparable = (host: string): string =>
  host
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');

/**
 * Loopback addresses, `localhost`, or a host given in `allowed` (the same name, case-insensitive, a trailing dot or
 * not).
 */
export function callbackHostAllowed(url: URL, allowed: readonly string[]): boolean {
  const host = comparable(url.hostname);
  if (host === 'localhost' || allowed.some((h) => comparable(h) === host)) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/** The target recorded for a callback URL that is no http(s) URL: its text stays out (it may carry a token). */
export const NO_CALLBACK_TARGET = '(no http(s) URL)';

/** Where a callback went, for logs and reports: origin and path, never the query (it may carry a token). */
export const callbackTarget = (url: URL): string => `${url.origin}${url.pathname}`;

/**
 * The URL a GET callback goes to: the merchant's URL, its own query kept as it is ("customizable"
 * URL), the callback's fields added after it with `&` (after `?` when it has none).
 */
export function callbackGetUrl(url: URL, pairs: readonly Pair[]): string {
  const base = url.href.replace(/#.*$/, '');
  const joiner = url.search === '' ? (base.endsWith('?') ? '' : '?') : '&';
  return `${base}${joiner}${encodeForm(pairs)}`;
}

/** How a callback is sent, and how long and how much of the handler's answer is waited for. */
export interface SendSettings {
  readonly method: CallbackMethod;
  /** The deadline of the whole exchange, from connecting to the answer's last byte (not an idle timer). */
  readonly timeoutMs: number;
  /** Answer bytes read (default DEFAULT_MAX_ANSWER_BYTES): past them the connection is closed, the status stands. */
  readonly maxAnswerBytes?: number | undefined;
  /** Ends the exchange at once (a mock or inspect that closes): resolves as a time-out. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Sends the pairs by `method`; resolves with the status or the reason there is none (never rejects). An answer
 * not whole by the deadline is a time-out, as a gateway that retries takes it; its body is read, never kept.
 */
export function sendCallback(
  url: URL,
  pairs: readonly Pair[],
  { method, timeoutMs, maxAnswerBytes = DEFAULT_MAX_ANSWER_BYTES, signal }: SendSettings,
): Promise<SendOutcome> {
  const body = method === 'POST' ? encodeForm(pairs) : undefined;
  const target = method === 'GET' ? callbackGetUrl(url, pairs) : url;
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const headers =
    body === undefined
      ? { 'user-agent': 'payconform-callback' }
      : {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'payconform-callback',
        };
  return new Promise((resolve) => {
    let settled = false;
    let req: ClientRequest | undefined;
    const timeOut = (): void => settle({ error: 'timeout' });
    const timer = setTimeout(timeOut, timeoutMs);
    signal?.addEventListener('abort', timeOut, { once: true });
    // The first outcome stands; the connection goes with it, so nothing of the handler's is left open.
    function settle(outcome: SendOutcome): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', timeOut);
      req?.destroy();
      resolve(outcome);
    }
    try {
      req = send(target, { method, headers }, (res) => {
        const location = res.headers.location;
        const answered: SendOutcome = { status: res.statusCode ?? 0, ...(location === undefined ? {} : { location }) };
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > maxAnswerBytes) settle(answered);
        });
        res.once('end', () => settle(answered));
        res.once('error', () => settle(answered));
      });
      req.once('error', (err: NodeJS.ErrnoException) => settle({ error: err.code ?? err.message }));
      req.end(body);
    } catch (err) {
      // node:http throws at once for what it cannot send (a scheme other than http or https, a bad port).
      const failed = err as NodeJS.ErrnoException;
      settle({ error: failed.code ?? failed.message });
    }
    if (signal?.aborted) timeOut();
  });
}
