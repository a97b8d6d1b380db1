/**
 * The requests each generated family sends, built from one correctly signed request (the base) by the
 * reference signer and the diagnose catalogue's own mistakes (C1: controlWithMistake, oauthHeaderWithMistake).
 * Pure: the steps send what these return. Every OAuth request gets a nonce and timestamp of its own (`fresh`),
 * so a refusal is for what the case changed, never for a replayed nonce.
 */
import { createHash } from 'node:crypto';
import { endpointByOperation, type Operation } from '../catalogue/index.ts';
import type { SentRequest } from '../client/client.ts';
import { FORM_TYPE, MEDIA_TYPE } from '../rules/http.ts';
import { getParam, parseAuthorizationHeader } from '../signing/authorization-header.ts';
import { controlWithMistake, MISTAKES, oauthHeaderWithMistake } from '../signing/diagnose/index.ts';
import { encodeForm, type Pair } from '../signing/form-body.ts';
import type { Credentials } from '../signing/request.ts';
import { nearMissControl, signedUrlOf, type ControlNearMiss, type OAuthNearMiss } from './near-misses.ts';

/** A fresh nonce and timestamp for each OAuth request. */
export type Fresh = () => { readonly nonce: string; readonly timestamp: string };

/** A request correctly signed by the reference signer, and what it takes to sign it again. */
export interface Base {
  readonly operation: Operation;
  readonly request: SentRequest;
  readonly credentials: Credentials;
  readonly endpointId: string;
}

/** One request a property sends: what it is, in words, and the request. */
export interface Case {
  readonly label: string;
  readonly request: SentRequest;
}

export type OAuthMethod = 'HMAC-SHA1' | 'RSA-SHA256';

/** The OAuth method an endpoint requires, or undefined for a control endpoint. */
export function oauthMethodOf(operation: Operation): OAuthMethod | undefined {
  const { kind } = endpointByOperation(operation).auth;
  return kind === 'oauth-hmac-sha1' ? 'HMAC-SHA1' : kind === 'oauth-rsa-sha256' ? 'RSA-SHA256' : undefined;
}

/** The form pairs of a request without its signature: what any signer signs. */
export const unsignedParams = (request: SentRequest): Pair[] => request.params.filter(([name]) => name !== 'control');

/** The signature a request carries: its control, or its header's oauth_signature. */
export function sentSignature(request: SentRequest): string | undefined {
  const header = request.headers.authorization;
  if (header !== undefined) return getParam(parseAuthorizationHeader(header), 'oauth_signature');
  return request.params.find(([name]) => name === 'control')?.[1];
}

/** An Authorization header over `method` and `url` (the reference's, or under a mistake of diagnose). */
export function headerOver(
  base: Base,
  fresh: Fresh,
  over: { readonly method?: string; readonly url?: string; readonly params?: readonly Pair[] } = {},
  mistake = 'none',
  method: OAuthMethod = oauthMethodOf(base.operation) ?? 'HMAC-SHA1',
): string | undefined {
  const request = {
    method: over.method ?? 'POST',
    url: over.url ?? base.request.url,
    params: over.params ?? unsignedParams(base.request),
  };
  return oauthHeaderWithMistake(mistake, { request, credentials: base.credentials, method, ...fresh() });
}

const withHeader = (request: SentRequest, authorization: string): SentRequest => ({
  ...request,
  headers: { ...request.headers, authorization },
});

const withControl = (request: SentRequest, control: string): SentRequest => {
  const params: Pair[] = [...unsignedParams(request), ['control', control]];
  return { ...request, params, body: encodeForm(params) };
};

/** The base sent again, signed afresh (a new nonce for OAuth): a valid request. */
export function resigned(base: Base, fresh: Fresh): SentRequest {
  if (oauthMethodOf(base.operation) === undefined) return base.request;
  return withHeader(base.request, headerOver(base, fresh) ?? '');
}

