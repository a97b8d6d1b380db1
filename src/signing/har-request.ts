/**
 * A request taken from a HAR file (HAR 1.2, as payconform, browsers and proxies write it): from an
 * entry, or the first API request (a POST) of a whole file. Pure and hand-checked, so the debugger
 * page can read a pasted or dropped HAR in the browser; `replay` reads whole files (report/har-read.ts).
 */
import { fieldError } from '../errors.ts';
import { decodeForm, type Pair } from './form-body.ts';
import type { RawRequest } from './raw-request.ts';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** An entry's request: method, URL, the Authorization header, the form pairs (postData's text, else its params). */
export function harEntryRequest(entry: unknown, field: string): RawRequest {
  const request = isObject(entry) ? entry.request : undefined;
  if (!isObject(request)) throw fieldError('ERR_REQUEST_TEXT', field, 'a HAR entry needs a "request" object');
  const method = text(request.method);
  const url = text(request.url);
  if (method === undefined || url === undefined)
    throw fieldError('ERR_REQUEST_TEXT', field, 'a HAR request needs "method" and "url" strings');
  const headers = Array.isArray(request.headers) ? request.headers.filter(isObject) : [];
  const authorization = text(headers.find((h) => text(h.name)?.toLowerCase() === 'authorization')?.value);
  const post = isObject(request.postData) ? request.postData : {};
  const body = text(post.text);
  const params: Pair[] =
    body !== undefined && body !== ''
      ? decodeForm(body, `${field} postData.text`)
      : (Array.isArray(post.params) ? post.params.filter(isObject) : []).flatMap((p): Pair[] => {
          const [name, value] = [text(p.name), text(p.value)];
          return name === undefined ? [] : [[name, value ?? '']];
        });
  return { request: { method, url, params }, authorization };
}

/** A pasted HAR: a whole file's first POST (the API's one method), or a single entry. */
export function harRequest(data: unknown, field: string): RawRequest {
  const log = isObject(data) ? data.log : undefined;
  if (!isObject(log)) return harEntryRequest(data, field);
  const entries: readonly unknown[] = Array.isArray(log.entries) ? log.entries : [];
  const post = entries.find((e) => isObject(e) && isObject(e.request) && e.request.method === 'POST');
  if (post === undefined) throw fieldError('ERR_REQUEST_TEXT', field, 'the HAR file holds no POST request');
  return harEntryRequest(post, field);
}
