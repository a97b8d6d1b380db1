/**
 * Gateways that nobody here wrote, made from ours: a proxy in front of a running embedded mock that
 * rewrites its answers. The conforming variants differ from the mock only where the spec is silent
 * (docs/spec/api-spec.md shows no answer fields, no error codes, no status for a failed signature);
 * the broken ones break what the spec states. The proxy forwards the request's bytes and its Host
 * header unchanged, so the mock judges OAuth signatures against the URL the client signed (the
 * mock takes its origin from Host, src/mock/server.ts).
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Differences the spec allows. */
export const CONFORMING = {
  /** Unknown fields in every JSON answer (the spec shows no field list). */
  'extra-answer-fields': true,
  /** Other error codes, no `field`, another message (the spec shows none). */
  'renamed-error-codes': true,
  /** 403 with a JSON body for a failed signature or control (the spec does not show that status). */
  'signature-403': true,
  /** 401 with a plain-text body for a missing Authorization header (a status the spec does not list). */
  'auth-401-text': true,
  /** `; charset=utf-8` on the media type. */
  'charset-media-type': true,
  /** Headers of its own. */
  'extra-headers': true,
  /** JSON keys in another order, pretty-printed. */
  'reordered-keys': true,
  /** `orderid` for `paynet-order-id` and `state` for `status`: needs a profile naming them. */
  'renamed-answer-fields': true,
  /** Order ids as JSON numbers (the spec shows no answer field, nor its type). */
  'numeric-order-ids': true,
  /** Order statuses in capitals (`APPROVED`): the spec names no status. */
  'uppercase-statuses': true,
  /** 400 for every refusal: the only refusal status the spec shows. */
  'all-400': true,
  /** Error bodies with one field of its own, no `type`, no code: the spec shows no error fields. */
  'bare-error-body': true,
  /** `Application/VND.Pay+JSON`: media types are case-insensitive (RFC 9110 §8.3.1). */
  'media-type-case': true,
  /** `Connection: close` on every answer, as some load balancers do. */
  'connection-close': true,
} as const;
export type ConformingVariant = keyof typeof CONFORMING;

/** Breaches of the spec. */
export const BROKEN = {
  /** Every answer 200, refusals included. */
  'all-200': true,
  /** Every answer application/json. */
  'json-media-type': true,
  /** Refusals (400) with a plain-text body: the spec's 400 is a ValidationErrorResponse in its media type. */
  'text-400': true,
  /** Every valid request answered 500. */
  'all-500': true,
} as const;
export type BrokenVariant = keyof typeof BROKEN;

export type Variant = ConformingVariant | BrokenVariant;

/** The profile that names `renamed-answer-fields`' fields. */
export const RENAMED_FIELDS_PROFILE = {
  name: 'renamed answer fields',
  answerFields: { 'paynet-order-id': 'orderid', status: 'state' },
};

const SIGNATURE_CODES = /^(CONTROL_|AUTH_|SIGNATURE_|NONCE_|TIMESTAMP_|CONSUMER_KEY_|OAUTH_)/;

