/**
 * Posting one gateway callback to a merchant's handler (docs/callbacks.md, A-31), as the mock and
 * inspect --callback-checks both do: form-encoded, a time-out, loopback or explicitly allowed hosts
 * only (a mock must not be made to call arbitrary hosts). Nothing here logs a field value.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { encodeForm, type Pair } from '../signing/form-body.ts';

export interface PostOutcome {
  /** The handler's HTTP status, when it answered. */
  readonly status?: number;
  /** Why there is no status: `timeout`, a socket error code, or the host rule. */
  readonly error?: string;
}

const LOOPBACK_NAMES = new Set(['localhost', 'localhost.']);

/** Loopback addresses and names, or a host given in `allowed` (exact, case-insensitive). */
export function callbackHostAllowed(url: URL, allowed: readonly string[]): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (LOOPBACK_NAMES.has(host) || allowed.some((h) => h.toLowerCase() === host)) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/** Where a callback went, for logs and reports: origin and path, never the query (it may carry a token). */
export const callbackTarget = (url: URL): string => `${url.origin}${url.pathname}`;

/** Posts the pairs; resolves with the status or the reason there is none (never rejects). */
export function postCallback(url: URL, pairs: readonly Pair[], timeoutMs: number): Promise<PostOutcome> {
  const body = encodeForm(pairs);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const req = send(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body), 'user-agent': 'payconform-callback' },
      timeout: timeoutMs,
    }, (res) => {
      res.resume();
      res.once('end', () => resolve({ status: res.statusCode ?? 0 }));
      res.once('error', () => resolve({ status: res.statusCode ?? 0 }));
    });
    req.once('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'timeout' })));
    req.once('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    req.end(body);
  });
}
