/**
 * A hostile HTTP peer on loopback for the bounds tests and bench/hostile-answer.ts: it trickles an answer a
 * byte at a time, streams a big one, or never answers. Every loop is bounded in count and in time, and close()
 * ends every connection, so a test that fails cannot leave it running.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Behaviour =
  /** The head at once, then one byte every `everyMs`, at most `bytes` of them. */
  | { readonly kind: 'trickle'; readonly everyMs: number; readonly bytes: number; readonly status?: number }
  /** `bytes` bytes (at least 11) of JSON-looking text as fast as the reader takes them. */
  | { readonly kind: 'big'; readonly bytes: number; readonly status?: number; readonly contentType?: string }
  /** Reads the request and never answers (until close). */
  | { readonly kind: 'silent' };

export interface HostileServer {
  readonly url: string;
  /** Requests received so far. */
  readonly requests: () => number;
  /** Bytes written in answers so far. */
  readonly written: () => number;
  readonly close: () => Promise<void>;
}

const CHUNK = Buffer.alloc(64 * 1024, 'x');

/** Starts the server on 127.0.0.1; `behaviour` may depend on the request (a GET probe, say). */
export async function startHostile(
  behaviour: Behaviour | ((req: IncomingMessage) => Behaviour),
): Promise<HostileServer> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let requests = 0;
  let written = 0;
  let closed = false;

  function trickle(res: ServerResponse, everyMs: number, bytes: number): void {
    let sent = 0;
    const timer = setInterval(() => {
      if (closed || res.destroyed || sent >= bytes) {
        clearInterval(timer);
        timers.delete(timer);
        if (!res.destroyed) res.end();
        return;
      }
      sent++;
      written++;
      res.write(sent === 1 ? '{' : ' ');
    }, everyMs);
    timers.add(timer);
  }

  function stream(res: ServerResponse, bytes: number): void {
    let left = bytes - '{"status":"'.length;
    const pump = (): void => {
      while (left > 0 && !closed && !res.destroyed) {
        const piece = left >= CHUNK.length ? CHUNK : CHUNK.subarray(0, left);
        left -= piece.length;
        written += piece.length;
        if (!res.write(piece)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end();
    };
    const head = '{"status":"';
    written += head.length;
    res.write(head);
    pump();
  }

  const server = createServer((req, res) => {
    requests++;
    req.resume();
    req.once('end', () => {
      const b = typeof behaviour === 'function' ? behaviour(req) : behaviour;
      if (b.kind === 'silent') return;
      if (b.kind === 'trickle') {
        res.writeHead(b.status ?? 200, { 'content-type': 'application/vnd.pay+json' });
        res.flushHeaders();
        return trickle(res, b.everyMs, b.bytes);
      }
      res.writeHead(b.status ?? 500, { 'content-type': b.contentType ?? 'application/vnd.pay+json' });
      stream(res, b.bytes);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    written: () => written,
    close: async () => {
      closed = true;
      for (const t of timers) clearInterval(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