/** near-miss-control: the control changed; undefined where the change would change nothing. */
export function controlNearMissCase(base: Base, miss: ControlNearMiss): SentRequest | undefined {
  const control = sentSignature(base.request);
  const changed = control === undefined ? undefined : nearMissControl(control, miss);
  return changed === undefined || changed === control ? undefined : withControl(base.request, changed);
}

/** near-miss-oauth: the signature over another URL or method, lowercase escapes, or a query sent unsigned. */
export function oauthNearMissCase(base: Base, miss: OAuthNearMiss, fresh: Fresh): SentRequest | undefined {
  const { url } = base.request;
  const header =
    miss.kind === 'method'
      ? headerOver(base, fresh, { method: miss.method })
      : miss.kind === 'lowercase-escapes'
        ? headerOver(base, fresh, {}, 'lowercase-hex')
        : headerOver(base, fresh, { url: signedUrlOf(url, miss) });
  if (header === undefined) return undefined;
  if (miss.kind !== 'query-left-out') return withHeader(base.request, header);
  const sent = new URL(url);
  sent.searchParams.append(miss.name, miss.value);
  return { ...withHeader(base.request, header), url: sent.href };
}

/** The ids of the diagnose catalogue's mistakes for a scheme (C1: MISTAKES). */
export const mistakeIds = (scheme: 'control' | 'oauth'): string[] =>
  MISTAKES.filter((m) => m.scheme === scheme).map((m) => m.id);

/** The signature a partner making mistake `id` would send for the base's request, or undefined where it cannot. */
export function signatureWithMistake(base: Base, id: string, fresh: Fresh): SentRequest | undefined {
  const params = unsignedParams(base.request);
  if (oauthMethodOf(base.operation) === undefined) {
    const input = { method: 'POST', url: base.request.url, params };
    const control = controlWithMistake(id, base.operation, base.endpointId, input, base.credentials);
    return control === undefined ? undefined : withControl(base.request, control);
  }
  const header = headerOver(base, fresh, {}, id);
  return header === undefined ? undefined : withHeader(base.request, header);
}

/** known-mistakes: the request signed under `id`, unless the mistake gives the reference's signature here. */
export function knownMistakeCase(base: Base, id: string, fresh: Fresh): SentRequest | undefined {
  const wrong = signatureWithMistake(base, id, fresh);
  if (wrong === undefined) return undefined;
  // Same nonce and timestamp as the mistaken one, so the two signatures can be compared (one RSA signature each).
  const sameFresh: Fresh = () => {
    const header = wrong.headers.authorization ?? '';
    const parsed = parseAuthorizationHeader(header);
    return { nonce: getParam(parsed, 'oauth_nonce') ?? '', timestamp: getParam(parsed, 'oauth_timestamp') ?? '' };
  };
  const right = oauthMethodOf(base.operation) === undefined ? base.request : resigned(base, sameFresh);
  return sentSignature(wrong) === sentSignature(right) ? undefined : wrong;
}

/** The schemes a wrong-scheme case signs with: OAuth on a control endpoint, control or the other method on OAuth. */
export type WrongScheme = 'control' | OAuthMethod;

export function wrongSchemesOf(operation: Operation): WrongScheme[] {
  const method = oauthMethodOf(operation);
  if (method === undefined) return ['HMAC-SHA1', 'RSA-SHA256'];
  return ['control', method === 'HMAC-SHA1' ? 'RSA-SHA256' : 'HMAC-SHA1'];
}

/**
 * wrong-scheme: the request signed by a scheme its endpoint does not use, correctly by that scheme's own rules: an
 * OAuth header without control, a control (SHA-1 of the sent values and the key, as Scheme A makes it) without an
 * Authorization header, or the other OAuth method.
 */
