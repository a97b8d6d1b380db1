/**
 * The API client: builds the form body, signs it as the catalogue says (control field or OAuth
 * header), sends it with undici over a kept-alive pool, and parses and schema-checks the answer.
 * A POST may move money, so it is never retried: a timeout is reported, not repeated.
 */
import { Agent, request as undiciRequest, type Dispatcher } from 'undici';
import {
  baseMediaType,
  parseFormAnswer,
  REFUSAL_TYPES,
  SPEC_ANSWERS,
  type AnswerFormat,
} from '../catalogue/answer-format.ts';
import { endpointByOperation, endpointTarget, type Endpoint } from '../catalogue/index.ts';
import { readCapped, truncationOf, DEFAULT_MAX_ANSWER_BYTES, type Truncation } from '../capped-answer.ts';
import { CVV_FIELDS } from '../catalogue/test-cards.ts';
import { PayconformError } from '../errors.ts';
import { encodeForm, type Pair } from '../signing/form-body.ts';
import type { Credentials } from '../signing/request.ts';
import { signRequest, type SignOptions } from '../signing/sign.ts';

import type { AnswerSeen } from '../rules/answers.ts';
import type { RuleId } from '../rules/book.ts';
import { FORM_TYPE, MEDIA_TYPE } from '../rules/http.ts';
import { judgeAnswer } from '../rules/judge-answer.ts';
import { warnedUnder } from '../rules/severity.ts';
import { withArticle } from '../article.ts';
import type { RecordedExchange } from '../report/har.ts';

export { FORM_TYPE, MEDIA_TYPE };

export interface ClientOptions {
  /** {base_url}: origin plus any prefix before /api/. */
  readonly baseUrl: string;
  readonly credentials: Credentials;
  /** The endpointId (or endpoint group id) used when a call names none. */
  readonly endpointId?: string | undefined;
  /**
   * The gateway's names of the answer fields the mock names (a gateway profile's answerFields): the schemas check them
   * under ours.
   */
  readonly answerFields?: Readonly<Record<string, string>> | undefined;
  /** How a gateway profile says this gateway answers (`answers`): read as such, each answer a declared deviation. */
  readonly answers?: AnswerFormat | undefined;
  readonly connectTimeoutMs?: number;
  /** The whole exchange's deadline, from sending to the answer's last byte (default 20000 ms): not an idle timer. */
  readonly timeoutMs?: number | undefined;
  /** Answer bytes kept (default DEFAULT_MAX_ANSWER_BYTES); a larger answer is kept in part, marked truncated. */
  readonly maxAnswerBytes?: number | undefined;
  /** Told of every exchange as sent and answered, before any redaction (certify --record writes it, redacted). */
  readonly onExchange?: ((exchange: RecordedExchange) => void) | undefined;
}

/** The default deadline of one exchange: below the suite's step timeout (30 s), so the exchange says why it ended. */
export const DEFAULT_TIMEOUT_MS = 20_000;

export interface SendOptions extends SignOptions {
  readonly endpointId?: string | undefined;
  /** Send to the vendor's endpoint-group URL, `…/{operation}/group/{endpointId}`. */
  readonly groupUrl?: boolean;
  /** Send the request unsigned (negative tests). */
  readonly unsigned?: boolean;
  /** Headers to set or, with value null, to remove (negative tests: a wrong or missing Accept). */
  readonly headers?: Readonly<Record<string, string | null>>;
}

export interface SentRequest {
  /** POST, the spec's one method; another only where a check sends one on purpose (generated wrong-envelope). */
  readonly method: 'POST' | 'GET' | 'PUT' | 'PATCH' | 'DELETE';
  readonly url: string;
  readonly headers: Record<string, string>;
  /** Form pairs as sent (control included when the scheme uses it). */
  readonly params: Pair[];
  readonly body: string;
}

export interface Exchange {
  readonly operation: string;
  readonly request: SentRequest;
  /** The HTTP status, or the spec's status of a refusal a profile declares answered 200 (answers.errorStatus). */
  readonly status: number;
  /** The HTTP status as received, where it differs from `status`. */
  readonly httpStatus?: number | undefined;
  readonly headers: Record<string, string>;
  readonly contentType: string;
  /**
   * Parsed JSON when the answer is application/vnd.pay+json, the fields of form text a profile declares, else the text.
   */
  readonly body: unknown;
  /**
   * What is wrong with the answer, each under the rule of the book that finds it (src/rules/judge-answer.ts):
   * the rule's basis says whether it is the spec's or an assumption's.
   */
  readonly problems: AnswerProblem[];
  /** The answer as the answer rules judge it (never the control key): a step asks the rules again with it. */
  readonly seen: AnswerSeen;
  /** The answer was larger than maxAnswerBytes: its size, and how much of it `body` holds. */
  readonly truncated?: Truncation | undefined;
}