/** An answer as a proxy relays it: each header one string. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function rewrite(variants: ReadonlySet<Variant>, answer: Answer): Answer {
  let { status, body } = answer;
  const headers = { ...answer.headers };
  delete headers['content-length'];
  if ((headers['content-type'] ?? '').startsWith('application/vnd.pay+json')) {
    const json = JSON.parse(body) as Record<string, unknown>;
    const code = typeof json['error-code'] === 'string' ? json['error-code'] : undefined;
    if (variants.has('all-400') && status > 400 && status < 500) status = 400;
    if (variants.has('signature-403') && code && SIGNATURE_CODES.test(code)) status = 403;
    if (variants.has('renamed-error-codes') && code) {
      json['error-code'] = `E${code.length}-${code.toLowerCase().replaceAll('_', '.')}`;
      json['error-message'] = 'request rejected';
      delete json.field;
    }
    if (variants.has('bare-error-body') && status !== 200) {
      for (const key of Object.keys(json)) delete json[key];
      json.message = 'Validation error';
    }
    if (
      variants.has('numeric-order-ids') &&
      typeof json['paynet-order-id'] === 'string' &&
      /^\d+$/.test(json['paynet-order-id'])
    )
      json['paynet-order-id'] = Number(json['paynet-order-id']);
    if (variants.has('uppercase-statuses') && typeof json.status === 'string') json.status = json.status.toUpperCase();
    if (variants.has('extra-answer-fields'))
      Object.assign(json, { 'x-trace-id': 'trace-1', 'processing-time-ms': 3, links: { self: '/x' } });
    if (variants.has('renamed-answer-fields')) {
      for (const [ours, theirs] of Object.entries(RENAMED_FIELDS_PROFILE.answerFields)) {
        if (!(ours in json)) continue;
        json[theirs] = json[ours];
        delete json[ours];
      }
    }
    const keys = variants.has('reordered-keys') ? Object.keys(json).reverse() : Object.keys(json);
    body = JSON.stringify(
      Object.fromEntries(keys.map((k) => [k, json[k]])),
      null,
      variants.has('reordered-keys') ? 2 : undefined,
    );
    if (variants.has('auth-401-text') && code === 'AUTH_HEADER_MISSING') {
      status = 401;
      headers['content-type'] = 'text/plain';
      headers['www-authenticate'] = 'OAuth realm="gateway"';
      body = 'Authorization required';
    } else if (variants.has('charset-media-type')) headers['content-type'] = 'application/vnd.pay+json; charset=utf-8';
    if (variants.has('media-type-case'))
      headers['content-type'] = headers['content-type']!.replace(
        'application/vnd.pay+json',
        'Application/VND.Pay+JSON',
      );
    if (variants.has('json-media-type')) headers['content-type'] = 'application/json';
    if (variants.has('text-400') && status === 400) {
      headers['content-type'] = 'text/plain';
      body = 'Bad Request';
    }
  }
  if (variants.has('extra-headers'))
    Object.assign(headers, { 'x-request-id': 'req-1', 'cache-control': 'no-store', server: 'acme-gateway/2.1' });
  if (variants.has('connection-close')) headers.connection = 'close';
  if (variants.has('all-200')) status = 200;
  if (variants.has('all-500') && status === 200) {
    status = 500;
    headers['content-type'] = 'application/vnd.pay+json';
    body = '{"type":"error","error-message":"Server error"}';
  }
  return { status, headers, body };
}

export interface RunningVariant {
  readonly url: string;
  close(): Promise<void>;
}

/** A proxy at a free loopback port in front of `upstream` (an origin), answering as `variants` say. */
export function startVariant(upstream: string, variants: readonly Variant[]): Promise<RunningVariant> {
  const on = new Set(variants);
  return startRewritingProxy(upstream, (answer) => rewrite(on, answer));
}

/** A proxy at a free loopback port in front of `upstream` (an origin) that relays each answer as `change` makes it. */
export async function startRewritingProxy(
  upstream: string,
  change: (answer: Answer) => Answer,
): Promise<RunningVariant> {
  const target = new URL(upstream);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const forward = request(
        {
          host: target.hostname,
          port: target.port,
          path: req.url,
          method: req.method,
          headers: req.headers,
        },
        (up) => {
          const body: Buffer[] = [];
          up.on('data', (c: Buffer) => body.push(c));
          up.on('end', () => {
            const headers = Object.fromEntries(
              Object.entries(up.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v ?? '')]),
            );
            const answer = change({
              status: up.statusCode ?? 502,
              headers,
              body: Buffer.concat(body).toString('utf8'),
            });
            res.writeHead(answer.status, answer.headers);
            res.end(answer.body);
          });
        },
      );
      forward.on('error', () => res.destroy());
      forward.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