export function wrongSchemeCase(base: Base, scheme: WrongScheme, fresh: Fresh): SentRequest | undefined {
  const params = unsignedParams(base.request);
  const { authorization: _, ...headers } = base.request.headers;
  const unsigned: SentRequest = { ...base.request, headers, params, body: encodeForm(params) };
  if (scheme !== 'control') {
    const header = headerOver(base, fresh, { params }, 'none', scheme);
    return header === undefined ? undefined : withHeader(unsigned, header);
  }
  const concatenation = params.map(([, value]) => value).join('') + (base.credentials.controlKey ?? '');
  return withControl(unsigned, createHash('sha1').update(concatenation).digest('hex'));
}

/** wrong-envelope: an Accept header other than the spec's (null: none at all). */
export const WRONG_ACCEPTS: readonly (string | null)[] = [
  null,
  '',
  '*/*',
  'application/*',
  'application/json',
  'text/html',
  'text/plain',
  'application/xml',
  `${MEDIA_TYPE}x`,
];

/** wrong-envelope: a body type other than the form's, each with its body written as that type would be. */
export const WRONG_BODY_TYPES = ['multipart/form-data', 'application/json', 'text/plain', 'application/xml'] as const;

/** wrong-envelope: methods other than POST. */
export const WRONG_METHODS = ['GET', 'PUT', 'PATCH', 'DELETE'] as const;

export type Envelope =
  | { readonly kind: 'accept'; readonly accept: string | null }
  | { readonly kind: 'body'; readonly type: (typeof WRONG_BODY_TYPES)[number] }
  | { readonly kind: 'method'; readonly method: (typeof WRONG_METHODS)[number] };

const BOUNDARY = 'payconform-generated';

function bodyAs(type: (typeof WRONG_BODY_TYPES)[number], params: readonly Pair[]): { type: string; body: string } {
  if (type === 'multipart/form-data') {
    const parts = params.map(
      ([n, v]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`,
    );
    return { type: `${type}; boundary=${BOUNDARY}`, body: `${parts.join('')}--${BOUNDARY}--\r\n` };
  }
  if (type === 'application/json') return { type, body: JSON.stringify(Object.fromEntries(params)) };
  if (type === 'application/xml')
    return { type, body: `<request>${params.map(([n]) => `<field name="${n}"/>`).join('')}</request>` };
  return { type, body: encodeForm(params) };
}

/** wrong-envelope: the request with one thing of its envelope wrong, its signature right for what is sent. */
export function wrongEnvelopeCase(base: Base, envelope: Envelope, fresh: Fresh): SentRequest {
  const { request } = base;
  if (envelope.kind === 'accept') {
    const headers = { ...resigned(base, fresh).headers };
    if (envelope.accept === null) delete headers.accept;
    else headers.accept = envelope.accept;
    return { ...request, headers };
  }
  if (envelope.kind === 'body') {
    const { type, body } = bodyAs(envelope.type, request.params);
    const signed = resigned(base, fresh);
    return { ...signed, headers: { ...signed.headers, 'content-type': type }, body };
  }
  const oauth = oauthMethodOf(base.operation) !== undefined;
  if (envelope.method === 'GET') {
    // A GET carries its fields in the query, as a form sent by GET would; signed as such.
    const url = new URL(request.url);
    for (const [n, v] of request.params) url.searchParams.append(n, v);
    const header = oauth ? headerOver(base, fresh, { method: 'GET', url: url.href, params: [] }) : undefined;
    const { 'content-type': _, ...headers } = request.headers;
    return {
      ...request,
      method: 'GET',
      url: url.href,
      body: '',
      headers: header ? { ...headers, authorization: header } : headers,
    };
  }
  const header = oauth ? headerOver(base, fresh, { method: envelope.method }) : undefined;
  return { ...(header ? withHeader(request, header) : request), method: envelope.method };
}

/** The request's form type and Accept as the spec wants them: what wrong-envelope changes one of. */
export const RIGHT_ENVELOPE = { accept: MEDIA_TYPE, contentType: FORM_TYPE } as const;