/**
 * One thing wrong with an answer: the rule that finds it, the assumptions its miss is a warning under
 * (the rule's, from the book; absent when the spec states it), or the profile's key that declares it.
 */
export interface AnswerProblem {
  readonly message: string;
  readonly rule: RuleId;
  readonly assumption?: string | undefined;
  readonly deviation?: string | undefined;
}

/** Parses an answer in the format `declared` (text it cannot parse stays text: answer-json-body says so). */
function parsedAs(format: AnswerFormat, text: string): unknown {
  if (format.format === 'form') return parseFormAnswer(text);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const SCHEMA_RULES: ReadonlySet<RuleId> = new Set(['answer-schema', 'answer-fields-known']);

/**
 * The answer's problems (see Exchange.problems) and its body, read by its media type: JSON for the
 * spec's, the profile's format for the media type a profile declares (a deviation it names), else the text.
 */
export function answerProblems(
  endpoint: Endpoint,
  status: number,
  contentType: string,
  text: string,
  controlKey: string | undefined,
  names: Readonly<Record<string, string>> = {},
  declared: AnswerFormat = SPEC_ANSWERS,
  /** The answer's headers and the CVVs the request sent: an echo of card data in either is a leak. */
  echo: { readonly headers?: Readonly<Record<string, string>>; readonly sentCvvs?: readonly string[] } = {},
  /** Where the answer was cut at the byte cap (capped-answer.ts). */
  truncated?: Truncation,
): { found: AnswerProblem[]; parsed: unknown; status: number; seen: AnswerSeen } {
  const media = baseMediaType(contentType);
  const declaredHere = media !== MEDIA_TYPE && declared !== SPEC_ANSWERS && media === declared.mediaType;
  const format = media === MEDIA_TYPE ? SPEC_ANSWERS : declaredHere ? declared : undefined;
  const parsed = format === undefined ? text : parsedAs(format, text);
  const refusal = declared.errorStatus === 200 && status === 200 ? refusalStatus(parsed) : undefined;
  const specStatus = refusal?.status ?? status;
  const seen: AnswerSeen = {
    status: specStatus,
    contentType,
    text,
    body: underOurNames(parsed, names),
    readAs: format?.format,
    schema: schemaForStatus(endpoint, specStatus),
    ...(truncated === undefined ? {} : { truncated }),
    headers: echo.headers,
  };
  const secrets = { controlKey, sentCvvs: echo.sentCvvs };
  const found = judgeAnswer({ ...seen, ...secrets }).map(({ rule, evidence }): AnswerProblem => {
    // A media type the profile declares is its deviation, not the spec's failure.
    const deviation =
      declaredHere && evidence.field === 'content-type'
        ? declared.format === 'json'
          ? 'answers.mediaType'
          : 'answers.format, answers.mediaType'
        : undefined;
    const grounds = deviation === undefined ? { assumption: warnedUnder(rule.id) } : { deviation };
    return { message: evidence.message, rule: rule.id, ...grounds };
  });
  if (refusal !== undefined)
    found.push({
      message: `status: ${withArticle(refusal.type)} answer came as HTTP 200 (the spec answers it ${refusal.status})`,
      rule: 'validation-error-status',
      deviation: 'answers.errorStatus',
    });
  // The body's shape is judged only when nothing the spec states is wrong with it already.
  const specMissed = found.some((p) => p.deviation === undefined && p.assumption === undefined);
  return {
    found: specMissed ? found.filter((p) => !SCHEMA_RULES.has(p.rule)) : found,
    parsed,
    status: specStatus,
    seen,
  };
}

/** The refusal an answer's `type` says it is (validation-error, error), with the status the spec gives it. */
function refusalStatus(body: unknown): { type: string; status: number } | undefined {
  const type = body !== null && typeof body === 'object' ? (body as Record<string, unknown>).type : undefined;
  const status = typeof type === 'string' && Object.hasOwn(REFUSAL_TYPES, type) ? REFUSAL_TYPES[type] : undefined;
  return typeof type === 'string' && status !== undefined ? { type, status } : undefined;
}

/** A JSON object with the gateway's field names put back to the mock's (top level, where they differ). */
function underOurNames(body: unknown, names: Readonly<Record<string, string>>): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const renamed: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const [ours, theirs] of Object.entries(names)) {
    if (ours === theirs || !Object.hasOwn(renamed, theirs)) continue;
    renamed[ours] = renamed[theirs];
    delete renamed[theirs];
  }
  return renamed;
}

/** Which schema an answer must follow: the endpoint's 200 body, or the spec's error bodies. */
export function schemaForStatus(endpoint: Endpoint, status: number): string | null {
  if (status === 200) return endpoint.responseSchema;
  if (status === 400) return 'ValidationErrorResponse';
  if (status === 500) return 'ServerErrorResponse';
  return null;
}

