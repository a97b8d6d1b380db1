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
import { endpointByOperation, endpointUrl, type Endpoint } from '../catalogue/index.ts';
import { PayconformError } from '../errors.ts';
import { encodeForm, type Pair } from '../signing/form-body.ts';
import type { Credentials } from '../signing/request.ts';
import { signRequest, type SignOptions } from '../signing/sign.ts';
import { validateResponse } from '../schemas/index.ts';

import { answerMediaType, noControlKeyInAnswer, noFullPanInAnswer } from '../rules/answers.ts';
import { FORM_TYPE, MEDIA_TYPE } from '../rules/http.ts';
import { withArticle } from '../article.ts';

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
  readonly responseTimeoutMs?: number;
}

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
  readonly method: 'POST';
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
   * What is wrong with the answer, each with its basis: the media type and JSON body of a 200, 400 or
   * 500 are the spec's; the body's fields, a full card number, an echoed control
   * key (`leak:`, A-29) and the media type of any other status are assumptions.
   */
  readonly problems: AnswerProblem[];
}

/**
 * One thing wrong with an answer; `assumption` names the A-n it rests on, absent when the spec states
 * it; `deviation` names the gateway profile's key that declares this departure from the spec.
 */
export interface AnswerProblem {
  readonly message: string;
  readonly assumption?: string | undefined;
  readonly deviation?: string | undefined;
}

/** The statuses the spec lists for every endpoint, each with its body in application/vnd.pay+json. */
const SPEC_STATUSES = new Set([200, 400, 500]);

/** Parses an answer in the format `declared`; a problem when it does not parse. */
function parsedAs(format: AnswerFormat, text: string): { parsed: unknown; problem?: string } {
  if (format.format === 'form') return { parsed: parseFormAnswer(text) };
  try {
    return { parsed: JSON.parse(text) };
  } catch {
    return { parsed: text, problem: `body: is not JSON although the content type is ${format.mediaType}` };
  }
}

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
): { found: AnswerProblem[]; parsed: unknown; status: number } {
  const found: AnswerProblem[] = [];
  const byStatus = SPEC_STATUSES.has(status) ? undefined : 'A-21';
  const seen = { status, contentType, text, controlKey };
  // The answer rules of the rule book; the schema check below adds the body's shape.
  const leak = noControlKeyInAnswer.check(seen);
  if (leak.outcome === 'fail') found.push({ message: leak.evidence.message, assumption: 'A-29' });
  let parsed: unknown = text;
  const media = answerMediaType.check(seen);
  const declaredHere =
    media.outcome === 'fail' && declared !== SPEC_ANSWERS && baseMediaType(contentType) === declared.mediaType;
  if (media.outcome === 'pass' || declaredHere) {
    const read = parsedAs(media.outcome === 'pass' ? SPEC_ANSWERS : declared, text);
    parsed = read.parsed;
    if (read.problem !== undefined) found.push({ message: read.problem, assumption: byStatus });
  }
  if (media.outcome === 'fail') {
    const deviation = declaredHere
      ? declared.format === 'json'
        ? 'answers.mediaType'
        : 'answers.format, answers.mediaType'
      : undefined;
    found.push({
      message: media.evidence.message,
      assumption: deviation === undefined ? byStatus : undefined,
      deviation,
    });
  }
  // A full card number is a leak in any answer, whatever its status: a 403 has no schema to catch it.
  const pan = noFullPanInAnswer.check({ ...seen, body: parsed });
  if (pan.outcome === 'fail') found.push({ message: `answer${pan.evidence.message}`, assumption: 'A-19' });
  const refusal = declared.errorStatus === 200 && status === 200 ? refusalStatus(parsed) : undefined;
  if (refusal !== undefined)
    found.push({
      message: `status: ${withArticle(refusal.type)} answer came as HTTP 200 (the spec answers it ${refusal.status})`,
      deviation: 'answers.errorStatus',
    });
  const specStatus = refusal?.status ?? status;
  const schema = schemaForStatus(endpoint, specStatus);
  if (schema !== null && found.every((p) => p.assumption !== undefined || p.deviation !== undefined)) {
    const result = validateResponse(schema, underOurNames(parsed, names));
    if (!result.valid) {
      // The schema's own full-card-number finding says again what the rule above said.
      const errors =
        pan.outcome === 'fail' ? result.errors.filter((e) => !e.includes('full card number')) : result.errors;
      found.push(...errors.map((e) => ({ message: `${schema}${e}`, assumption: schemaAssumption(e) })));
    }
  }
  return { found, parsed, status: specStatus };
}

/** The refusal an answer's `type` says it is (validation-error, error), with the status the spec gives it. */
function refusalStatus(body: unknown): { type: string; status: number } | undefined {
  const type = body !== null && typeof body === 'object' ? (body as Record<string, unknown>).type : undefined;
  return typeof type === 'string' && Object.hasOwn(REFUSAL_TYPES, type)
    ? { type, status: REFUSAL_TYPES[type] }
    : undefined;
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

/** A full card number is A-19; an unknown field A-18; any other difference from our schema A-17. */
function schemaAssumption(error: string): string {
  if (error.includes('full card number')) return 'A-19';
  if (error.includes('must NOT have additional properties')) return 'A-18';
  return 'A-17';
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
  const url = endpointUrl(options.baseUrl, endpoint, endpointId, 'endpointId', send.groupUrl ? 'group' : 'id');
  const headers: Record<string, string> = { accept: MEDIA_TYPE, 'content-type': FORM_TYPE };
  const pairs: Pair[] = [...params];
  if (!send.unsigned) {
    const signed = signRequest({ method: 'POST', url, params: pairs }, options.credentials, send);
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
    this.dispatcher = new Agent({
      connect: { timeout: options.connectTimeoutMs ?? 5_000 },
      headersTimeout: options.responseTimeoutMs ?? 30_000,
      bodyTimeout: options.responseTimeoutMs ?? 30_000,
    });
  }

  async send(operation: string, params: readonly Pair[], send: SendOptions = {}): Promise<Exchange> {
    return this.exchange(operation, buildRequest(endpointByOperation(operation), this.options, params, send));
  }

  /** Sends a request built (and perhaps altered on purpose) by the caller, and checks the answer. */
  async exchange(operation: string, request: SentRequest): Promise<Exchange> {
    const endpoint = endpointByOperation(operation);
    let response: Dispatcher.ResponseData;
    try {
      response = await undiciRequest(request.url, {
        method: 'POST',
        headers: request.headers,
        body: request.body,
        dispatcher: this.dispatcher,
      });
    } catch (err) {
      const code = (err as { code?: string }).code ?? 'error';
      // Not retried: the request may have reached the gateway and moved money.
      throw new PayconformError(
        'ERR_IO',
        `${operation}: no answer from ${new URL(request.url).origin} (${code}); not retried, check the order's ` +
          `status before sending again`,
        { field: 'base-url', rule: 'reachable', cause: err },
      );
    }
    const text = await response.body.text();
    const headers = Object.fromEntries(
      Object.entries(response.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v ?? '')]),
    );
    const contentType = headers['content-type'] ?? '';
    const problems = answerProblems(
      endpoint,
      response.statusCode,
      contentType,
      text,
      this.options.credentials.controlKey || undefined,
      this.options.answerFields,
      this.options.answers,
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
    };
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}
