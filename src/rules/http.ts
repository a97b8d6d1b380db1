/**
 * Rules of the HTTP request itself (api-spec.md "Endpoints", common to all endpoints): method,
 * path, Accept, body type, size and encoding. The mock judges the first four before reading the body.
 */
import { fail, PASS, type Rule } from './rule.ts';
import type { RequestUnderTest } from './request.ts';
import { requestRule } from './request-rule.ts';
import { baseMediaType } from '../catalogue/answer-format.ts';
import { FORM_TYPE, MEDIA_TYPE } from '../catalogue/media-types.ts';

export { FORM_TYPE, MEDIA_TYPE };

type RequestRule<Id extends string, C extends string> = Rule<RequestUnderTest, Id, C>;

export const methodPost: RequestRule<'method-post', 'METHOD_NOT_ALLOWED'> = {
  id: 'method-post',
  title: 'POST',
  clause: 'Endpoints: "Method: POST"',
  basis: 'spec',
  assumptions: [],
  refusals: [{ status: 405, code: 'METHOD_NOT_ALLOWED' }],
  hint: 'Send every API request as POST.',
  check: (req) =>
    req.seen.method === 'POST'
      ? PASS
      : fail('method: only POST is allowed', {
          field: 'method',
          expected: 'POST',
          actual: req.seen.method.slice(0, 10),
        }),
};

export const endpointKnown: RequestRule<'endpoint-known', 'NOT_FOUND' | 'ENDPOINT_UNKNOWN'> = {
  id: 'endpoint-known',
  title: 'known endpoint',
  clause: 'Endpoints (path table; endpointId int64, A-8)',
  basis: 'spec',
  assumptions: ['A-8'],
  refusals: [
    { status: 404, code: 'NOT_FOUND' },
    { status: 400, code: 'ENDPOINT_UNKNOWN' },
  ],
  hint: 'Use a path of the catalogue (payconform catalogue) ending in your numeric endpointId.',
  fixedIn: 'configuration',
  check(req) {
    const match = req.match;
    if (match === undefined) {
      // A catalogue path with a malformed endpointId names an endpoint id the gateway cannot know.
      if (req.whyNoMatch.code === 'ERR_ENDPOINT_ID')
        return fail(req.whyNoMatch.message, { field: 'endpointId', code: 'ENDPOINT_UNKNOWN' });
      return fail(`path: ${req.pathname.slice(0, 100)} is no endpoint of this gateway`, { field: 'path' });
    }
    const { prefix } = req.context;
    if (prefix !== undefined && match.prefix !== prefix)
      return fail(`path: endpoints are under ${prefix || '(no prefix)'}/api/`, {
        field: 'path',
        expected: `${prefix}/api/…`,
        actual: req.pathname.slice(0, 100),
      });
    return PASS;
  },
};

export const acceptHeader: RequestRule<'accept-header', 'NOT_ACCEPTABLE'> = {
  id: 'accept-header',
  title: 'Accept header',
  clause: 'Endpoints: "Request header: Accept: application/vnd.pay+json, required"',
  basis: 'spec',
  assumptions: [],
  refusals: [{ status: 406, code: 'NOT_ACCEPTABLE' }],
  hint: `Send Accept: ${MEDIA_TYPE} exactly.`,
  check(req) {
    const accept = req.seen.headers.accept?.trim();
    if (accept === MEDIA_TYPE) return PASS;
    return fail(`accept: must be ${MEDIA_TYPE}`, {
      field: 'accept',
      expected: MEDIA_TYPE,
      actual: accept === undefined ? 'no Accept header' : JSON.stringify(accept.slice(0, 60)),
    });
  },
};

export const contentType: RequestRule<'content-type', 'UNSUPPORTED_MEDIA_TYPE'> = {
  id: 'content-type',
  title: 'content type',
  clause: 'Endpoints: "Request body: application/x-www-form-urlencoded"; Scheme B rule 1',
  basis: 'spec',
  assumptions: [],
  refusals: [{ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' }],
  hint: `Send Content-Type: ${FORM_TYPE} (a charset parameter is fine).`,
  check(req) {
    const sent = req.seen.headers['content-type'] ?? '';
    // Most clients send the type exactly; only another spelling is split from its parameters and lower-cased.
    const mediaType = sent === FORM_TYPE ? sent : baseMediaType(sent);
    if (mediaType === FORM_TYPE) return PASS;
    return fail(`content-type: must be ${FORM_TYPE}`, {
      field: 'content-type',
      expected: FORM_TYPE,
      actual: JSON.stringify(mediaType || 'missing'),
    });
  },
};

export const bodySize: RequestRule<'body-size', 'BODY_TOO_LARGE'> = {
  id: 'body-size',
  title: 'body size',
  clause: 'Limits: size limits "not shown"; A-21 (64 KiB)',
  basis: 'assumption',
  assumptions: ['A-21'],
  refusals: [{ status: 413, code: 'BODY_TOO_LARGE' }],
  hint: 'Keep a request body under 64 KiB; no field of the API needs more.',
  check(req) {
    const size = req.bodyBytes ?? Number(req.seen.headers['content-length'] ?? 0);
    const max = req.context.maxBodyBytes;
    return size <= max
      ? PASS
      : fail(`body: at most ${max} bytes`, { field: 'body', expected: `≤ ${max} bytes`, actual: `${size} bytes` });
  },
};

export const formEncoding: RequestRule<'form-encoding', 'BODY_MALFORMED'> = {
  id: 'form-encoding',
  title: 'form encoding',
  clause: 'Scheme B rule 6 (the form body carries the parameters, percent-encoded); A-10 (form rules, UTF-8)',
  basis: 'spec',
  assumptions: ['A-10'],
  refusals: [{ status: 400, code: 'BODY_MALFORMED' }],
  hint: 'Encode the body once, as UTF-8, with valid %XX escapes; let your HTTP library do it from name/value pairs.',
  check: (req) => (req.params !== undefined ? PASS : fail(`body: ${req.whyNoParams}`, { field: 'body' })),
};

/**
 * A value that still holds %XX after decoding was almost surely encoded twice. The mock accepts it: it is a legal
 * value.
 */
export const encodedOnce = requestRule({
  id: 'encoded-once',
  title: 'form values encoded once',
  clause: 'Scheme B rule 6; A-10',
  basis: 'assumption',
  assumptions: ['A-10'],
  refusals: [],
  hint: 'Percent-encode each value once: a value that still reads %XX after decoding was encoded twice.',
  needs: ['form'],
  check(req) {
    const twice = req.params.find(([, value]) => /%[0-9A-Fa-f]{2}/.test(value));
    return twice
      ? fail(`${twice[0]}: still percent-encoded after decoding (encoded twice?)`, { field: twice[0] })
      : PASS;
  },
});
