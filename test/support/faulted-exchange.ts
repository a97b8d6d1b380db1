/**
 * A signed request sent over a fresh socket with node:http, and exactly what the client saw: the status and headers
 * (if any came), the body bytes that came, and how it ended (whole, cut after the headers, an error before any
 * answer, or the client's own time-out). For the fault tests of the mock and inspect.
 */
import { request as httpRequest } from 'node:http';
import { endpointByOperation } from '../../src/catalogue/index.ts';
import { buildRequest, type ClientOptions } from '../../src/client/client.ts';
import { testMerchant } from '../../src/gateway/merchants.ts';
import { sampleRequest } from '../../src/schemas/index.ts';
import type { Pair } from '../../src/signing/form-body.ts';

export interface Seen {
  readonly status?: number;
  readonly headers?: Record<string, string | string[] | undefined>;
  readonly body: string;
  /** whole: the answer came complete; cut: headers came, then the connection ended early; error: no answer. */
  readonly ended: 'whole' | 'cut' | 'error';
  /** The error's code (ECONNRESET …) or name (AbortError: the client's own time-out). */
  readonly error?: string;
  readonly ms: number;
}

const merchant = testMerchant();

/** Client options of the TEST-ONLY merchant against a base URL. */
export const testClientOptions = (baseUrl: string): ClientOptions => ({
  baseUrl,
  credentials: { login: merchant.login, controlKey: merchant.merchantControlKey },
  endpointId: merchant.endpointIds[0],
});

/** Sends `operation` (its schema's sample, fields replaced), signed, and reports what the client saw. */
export function sendRaw(baseUrl: string, operation: string, fields: Pair[], timeoutMs = 5_000): Promise<Seen> {
  const endpoint = endpointByOperation(operation);
  const sent = buildRequest(endpoint, testClientOptions(baseUrl), sampleRequest(endpoint, fields));
  const started = performance.now();
  const ms = (): number => performance.now() - started;
  return new Promise((resolve) => {
    const req = httpRequest(
      sent.url,
      { method: 'POST', headers: sent.headers, agent: false, signal: AbortSignal.timeout(timeoutMs) },
      (res) => {
        const chunks: Buffer[] = [];
        const seen = (ended: Seen['ended'], error?: string): void =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            ended,
            ...(error === undefined ? {} : { error }),
            ms: ms(),
          });
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => seen('whole'));
        res.on('error', (err: NodeJS.ErrnoException) => seen('cut', err.code ?? err.name));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) =>
      resolve({
        body: '',
        ended: 'error',
        error: err.name === 'AbortError' ? 'AbortError' : (err.code ?? err.name),
        ms: ms(),
      }),
    );
    req.end(sent.body);
  });
}
