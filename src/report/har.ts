/**
 * HTTP Archive 1.2 (the format browsers, proxies and payconform share: W3C's "HTTP Archive (HAR)
 * format" draft): what `inspect --record` writes and `payconform replay` reads. Written redacted as
 * every output is: a signature (control, oauth_signature, an Authorization's credentials) replaced,
 * a card number masked to its first six and last four digits, a CVV `***`, the merchants' keys
 * wherever an answer echoed them. Read as hostile: har-read.ts.
 */
import { decodeForm, encodeForm, type Pair } from '../signing/form-body.ts';
import { redactAttachment, redactAuthorization, redactEchoes, redactParams } from './redact.ts';

export interface HarNameValue {
  readonly name: string;
  readonly value: string;
}

export interface HarEntry {
  readonly startedDateTime: string;
  readonly time: number;
  readonly request: {
    readonly method: string;
    readonly url: string;
    readonly httpVersion: string;
    readonly cookies: readonly HarNameValue[];
    readonly headers: readonly HarNameValue[];
    readonly queryString: readonly HarNameValue[];
    readonly postData?: { readonly mimeType: string; readonly text: string; readonly params: readonly HarNameValue[] };
    readonly headersSize: number;
    readonly bodySize: number;
  };
  readonly response: {
    readonly status: number;
    readonly statusText: string;
    readonly httpVersion: string;
    readonly cookies: readonly HarNameValue[];
    readonly headers: readonly HarNameValue[];
    readonly content: { readonly size: number; readonly mimeType: string; readonly text?: string };
    readonly redirectURL: string;
    readonly headersSize: number;
    readonly bodySize: number;
  };
  readonly cache: Record<string, never>;
  readonly timings: { readonly send: number; readonly wait: number; readonly receive: number };
  /** payconform's own fields (HAR allows names starting with `_`): inspect's verdict of the request. */
  readonly _payconform?: { readonly passed: boolean; readonly failed: readonly string[] };
}

export interface Har {
  readonly log: {
    readonly version: '1.2';
    readonly creator: { readonly name: string; readonly version: string };
    readonly entries: readonly HarEntry[];
  };
}

/** One exchange as a listener or a client saw it, before redaction. */
export interface RecordedExchange {
  readonly startedAt: Date;
  readonly ms: number;
  readonly method: string;
  readonly url: string;
  readonly requestHeaders: Readonly<Record<string, string | undefined>>;
  readonly body: string;
  /** The answer; absent when none came (a time-out, a reset). */
  readonly answer?: {
    readonly status: number;
    readonly headers: Readonly<Record<string, string | undefined>>;
    readonly text: string;
  };
  readonly verdict?: { readonly passed: boolean; readonly failed: readonly string[] };
}

const nameValues = (pairs: readonly Pair[]): HarNameValue[] => pairs.map(([name, value]) => ({ name, value }));

function headerList(
  headers: Readonly<Record<string, string | undefined>>,
  clean: (s: string) => string,
): HarNameValue[] {
  return Object.entries(headers)
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([name, value]) => ({ name, value: clean(name === 'authorization' ? redactAuthorization(value) : value) }));
}

/** One entry, redacted: the request's own card data and signatures, and `secrets` anywhere. */
export function harEntryOf(x: RecordedExchange, secrets: readonly string[]): HarEntry {
  let sent: Pair[] | undefined;
  try {
    sent = decodeForm(x.body);
  } catch {
    sent = undefined; // not a form (a merchant's mistake): kept as text, redacted as text
  }
  const clean = (text: string): string => redactEchoes(text, sent ?? [], secrets);
  const params = sent === undefined ? undefined : redactParams(sent).map(([n, v]): Pair => [n, clean(v)]);
  const url = new URL(x.url);
  const answer = x.answer;
  const answerText =
    answer === undefined
      ? undefined
      : redactAttachment(answer.text, answer.headers['content-type'] ?? '', sent ?? [], secrets);
  return {
    startedDateTime: x.startedAt.toISOString(),
    time: x.ms,
    request: {
      method: x.method,
      url: clean(x.url),
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headerList(x.requestHeaders, clean),
      queryString: nameValues([...url.searchParams]).map(({ name, value }) => ({ name, value: clean(value) })),
      ...(x.body === ''
        ? {}
        : {
            postData: {
              mimeType: x.requestHeaders['content-type'] ?? 'application/x-www-form-urlencoded',
              text: params === undefined ? clean(x.body) : encodeForm(params),
              params: params === undefined ? [] : nameValues(params),
            },
          }),
      headersSize: -1,
      bodySize: Buffer.byteLength(x.body),
    },
    response: {
      // HAR's way to say no answer came: status 0 and an empty content.
      status: x.answer?.status ?? 0,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: x.answer === undefined ? [] : headerList(x.answer.headers, clean),
      content: {
        size: answerText === undefined ? 0 : Buffer.byteLength(answerText),
        mimeType: x.answer?.headers['content-type'] ?? '',
        ...(answerText === undefined ? {} : { text: answerText }),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: answerText === undefined ? -1 : Buffer.byteLength(answerText),
    },
    cache: {},
    timings: { send: 0, wait: x.ms, receive: 0 },
    ...(x.verdict === undefined ? {} : { _payconform: x.verdict }),
  };
}

export function harOf(entries: readonly HarEntry[], version: string): Har {
  return { log: { version: '1.2', creator: { name: 'payconform', version }, entries } };
}
