/** Forwarding one request to the gateway behind inspect and relaying its answer unchanged. */
import type { ServerResponse } from 'node:http';
import { request as undiciRequest, type Agent } from 'undici';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
  'content-length',
  'host',
]);

/** What is sent on: the caller's method, headers (less hop-by-hop ones), body, and the Host to give. */
export interface Forwarded {
  readonly method: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly host: string;
  readonly body: Buffer;
}

/** Sends a request on and relays the answer to the caller as it came. */
export async function relay(
  res: ServerResponse,
  to: string,
  sent: Forwarded,
  dispatcher: Agent,
): Promise<{ statusCode: number; text: Buffer }> {
  const forwardHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(sent.headers))
    if (value !== undefined && !HOP_BY_HOP.has(name)) forwardHeaders[name] = value;
  forwardHeaders.host = sent.host;
  const bodiless = sent.method === 'GET' || sent.method === 'HEAD';
  const r = await undiciRequest(to, {
    method: sent.method as 'POST',
    headers: forwardHeaders,
    body: bodiless ? undefined : sent.body,
    dispatcher,
  });
  const text = Buffer.from(await r.body.arrayBuffer());
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(r.headers))
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  res.writeHead(r.statusCode, { ...out, 'content-length': String(text.length) });
  res.end(text);
  return { statusCode: r.statusCode, text };
}