export function buildRequest(
  endpoint: Endpoint,
  options: ClientOptions,
  params: readonly Pair[],
  send: SendOptions = {},
): SentRequest {
  const endpointId = send.endpointId ?? options.endpointId;
  if (endpointId === undefined)
    throw new PayconformError(
      'ERR_ENDPOINT_ID',
      'endpointId: missing (give --endpoint-id or set PAYCONFORM_ENDPOINT_ID)',
      { field: 'endpointId', rule: 'required' },
    );
  const form = send.groupUrl ? 'group' : 'id';
  const { url, match } = endpointTarget(options.baseUrl, endpoint, endpointId, 'endpointId', form);
  const headers: Record<string, string> = { accept: MEDIA_TYPE, 'content-type': FORM_TYPE };
  const pairs: Pair[] = [...params];
  if (!send.unsigned) {
    // The URL was built from this match: the signer takes it rather than matching the URL again.
    const signed = signRequest({ method: 'POST', url, params: pairs }, options.credentials, send, { match });
    if (signed.scheme === 'control') pairs.push(['control', signed.control.control]);
    else headers.authorization = signed.oauth.authorization;
  }
  for (const [name, value] of Object.entries(send.headers ?? {})) {
    if (value === null) delete headers[name.toLowerCase()];
    else headers[name.toLowerCase()] = value;
  }
  return { method: 'POST', url, headers, params: pairs, body: encodeForm(pairs) };
}

export class PayClient {
  readonly options: ClientOptions;
  private readonly dispatcher: Dispatcher;

  constructor(options: ClientOptions) {
    this.options = options;
    // undici's headersTimeout and bodyTimeout are idle timers, which an answer trickled a byte at a time never
    // trips; the deadline is an AbortSignal over the whole exchange (exchange()).
    this.dispatcher = new Agent({ connect: { timeout: options.connectTimeoutMs ?? 5_000 } });
  }

  async send(operation: string, params: readonly Pair[], send: SendOptions = {}): Promise<Exchange> {
    return this.exchange(operation, buildRequest(endpointByOperation(operation), this.options, params, send));
  }

  /** Sends a request built (and perhaps altered on purpose) by the caller, and checks the answer. */
  async exchange(operation: string, request: SentRequest): Promise<Exchange> {
    const endpoint = endpointByOperation(operation);
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const deadline = AbortSignal.timeout(timeoutMs);
    const startedAt = new Date();
    const t0 = performance.now();
    const told = (answer?: RecordedExchange['answer']): void =>
      this.options.onExchange?.({
        startedAt,
        ms: performance.now() - t0,
        method: request.method,
        url: request.url,
        requestHeaders: request.headers,
        body: request.body,
        ...(answer === undefined ? {} : { answer }),
      });
    let response: Dispatcher.ResponseData;
    let answer: Awaited<ReturnType<typeof readCapped>>;
    try {
      response = await undiciRequest(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.method === 'GET' ? undefined : request.body,
        dispatcher: this.dispatcher,
        signal: deadline,
      });
      answer = await readCapped(response.body, this.options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES);
    } catch (err) {
      // undici reports the deadline as an AbortError: the signal says it was the deadline.
      const why = deadline.aborted
        ? `no whole answer within ${timeoutMs} ms, the request's deadline (--timeout-ms)`
        : `no answer (${(err as { code?: string }).code ?? 'error'})`;
      told();
      // Not retried: the request may have reached the gateway and moved money.
      throw new PayconformError(
        'ERR_IO',
        `${operation}: ${why} from ${new URL(request.url).origin}; not retried, check the order's status before ` +
          `sending again`,
        deadline.aborted
          ? { field: 'timeout', rule: 'deadline', cause: err }
          : { field: 'base-url', rule: 'reachable', cause: err },
      );
    }
    const text = answer.bytes.toString('utf8');
    const truncated = truncationOf(answer);
    const headers = Object.fromEntries(
      Object.entries(response.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v ?? '')]),
    );
    const contentType = headers['content-type'] ?? '';
    told({ status: response.statusCode, headers, text });
    const problems = answerProblems(
      endpoint,
      response.statusCode,
      contentType,
      text,
      this.options.credentials.controlKey || undefined,
      this.options.answerFields,
      this.options.answers,
      { headers, sentCvvs: request.params.filter(([name]) => CVV_FIELDS.has(name)).map(([, value]) => value) },
      truncated,
    );
    const body = problems.parsed;
    const httpStatus = problems.status === response.statusCode ? {} : { httpStatus: response.statusCode };
    return {
      operation: endpoint.operation,
      request,
      status: problems.status,
      ...httpStatus,
      headers,
      contentType,
      body,
      problems: problems.found,
      seen: problems.seen,
      ...(truncated === undefined ? {} : { truncated }),
    };
  }

  /**
   * Ends the client. Requests still under way were abandoned by their caller (a step that timed out): they are cut,
   * not awaited, so a gateway that never finishes an answer cannot keep the run alive.
   */
  async close(): Promise<void> {
    await this.dispatcher.destroy();
  }
}
