/**
 * Forwarding one request to the gateway behind inspect and relaying its answer as it comes, streamed:
 * inspect keeps only the first part (capped-answer.ts) for its record, and the whole exchange has a
 * deadline, so an upstream that streams without end or trickles cannot hold inspect's memory or time.
 */
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { request as undiciRequest, type Agent } from 'undici';
import { readCapped, truncationOf, type Truncation } from '../capped-answer.ts';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
  'host',
]);

/** What is sent on: the caller's method, headers (less hop-by-hop ones), body, and the Host to give. */
export interface Forwarded {
  readonly method: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly host: string;
  readonly body: Buffer;
}

/** How long a relayed exchange may last, from sending to the answer's last byte, and how much of it is kept. */
export interface RelayBounds {
  readonly timeoutMs: number;
  readonly maxAnswerBytes: number;
}

/** The answer relayed: its status and its first `maxAnswerBytes` bytes (all of it unless `truncated`). */
export interface Relayed {
  readonly statusCode: number;
  /** The answer's headers as relayed (hop-by-hop ones left out), a list joined by ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly text: Buffer;
  readonly truncated?: Truncation | undefined;
}

/** The error a relay that ran out of time rejects with: its code says so in inspect's record. */
const deadlineError = (ms: number): Error =>
  Object.assign(new Error(`no whole answer within ${ms} ms`), { code: `deadline of ${ms} ms` });

/** Sends a request on and relays the answer to the caller as it comes. */
export async function relay(
  res: ServerResponse,
  to: string,
  sent: Forwarded,
  dispatcher: Agent,
  bounds: RelayBounds,
): Promise<Relayed> {
  const forwardHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(sent.headers))
    if (value !== undefined && !HOP_BY_HOP.has(name) && name !== 'content-length') forwardHeaders[name] = value;
  forwardHeaders.host = sent.host;
  const bodiless = sent.method === 'GET' || sent.method === 'HEAD';
  const deadline = AbortSignal.timeout(bounds.timeoutMs);
  try {
    const r = await undiciRequest(to, {
      method: sent.method as 'POST',
      headers: forwardHeaders,
      body: bodiless ? undefined : sent.body,
      dispatcher,
      signal: deadline,
    });
    const out: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(r.headers))
      if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
    res.writeHead(r.statusCode, out);
    // Each chunk goes on as it comes, at the caller's pace (the deadline also ends a caller that stops reading).
    async function* passedOn(): AsyncGenerator<Uint8Array> {
      for await (const chunk of r.body as AsyncIterable<Uint8Array>) {
        if (!res.write(chunk)) await once(res, 'drain', { signal: deadline });
        yield chunk;
      }
    }
    const answer = await readCapped(passedOn(), bounds.maxAnswerBytes);
    // Past the counting limit the answer was cut: the caller must not take it for whole.
    if (answer.endless) res.destroy();
    else res.end();
    const headers = Object.fromEntries(
      Object.entries(out).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value]),
    );
    return { statusCode: r.statusCode, headers, text: answer.bytes, truncated: truncationOf(answer) };
  } catch (err) {
    throw deadline.aborted ? deadlineError(bounds.timeoutMs) : err;
  }
}
