/**
 * A fault on the wire: the one function (deliverWithFault) through which the mock and inspect's embedded mock
 * deliver an answer with its fault, saying how the exchange ended (contract C2, rules/history.ts AnswerOutcome).
 */
import type { ServerResponse } from 'node:http';
import type { AnswerOutcome } from '../rules/history.ts';
import type { Fault, FaultKind } from './faults.ts';

/** An answer as written for the wire (the mock's WrittenAnswer is one). */
export interface WireAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | number>>;
  readonly text: string;
}

/**
 * A proxy's own error page, as a reverse proxy in front of a gateway answers when the gateway is down or overloaded
 * text/html, not the gateway's answer format; a 503 says when to come back (Retry-After, RFC 9110 §10.2.3).
 */
export function proxyPage(kind: '502' | '503'): WireAnswer {
  const title = kind === '502' ? '502 Bad Gateway' : '503 Service Unavailable';
  const text =
    `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n` +
    `<hr><center>payconform mock (a proxy's page)</center>\r\n</body>\r\n</html>\r\n`;
  return {
    status: Number(kind),
    headers: {
      'content-type': 'text/html',
      'content-length': Buffer.byteLength(text),
      ...(kind === '503' ? { 'retry-after': '1' } : {}),
    },
    text,
  };
}

const lost = (fault: 'timeout' | 'reset' | 'lost-answer' | 'client-gave-up'): AnswerOutcome => ({
  kind: 'lost',
  fault,
});

/** Does what the fault says, at once; `written` is the gateway's answer (none where it never got the request). */
function act(res: ServerResponse, written: WireAnswer | undefined, kind: FaultKind): AnswerOutcome {
  if (kind === '502' || kind === '503') {
    const page = proxyPage(kind);
    res.writeHead(page.status, page.headers);
    res.end(page.text);
    return { kind: 'answered', status: page.status };
  }
  if (kind === 'reset' || written === undefined) {
    // An RST, not a FIN: the client reads ECONNRESET, not an empty answer.
    res.socket?.resetAndDestroy();
    return lost('reset');
  }
  res.writeHead(written.status, written.headers);
  if (kind === 'slow') {
    res.end(written.text);
    return { kind: 'answered', status: written.status };
  }
  // lost-answer: the headers promise the whole body; half of it goes, then the connection closes.
  const bytes = Buffer.from(written.text);
  res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => res.destroy());
  return lost('lost-answer');
}

/**
 * Delivers an answer with its fault and says how the exchange ended (contract C2): a time-out holds the request
 * unanswered (the server's close ends it); any other fault waits its delay first, and a client that closes during
 * the wait gave up.
 */
export function deliverWithFault(
  res: ServerResponse,
  written: WireAnswer | undefined,
  fault: Fault,
): Promise<AnswerOutcome> {
  if (fault.kind === 'timeout') return Promise.resolve(lost('timeout'));
  if (fault.delayMs === 0) return Promise.resolve(act(res, written, fault.kind));
  return new Promise((resolve) => {
    const gaveUp = (): void => {
      clearTimeout(timer);
      resolve(lost('client-gave-up'));
    };
    const timer = setTimeout(() => {
      res.off('close', gaveUp);
      resolve(act(res, written, fault.kind));
    }, fault.delayMs);
    res.once('close', gaveUp);
  });
}
