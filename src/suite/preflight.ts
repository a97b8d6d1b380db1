/**
 * Before any scenario, one harmless request (GET of the base URL, no body, nothing signed) shows that
 * something answering HTTP is there. Any status will do: a gateway may answer 404 or 405 to a GET.
 * A refused connection, a name that does not resolve, a time-out or a peer that does not speak HTTP is
 * one line and exit 2, instead of every scenario failing with the same stack.
 */
import { Agent, request } from 'undici';
import { PayconformError } from '../errors.ts';

export async function preflight(baseUrl: string, timeoutMs = 5_000): Promise<void> {
  const dispatcher = new Agent({ connect: { timeout: timeoutMs }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  try {
    const answer = await request(baseUrl, { method: 'GET', dispatcher });
    await answer.body.dump();
  } catch (err) {
    const code = (err as { code?: string }).code ?? (err as Error).name;
    const why = /HPE_|PARSER|SocketError|UND_ERR_SOCKET/i.test(`${code} ${(err as Error).name}`) ? `does not answer HTTP (${code})` : `not reachable (${code})`;
    throw new PayconformError('ERR_IO', `--base-url ${baseUrl}: ${why}; no scenario was run`, { field: '--base-url', rule: 'reachable', cause: err });
  } finally {
    await dispatcher.close();
  }
}
