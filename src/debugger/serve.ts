/**
 * `payconform debugger` without --out: the page on loopback only (secrets are pasted into it), GET / and
 * nothing else; the page itself makes no request back.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export const DEBUGGER_HOST = '127.0.0.1';

export interface DebuggerServer {
  readonly url: string;
  close(): Promise<void>;
}

export async function serveDebuggerPage(page: string, port: number): Promise<DebuggerServer> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://loopback').pathname;
    if ((req.method === 'GET' || req.method === 'HEAD') && (path === '/' || path === '/index.html')) {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
      });
      res.end(req.method === 'HEAD' ? undefined : page);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found: the page is at /\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, DEBUGGER_HOST, () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${DEBUGGER_HOST}:${bound}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
