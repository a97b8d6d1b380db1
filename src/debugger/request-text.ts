/**
 * What is pasted into the page's "Request" field, in any of four forms, read into one request:
 * - a raw HTTP request as logged (`POST /paynet/api/v2/sale/1234 HTTP/1.1`, headers, blank line, body);
 * - a curl command (`curl https://… -H 'Authorization: OAuth …' -d 'amount=10.00'`);
 * - operation and fields: a first line `SALE 1234 [base URL]` (or the full URL), then one `name=value`
 *   a line, the value as it is (no decoding), and an optional `Authorization: OAuth …` line;
 * - a HAR entry, or a whole HAR file (its first POST), as a browser, a proxy or `inspect --record` writes it.
 * A gateway callback is read as its GET query (the public gateways' habit, A-31) or its POST body.
 */
import { endpointByOperation, endpointTarget } from '../catalogue/index.ts';
import { fieldError } from '../errors.ts';
import type { Pair } from '../signing/form-body.ts';
import { callbackGetFields, parseRawRequest, type RawRequest } from '../signing/raw-request.ts';
import { harRequest } from '../signing/har-request.ts';
import { parseCurlCommand } from './curl-command.ts';

export type RequestFormat = 'raw HTTP request' | 'curl command' | 'operation and fields' | 'HAR';
export const REQUEST_FIELD = 'Request';
/** The origin the operation-and-fields form signs for when the first line names none. */
export const DEFAULT_BASE_URL = 'https://sandbox.gateway.example/paynet';

export interface ReadRequest extends RawRequest {
  readonly format: RequestFormat;
}

export function formatOf(text: string): RequestFormat {
  const first = text.trimStart().split(/\r?\n/)[0] ?? '';
  if (first.startsWith('{')) return 'HAR';
  if (/^curl\s/.test(first)) return 'curl command';
  if (/^[A-Z]+ \S+ HTTP\/1\.[01]\s*$/.test(first)) return 'raw HTTP request';
  return 'operation and fields';
}

export function readRequest(text: string, callback = false): ReadRequest {
  if (text.trim() === '') throw fieldError('ERR_REQUEST_TEXT', REQUEST_FIELD, 'is empty; paste a request');
  const format = formatOf(text);
  const read =
    format === 'curl command'
      ? parseCurlCommand(text, REQUEST_FIELD)
      : format === 'raw HTTP request'
        ? parseRawRequest(text.trimStart(), 'https', REQUEST_FIELD)
        : format === 'HAR'
          ? harRequest(parsedJson(text), REQUEST_FIELD)
          : operationAndFields(text, callback);
  // As `diagnose --callback --request-file` reads one: a GET's fields are its query.
  if (callback && read.request.method === 'GET') {
    return {
      format,
      ...read,
      request: { ...read.request, params: callbackGetFields(read.request.url, REQUEST_FIELD) },
    };
  }
  return { format, ...read };
}

function operationAndFields(text: string, callback: boolean): RawRequest {
  const all = text.trim().split(/\r?\n/);
  // A callback's formula takes no URL: its fields may start on the first line.
  const [first = '', ...lines] = callback && /^[\w.-]+=/.test(all[0] ?? '') ? ['', ...all] : all;
  const params: Pair[] = [];
  let authorization: string | undefined;
  for (const line of lines) {
    if (line.trim() === '') continue;
    if (/^authorization:/i.test(line)) {
      authorization = line.slice(line.indexOf(':') + 1).trim();
      continue;
    }
    const eq = line.indexOf('=');
    if (eq <= 0) throw fieldError('ERR_REQUEST_TEXT', REQUEST_FIELD, `line "${line.slice(0, 30)}" is not name=value`);
    params.push([line.slice(0, eq), line.slice(eq + 1)]);
  }
  return { request: { method: 'POST', url: first === '' ? '' : urlOf(first.trim()), params }, authorization };
}

/** `SALE 1234 [base URL]`, or a full URL. */
function urlOf(line: string): string {
  if (/^https?:\/\//i.test(line)) return line;
  const [operation = '', endpointId, base = DEFAULT_BASE_URL, ...extra] = line.split(/\s+/);
  if (endpointId === undefined || extra.length > 0)
    throw fieldError(
      'ERR_REQUEST_TEXT',
      REQUEST_FIELD,
      'first line must be "OPERATION ENDPOINTID [base URL]" (SALE 1234), a URL, "POST /path HTTP/1.1" or curl …',
    );
  return endpointTarget(base, endpointByOperation(operation), endpointId).url;
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw fieldError('ERR_REQUEST_TEXT', REQUEST_FIELD, 'starts with "{" but is not JSON (a HAR entry or file)');
  }
}
