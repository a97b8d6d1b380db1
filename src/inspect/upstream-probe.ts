/**
 * Whether anything listens at the --upstream origin, asked once before inspect starts listening: a
 * dead sandbox found at the end would have failed every request of the session as "no answer".
 */
import { connect } from 'node:net';

const PROBE_TIMEOUT_MS = 5_000;

/** Resolves with the reason nothing answers at `origin` (an errno code, or TIMEOUT), or undefined when a connection opened. */
export function unreachableReason(origin: string): Promise<string | undefined> {
  const url = new URL(origin);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  // A bracketed IPv6 host is given to connect() without its brackets.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: PROBE_TIMEOUT_MS });
    socket.once('connect', () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve('TIMEOUT');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
  });
}
