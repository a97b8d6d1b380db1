/**
 * A raw HTTP request as captured in a log (request line, headers, blank line, urlencoded body), read
 * back into the signing code's request: `diagnose --request-file` and the debugger page read it alike.
 */
import { fieldError } from '../errors.ts';
import { decodeForm } from './form-body.ts';
import type { RequestInput } from './request.ts';

export interface RawRequest {
  readonly request: RequestInput;
  readonly authorization: string | undefined;
}

/** Parses `POST /path HTTP/1.1`, headers (Host, Authorization), a blank line and a urlencoded body. */
export function parseRawRequest(text: string, scheme: string, field = '--request-file'): RawRequest {
  // split gives at least one piece, even of '': no default to stand in for a missing head.
  const [head, ...rest] = text.split(/\r?\n\r?\n/) as [string, ...string[]];
  const [requestLine, ...headerLines] = head.split(/\r?\n/) as [string, ...string[]];
  const line = /^([A-Z]+) (\S+) HTTP\/1\.[01]$/.exec(requestLine.trim());
  if (!line)
    throw fieldError('ERR_REQUEST_TEXT', field, 'first line must be like "POST /paynet/api/v2/sale/1234 HTTP/1.1"');
  const headers = new Map<string, string>();
  for (const h of headerLines) {
    const colon = h.indexOf(':');
    if (colon <= 0) throw fieldError('ERR_REQUEST_TEXT', field, `header line "${h.slice(0, 30)}" has no name: value`);
    headers.set(h.slice(0, colon).trim().toLowerCase(), h.slice(colon + 1).trim());
  }
  const host = headers.get('host');
  if (host === undefined) throw fieldError('ERR_REQUEST_TEXT', field, 'needs a Host header to rebuild the URL');
  const body = rest.join('\n\n').replace(/\r?\n$/, '');
  return {
    request: { method: line[1], url: `${scheme}://${host}${line[2]}`, params: decodeForm(body, `${field} body`) },
    authorization: headers.get('authorization'),
  };
}

/**
 * The fields of a callback GET, its query, as the public gateways send them. A URL that is none
 * (a Host of `[`, markup pasted as curl's URL) is bad input named under `field`, never a thrown TypeError.
 */
export function callbackGetFields(url: string, field = '--request-file'): ReturnType<typeof decodeForm> {
  let query: string;
  try {
    query = new URL(url).search.slice(1);
  } catch (cause) {
    throw fieldError('ERR_REQUEST_TEXT', field, 'a callback GET needs an absolute URL (https://…?fields)', cause);
  }
  return decodeForm(query, `${field} query`);
}
