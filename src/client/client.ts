/**
 * The API client: builds the form body, signs it as the catalogue says (control field or OAuth
 * header), sends it with undici over a kept-alive pool, and parses and schema-checks the answer.
 * A POST may move money, so it is never retried: a timeout is reported, not repeated.
 */
import { Agent, request as undiciRequest, type Dispatcher } from 'undici';
import { endpointByOperation, endpointUrl, type Endpoint } from '../catalogue/index.ts';
import { PayconformError } from '../errors.ts';
import { encodeForm, type Pair } from '../signing/form-body.ts';
import type { Credentials } from '../signing/request.ts';
import { signRequest, type SignOptions } from '../signing/sign.ts';
import { validateResponse } from '../schemas/index.ts';

import { answerMediaType, noControlKeyInAnswer } from '../rules/answers.ts';
import { FORM_TYPE, MEDIA_TYPE } from '../rules/http.ts';

export { FORM_TYPE, MEDIA_TYPE };

export interface ClientOptions {
  /** {base_url}: origin plus any prefix before /api/. */
  readonly baseUrl: string;
  readonly credentials: Credentials;
  /** The endpointId (or endpoint group id) used when a call names none. */
  readonly endpointId?: string | undefined;
  readonly connectTimeoutMs?: number;
  readonly responseTimeoutMs?: number;
}

export interface SendOptions extends SignOptions {
  readonly endpointId?: string | undefined;
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
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly contentType: string;
  /** Parsed JSON when the answer is application/vnd.pay+json, else the text. */
  readonly body: unknown;
  /**
   * Problems of the answer against the spec: media type, the JSON Schema of its status (which also
   * refuses a full card number), and `leak:` when it echoes the merchant control key.
   */
  readonly problems: string[];
}

/** Which schema an answer must follow: the endpoint's 200 body, or the spec's error bodies. */
export function schemaForStatus(endpoint: Endpoint, status: number): string | null {
  if (status === 200) return endpoint.responseSchema;
  if (status === 400) return 'ValidationErrorResponse';
  if (status === 500) return 'ServerErrorResponse';
  return null;
}

export function buildRequest(endpoint: Endpoint, options: ClientOptions, params: readonly Pair[], send: SendOptions = {}): SentRequest {
  const endpointId = send.endpointId ?? options.endpointId;
  if (endpointId === undefined) throw new PayconformError('ERR_ENDPOINT_ID', 'endpointId: missing (give --endpoint-id or set PAYCONFORM_ENDPOINT_ID)', { field: 'endpointId', rule: 'required' });
  const url = endpointUrl(options.baseUrl, endpoint, endpointId);
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
      response = await undiciRequest(request.url, { method: 'POST', headers: request.headers, body: request.body, dispatcher: this.dispatcher });
    } catch (err) {
      const code = (err as { code?: string }).code ?? 'error';
      // Not retried: the request may have reached the gateway and moved money.
      throw new PayconformError('ERR_IO', `${operation}: no answer from ${new URL(request.url).origin} (${code}); not retried, check the order's status before sending again`, { field: 'base-url', rule: 'reachable', cause: err });
    }
    const text = await response.body.text();
    const headers = Object.fromEntries(Object.entries(response.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v ?? '')]));
    const contentType = headers['content-type'] ?? '';
    const problems: string[] = [];
    const seen = { status: response.statusCode, contentType, text, controlKey: this.options.credentials.controlKey || undefined };
    // The answer rules of the rule book; the schema check below adds the body's shape.
    const leak = noControlKeyInAnswer.check(seen);
    if (leak.outcome === 'fail') problems.push(leak.evidence.message);
    let body: unknown = text;
    const media = answerMediaType.check(seen);
    if (media.outcome === 'pass') {
      try {
        body = JSON.parse(text);
      } catch {
        problems.push(`body: is not JSON although the content type is ${MEDIA_TYPE}`);
      }
    } else if (media.outcome === 'fail') {
      problems.push(media.evidence.message);
    }
    const schema = schemaForStatus(endpoint, response.statusCode);
    if (schema === null && endpoint.responseSchema !== null) problems.push(`status: ${response.statusCode} is none of the spec's 200, 400, 500`);
    if (schema !== null && problems.length === 0) {
      const result = validateResponse(schema, body);
      if (!result.valid) problems.push(...result.errors.map((e) => `${schema}${e}`));
    }
    return { operation: endpoint.operation, request, status: response.statusCode, headers, contentType, body, problems };
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}
