/**
 * Whether a URL the user named (certify's --base-url, inspect's --upstream) has something answering HTTP there,
 * asked once before anything runs: one harmless GET (no body, nothing signed), and any status will do, since a
 * gateway may answer 404 or 405 to a GET. A refused connection, a name that does not resolve, a time-out or a peer
 * that does not speak HTTP is one line and exit 2, instead of every request failing with the same "no answer".
 */
import { Agent, request } from 'undici';
import { PayconformError } from './errors.ts';

/**
 * Throws `FIELD URL: not reachable (CODE); CONSEQUENCE` (or "does not answer HTTP") unless something answers HTTP at
 * url.
 */
export async function checkAnswersHttp(
  url: string,
  field: string,
  consequence: string,
  timeoutMs = 5_000,
): Promise<void> {
  const dispatcher = new Agent({ connect: { timeout: timeoutMs }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  try {
    const answer = await request(url, { method: 'GET', dispatcher });
    await answer.body.dump();
  } catch (err) {
    const code = (err as { code?: string }).code ?? (err as Error).name;
    const why = /HPE_|PARSER|SocketError|UND_ERR_SOCKET/i.test(`${code} ${(err as Error).name}`)
      ? `does not answer HTTP (${code})`
      : `not reachable (${code})`;
    throw new PayconformError('ERR_IO', `${field} ${url}: ${why}; ${consequence}`, {
      field,
      rule: 'reachable',
      cause: err,
    });
  } finally {
    await dispatcher.close();
  }
}
