/**
 * A HAR file from anywhere (payconform's, a browser's or a proxy's export) read as hostile input:
 * bounded in size, JSON, and only the members replay uses checked against a schema (ajv), so a
 * browser's many others pass; a bad one is one line naming the file, the member and the rule. Its
 * API requests (a POST to a path of the catalogue) become the exchanges replay sends again; every
 * other entry (a page, an image, a callback) is listed as skipped, with why.
 */
import { statSync } from 'node:fs';
import { Ajv, type ErrorObject } from 'ajv';
import { findPath, type PathMatch } from '../catalogue/index.ts';
import { PayconformError } from '../errors.ts';
import { readUserFile } from '../read-file.ts';
import { decodeForm, type Pair } from '../signing/form-body.ts';
import { harEntryRequest } from '../signing/har-request.ts';

/** Far above a session's worth of API exchanges; a larger file is refused before it is read. */
export const MAX_HAR_BYTES = 64 * 1024 * 1024;

const NAME_VALUES = {
  type: 'array',
  items: {
    type: 'object',
    required: ['name', 'value'],
    properties: { name: { type: 'string' }, value: { type: 'string' } },
  },
};

/** The members replay reads; HAR's others (cookies, timings, cache, a browser's `_` fields) are left alone. */
const HAR_SCHEMA = {
  type: 'object',
  required: ['log'],
  properties: {
    log: {
      type: 'object',
      required: ['entries'],
      properties: {
        entries: {
          type: 'array',
          maxItems: 100_000,
          items: {
            type: 'object',
            required: ['request', 'response'],
            properties: {
              request: {
                type: 'object',
                required: ['method', 'url', 'headers'],
                properties: {
                  method: { type: 'string', maxLength: 16 },
                  url: { type: 'string', maxLength: 8192 },
                  headers: NAME_VALUES,
                  postData: {
                    type: 'object',
                    properties: { mimeType: { type: 'string' }, text: { type: 'string' }, params: NAME_VALUES },
                  },
                },
              },
              response: {
                type: 'object',
                required: ['status'],
                properties: {
                  status: { type: 'integer' },
                  content: {
                    type: 'object',
                    properties: { text: { type: 'string' }, encoding: { type: 'string' } },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
} as const;

let validator: ReturnType<Ajv['compile']> | undefined;

const describe = (e: ErrorObject): string => `${e.instancePath || '/'}: ${e.message ?? 'is invalid'}`;

/** What an API request of the recording got: the fields a replay compares. */
export interface RecordedAnswer {
  /** 0: no answer came. */
  readonly status: number;
  readonly fields: Readonly<Record<string, string>>;
}

export interface HarRequest {
  /** The entry's position in the file, from 1. */
  readonly index: number;
  readonly match: PathMatch;
  readonly params: readonly Pair[];
  /** The recorded Accept and Content-Type (absent: not sent), which a replay sends as they were. */
  readonly headers: { readonly accept?: string; readonly 'content-type'?: string };
  /** Whether it was signed (a control field or an Authorization header): an unsigned one is replayed unsigned. */
  readonly signed: boolean;
  readonly answer: RecordedAnswer;
  /** Inspect's verdict, where payconform recorded it. */
  readonly failed?: readonly string[];
}

export interface HarContents {
  readonly requests: readonly HarRequest[];
  readonly skipped: ReadonlyArray<{ readonly index: number; readonly why: string }>;
}

interface RawEntry {
  request: { method: string; url: string; headers: Array<{ name: string; value: string }> };
  response: { status: number; content?: { text?: string; encoding?: string } };
  _payconform?: { failed?: unknown };
}

/** The answer's top-level text fields: JSON (the spec's) or form text (the family's), else none. */
export function answerFields(text: string | undefined): Record<string, string> {
  if (text === undefined || text === '') return {};
  const fields: Record<string, string> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      for (const [k, v] of Object.entries(parsed)) if (typeof v === 'string') fields[k] = v;
      return fields;
    }
  } catch {
    /* not JSON: perhaps form text */
  }
  try {
    for (const [k, v] of decodeForm(text.trim())) fields[k] ??= v;
  } catch {
    return {};
  }
  return fields;
}

function contentText(content: { text?: string; encoding?: string } | undefined): string | undefined {
  if (content?.text === undefined) return undefined;
  return content.encoding === 'base64' ? Buffer.from(content.text, 'base64').toString('utf8') : content.text;
}

/** The HAR's API requests, in the file's order, and what was skipped. */
export function harContents(data: unknown, file: string): HarContents {
  validator ??= new Ajv({ allErrors: false, strict: false }).compile(HAR_SCHEMA);
  if (!validator(data)) {
    const e = validator.errors?.[0];
    throw new PayconformError('ERR_HAR', `${file}: ${e ? describe(e) : 'is not a HAR file'}`, {
      field: file,
      rule: 'HAR 1.2',
    });
  }
  const entries = (data as { log: { entries: RawEntry[] } }).log.entries;
  const requests: HarRequest[] = [];
  const skipped: Array<{ index: number; why: string }> = [];
  entries.forEach((entry, i) => {
    const index = i + 1;
    const { request, response } = entry;
    let pathname: string;
    try {
      pathname = new URL(request.url).pathname;
    } catch {
      return void skipped.push({ index, why: 'its URL is not absolute' });
    }
    const match = findPath(pathname);
    if (request.method !== 'POST' || match === undefined)
      return void skipped.push({ index, why: `not a request of the API (${request.method.slice(0, 16)})` });
    let params: readonly Pair[];
    let authorization: string | undefined;
    try {
      ({
        request: { params },
        authorization,
      } = harEntryRequest(entry, file));
    } catch {
      return void skipped.push({ index, why: 'its body is not form-encoded' });
    }
    const failed = entry._payconform?.failed;
    const header = (name: string): string | undefined =>
      request.headers.find((h) => h.name.toLowerCase() === name)?.value;
    const [accept, contentType] = [header('accept'), header('content-type')];
    requests.push({
      index,
      match,
      params,
      headers: {
        ...(accept === undefined ? {} : { accept }),
        ...(contentType === undefined ? {} : { 'content-type': contentType }),
      },
      signed: authorization !== undefined || params.some(([name]) => name === 'control'),
      answer: { status: response.status, fields: answerFields(contentText(response.content)) },
      ...(Array.isArray(failed) ? { failed: failed.filter((f): f is string => typeof f === 'string') } : {}),
    });
  });
  return { requests, skipped };
}

/** Reads a HAR file as hostile input: its size first, then UTF-8 JSON, then the schema. */
export function readHar(file: string): HarContents {
  let size: number;
  try {
    size = statSync(file).size;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new PayconformError('ERR_IO', `${file}: cannot read (${code})`, { field: file, rule: 'readable' });
  }
  if (size > MAX_HAR_BYTES)
    throw new PayconformError('ERR_HAR', `${file}: ${size} bytes, over ${MAX_HAR_BYTES}`, {
      field: file,
      rule: `at most ${MAX_HAR_BYTES} bytes`,
    });
  let data: unknown;
  try {
    data = JSON.parse(readUserFile(file, file));
  } catch (err) {
    if (err instanceof PayconformError) throw err;
    throw new PayconformError('ERR_HAR', `${file}: not JSON`, { field: file, rule: 'HAR 1.2 (JSON)' });
  }
  return harContents(data, file);
}
