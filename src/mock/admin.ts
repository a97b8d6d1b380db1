/**
 * The admin route of the mock and of inspect's listener (docs/mock.md, "The admin route"; A-52): `POST
 * /_payconform/events` and `POST /_payconform/clock`. Not an API endpoint: no request rule judges it and inspect
 * does not record it. Only a loopback peer holding the run's token gets in (`Authorization: Bearer …`, compared in
 * constant time), whatever address the server listens on; the body is JSON, a few KiB at most, read within a time
 * limit. Every answer is JSON: what was done, or `{"error": "one line"}`.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';

export const ADMIN_PREFIX = '/_payconform/';
/** The routes under ADMIN_PREFIX. */
export const ADMIN_ROUTES = ['events', 'clock'] as const;
export type AdminRoute = (typeof ADMIN_ROUTES)[number];

/** Far above `{"event": …, "order": …, "merchant": …}`, far below anything that could tie the mock up. */
export const MAX_ADMIN_BODY_BYTES = 4096;
/** The time a peer has to send its whole body. */
export const ADMIN_READ_MS = 5000;

export interface AdminAnswer {
  readonly status: number;
  readonly body: object;
}

/** What each route does with the parsed body. */
export type AdminHandlers = Readonly<Record<AdminRoute, (body: unknown) => AdminAnswer | Promise<AdminAnswer>>>;

/** A token per run: 32 random bytes, URL-safe, for `Authorization: Bearer …`. */
export const newAdminToken = (): string => randomBytes(32).toString('base64url');

/** The peer is this machine: 127.0.0.0/8, ::1, or an IPv4 loopback address as a dual-stack socket writes it. */
export function isLoopbackPeer(address: string | undefined): boolean {
  if (address === undefined) return false;
  const lower = address.toLowerCase();
  const v4 = lower.startsWith('::ffff:') ? lower.slice('::ffff:'.length) : lower;
  return lower === '::1' || (isIP(v4) === 4 && v4.startsWith('127.'));
}

/** The header carries the token: both hashed first, so the comparison takes the same time whatever the length. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer +(\S+)$/i.exec(header ?? '')?.[1];
  if (given === undefined) return false;
  const digest = (text: string): Buffer => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(token));
}

function answer(res: ServerResponse, status: number, body: object, close = false): void {
  if (res.headersSent) return;
  const text = `${JSON.stringify(body)}\n`;
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...(close ? { connection: 'close' } : {}),
  });
  res.end(text);
}

const refuse = (res: ServerResponse, status: number, error: string, close = false): AdminAnswer => {
  answer(res, status, { error }, close);
  return { status, body: { error } };
};

/** The body, whole, or the refusal written when it is too large, too slow or cut. */
function readAdminBody(req: IncomingMessage, res: ServerResponse): Promise<Buffer | AdminAnswer> {
  return new Promise((resolve) => {
    const tooLarge = `the body is over ${MAX_ADMIN_BODY_BYTES} bytes`;
    if (Number(req.headers['content-length'] ?? '0') > MAX_ADMIN_BODY_BYTES)
      return resolve(refuse(res, 413, tooLarge, true));
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (outcome: Buffer | AdminAnswer, stop: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // A peer that sends too much or too slowly is not read further: the connection goes after the answer.
      if (stop) res.once('finish', () => req.socket.destroy());
      resolve(outcome);
    };
    const timer = setTimeout(
      () => settle(refuse(res, 408, `no whole body within ${ADMIN_READ_MS} ms`, true), true),
      ADMIN_READ_MS,
    );
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_ADMIN_BODY_BYTES) settle(refuse(res, 413, tooLarge, true), true);
      else chunks.push(chunk);
    });
    req.once('end', () => settle(Buffer.concat(chunks), false));
    req.once('error', () => settle(refuse(res, 400, 'the body could not be read', true), true));
  });
}

/**
 * Serves a request under ADMIN_PREFIX and resolves with what it answered (the caller logs it, never the token).
 * Refusals in order: not loopback 403, no or wrong token 401, unknown route 404, not POST 405, body too large 413
 * or too slow 408, not JSON 400; then the route's own answer.
 */
export async function serveAdmin(
  req: IncomingMessage,
  res: ServerResponse,
  token: string,
  handlers: AdminHandlers,
): Promise<AdminAnswer> {
  if (!isLoopbackPeer(req.socket.remoteAddress)) return refuse(res, 403, 'the admin route answers loopback peers only');
  if (!bearerMatches(req.headers.authorization, token))
    return refuse(res, 401, "no or wrong token: send 'Authorization: Bearer TOKEN' with the run's admin token");
  const route = ADMIN_ROUTES.find((r) => (req.url ?? '').split('?')[0] === `${ADMIN_PREFIX}${r}`);
  if (route === undefined) return refuse(res, 404, `no such admin route: ${ADMIN_ROUTES.join(', ')} only`);
  if (req.method !== 'POST') return refuse(res, 405, `POST only`);
  const body = await readAdminBody(req, res);
  if (!Buffer.isBuffer(body)) return body;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return refuse(res, 400, 'the body is not JSON');
  }
  let done: AdminAnswer;
  try {
    done = await handlers[route](parsed);
  } catch (err) {
    done = { status: 500, body: { error: `internal error of the mock: ${String(err).split('\n')[0]}` } };
  }
  answer(res, done.status, done.body);
  return done;
}
