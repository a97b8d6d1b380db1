/**
 * inspect --callback-state URL (docs/inspect.md, A-57): what the merchant's shop holds as paid for an order,
 * asked with `GET URL?client_orderid=ID` (the URL's own query kept) and read from a JSON answer
 * `{"paid": "10.00"}`, the net amount (negative after a chargeback of more than was booked). The shop's answer is
 * hostile input: bounded in time and size, parsed defensively, and whatever is wrong with it is a reason
 * (`unreadable`), never a throw; no value of it is ever repeated.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { callbackGetUrl, callbackHostAllowed } from '../gateway/callback-delivery.ts';

/** What the shop holds as paid, in cents, or why it is not known. */
export type PaidState = { readonly cents: bigint } | { readonly unreadable: string };

export interface StateSettings {
  /** Hosts besides loopback the state URL may be on (--callback-hosts). */
  readonly allowedHosts?: readonly string[];
  /** From connecting to the answer's last byte (default 2000 ms). */
  readonly timeoutMs?: number;
  /** Answer bytes read (default 64 KiB): a larger answer is unreadable. */
  readonly maxAnswerBytes?: number;
  readonly signal?: AbortSignal;
}

export const DEFAULT_STATE_TIMEOUT_MS = 2000;
export const DEFAULT_STATE_MAX_BYTES = 64 * 1024;

/** A signed decimal amount with up to two decimals: what `paid` must be ("10.00", "-5", "0.5"). */
const PAID = /^(-?)([0-9]{1,15})(?:\.([0-9]{1,2}))?$/;

/** The cents of a `paid` value, or why it is none (its type named, never its value). */
export function paidCents(value: unknown): PaidState {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string') return { unreadable: `"paid" is ${value === undefined ? 'missing' : typeof value}` };
  const m = PAID.exec(text);
  if (m === null) return { unreadable: '"paid" is no amount such as "10.00"' };
  const [, sign, whole = '0', decimals = ''] = m;
  const cents = BigInt(whole) * 100n + BigInt(decimals.padEnd(2, '0'));
  return { cents: sign === '-' ? -cents : cents };
}

/** Reads the shop's state for one order; resolves with the cents or the reason (never rejects). */
export function readPaid(stateUrl: URL, clientOrderId: string, settings: StateSettings = {}): Promise<PaidState> {
  if (!callbackHostAllowed(stateUrl, settings.allowedHosts ?? []))
    return Promise.resolve({ unreadable: 'the state URL is not on a loopback host nor one of --callback-hosts' });
  const timeoutMs = settings.timeoutMs ?? DEFAULT_STATE_TIMEOUT_MS;
  const maxBytes = settings.maxAnswerBytes ?? DEFAULT_STATE_MAX_BYTES;
  const send = stateUrl.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const timeOut = (): void => settle({ unreadable: `no whole answer within ${timeoutMs} ms` });
    const timer = setTimeout(timeOut, timeoutMs);
    settings.signal?.addEventListener('abort', timeOut, { once: true });
    let req: ReturnType<typeof httpRequest> | undefined;
    function settle(state: PaidState): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      settings.signal?.removeEventListener('abort', timeOut);
      req?.destroy();
      resolve(state);
    }
    const target = callbackGetUrl(stateUrl, [['client_orderid', clientOrderId]]);
    try {
      req = send(target, { method: 'GET', headers: { accept: 'application/json' } }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) return settle({ unreadable: `an answer of more than ${maxBytes} bytes` });
          chunks.push(chunk);
        });
        res.once('error', () => settle({ unreadable: 'the answer was cut' }));
        res.once('end', () => {
          if (res.statusCode !== 200) return settle({ unreadable: `answered ${res.statusCode ?? 0}, expected 200` });
          let parsed: unknown;
          try {
            parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            return settle({ unreadable: 'the answer is not JSON' });
          }
          if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
            return settle({ unreadable: 'the answer is no JSON object' });
          settle(paidCents(Object.hasOwn(parsed, 'paid') ? (parsed as Record<string, unknown>).paid : undefined));
        });
      });
      req.once('error', (err: NodeJS.ErrnoException) => settle({ unreadable: `no answer (${err.code ?? 'error'})` }));
      req.end();
    } catch (err) {
      settle({ unreadable: `no answer (${(err as NodeJS.ErrnoException).code ?? 'bad URL'})` });
    }
    if (settings.signal?.aborted) timeOut();
  });
}
