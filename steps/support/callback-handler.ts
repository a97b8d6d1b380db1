/**
 * The run's own callback handler: a server this process runs for one scenario, which records every
 * callback the gateway sends and answers 200 (or 503 to the first few, to see the gateway retry).
 * Its URL is "customizable" (a query of its own, `?run=payconform`), as a merchant's may be. A GET
 * callback's fields are read from the query (the handler's own parameters set apart), a POST's from
 * the form body. It checks nothing itself: the steps judge what arrived, and how.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeForm, type Pair } from '../../src/signing/form-body.ts';

export interface ReceivedCallback {
  /** The callback's fields: from the query for GET (without the URL's own), from the body for POST. */
  readonly pairs: readonly Pair[];
  readonly method: string;
  /** The handler URL's own query parameters as they arrived, in order. */
  readonly own: readonly Pair[];
  readonly at: number;
  readonly answered: number;
}

export class CallbackHandler {
  readonly received: ReceivedCallback[] = [];
  private server: Server | undefined;
  private failFirst = 0;
  /** The handler URL's own query, which the gateway must keep. */
  ownQuery: readonly Pair[] = [];
  url = '';

  /** Listens on `port` (0: any free one) of loopback; the gateway is told `publicUrl` when it needs one. */
  async start(port: number, publicUrl?: string): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const ownNames = new Set(this.ownQuery.map(([n]) => n));
        const query = [...new URL(req.url ?? '/', 'http://handler').searchParams] as Pair[];
        let pairs: readonly Pair[] = query.filter(([n]) => !ownNames.has(n));
        if (req.method === 'POST') {
          try {
            pairs = decodeForm(Buffer.concat(chunks).toString('utf8'));
          } catch {
            pairs = []; /* recorded as empty: the step says what is missing */
          }
        }
        const answered = this.received.length < this.failFirst ? 503 : 200;
        this.received.push({
          pairs,
          method: req.method ?? '',
          own: query.filter(([n]) => ownNames.has(n)),
          at: Date.now(),
          answered,
        });
        res.writeHead(answered, { 'content-type': 'text/plain' });
        res.end(answered === 200 ? 'OK' : 'try again');
      });
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', (err: NodeJS.ErrnoException) =>
        reject(
          err.code === 'EADDRINUSE'
            ? new Error(
                `PAYCONFORM_CALLBACK_PORT ${port} is in use (by another worker of --parallel?): run the @spec:callbacks scenarios without --parallel`,
              )
            : err,
        ),
      );
      this.server!.listen(port, port === 0 ? '127.0.0.1' : undefined, resolve);
    });
    this.url =
      publicUrl ?? `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/payconform/callback?run=payconform`;
    this.ownQuery = [...new URL(this.url).searchParams] as Pair[];
  }

  /** Answers 503 to the next `n` callbacks. */
  failNext(n: number): void {
    this.failFirst = this.received.length + n;
  }

  /** The callbacks for an order (by orderid), waiting until there are `count` or the deadline passes. */
  async forOrder(orderid: string, count: number, deadlineMs: number): Promise<ReceivedCallback[]> {
    const until = Date.now() + deadlineMs;
    const mine = (): ReceivedCallback[] =>
      this.received.filter((r) => r.pairs.some(([n, v]) => n === 'orderid' && v === orderid));
    while (mine().length < count && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    return mine();
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (!this.server) return resolve();
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}
