/**
 * Scheme B, OAuth 1.0a (api-spec.md "Authentication", Scheme B; RFC 5849): the Authorization header
 * and its parameters, the signature method of the endpoint, the timestamp window and nonce replay
 * rules the spec leaves open, and the signature over the base string.
 */
import { getParam, type ParsedAuthorization } from '../signing/authorization-header.ts';
import { hasFacts, type RequestUnderTest, type With } from './request.ts';
import { requestRule, type Applicability } from './request-rule.ts';
import { fail, PASS, skip, type Outcome } from './rule.ts';
import { signatureOutcome } from './signature-evidence.ts';

/**
 * A request the OAuth check refuses is answered 403 Forbidden, as the family's public gateways do: "quickly identify
 * if 403 Forbidden error received from the API server is due to a bad signature or another issue"
 * (doc.payneteasy.com/integration_helpers/oauth.html; A-21). Missing or malformed body fields stay 400.
 */
const FORBIDDEN = 403;

/** The parameters every OAuth request carries, in the order a missing one is named. */
const REQUIRED_PARAMS = [
  'oauth_consumer_key',
  'oauth_nonce',
  'oauth_signature_method',
  'oauth_timestamp',
  'oauth_signature',
] as const;

/** The required parameters as sent, once all are there: the rules after the header checks read these. */
type SentOAuth = { readonly [name in (typeof REQUIRED_PARAMS)[number]]: string } & {
  readonly header: ParsedAuthorization;
};

/** Scheme B's rules judge the endpoints signed with OAuth only. */
const OAUTH_ENDPOINTS: Applicability = {
  to: (endpoint) => endpoint.auth.kind.startsWith('oauth-'),
  otherwise: 'does not apply: the endpoint is not signed with OAuth',
};

/** The first required parameter the header lacks, or undefined. */
const missingParam = (req: RequestUnderTest): string | undefined =>
  REQUIRED_PARAMS.find((name) => req.oauthParam(name) === undefined);

const HEADER_CHECKS_FAILED = 'not reached: no well-formed Authorization header (the header checks say why)';

/** The required parameters, or the skip of a rule that needs them: the header checks failed. */
function sentOAuth(req: With<'endpoint'>): SentOAuth | Outcome {
  const header = req.header;
  // On its own: as one more `||` below it could be dropped unnoticed (no header, no parameters either).
  if (header === undefined) return skip(HEADER_CHECKS_FAILED);
  const [consumerKey, nonce, method, timestamp, signature] = REQUIRED_PARAMS.map((name) => getParam(header, name));
  if (
    consumerKey === undefined ||
    nonce === undefined ||
    method === undefined ||
    timestamp === undefined ||
    signature === undefined
  )
    return skip(HEADER_CHECKS_FAILED);
  return {
    header,
    oauth_consumer_key: consumerKey,
    oauth_nonce: nonce,
    oauth_signature_method: method,
    oauth_timestamp: timestamp,
    oauth_signature: signature,
  };
}

const isOutcome = (value: SentOAuth | Outcome): value is Outcome => 'outcome' in value;

/** The signature method the endpoint requires; a request that names no OAuth endpoint is a caller's bug. */
export function requiredMethod(req: RequestUnderTest): 'HMAC-SHA1' | 'RSA-SHA256' {
  if (!hasFacts(req, ['endpoint'])) throw new Error('internal: requiredMethod of a request that names no endpoint');
  return req.match.endpoint.auth.kind === 'oauth-hmac-sha1' ? 'HMAC-SHA1' : 'RSA-SHA256';
}

/**
 * The header checks need no catalogue row: diagnose runs them on an OAuth 1.0a request outside the catalogue
 * too (the RFC 5849 examples), where no rule of the book applies.
 */
export function authorizationSent(req: RequestUnderTest): Outcome {
  return req.authorization !== undefined
    ? PASS
    : fail('authorization: missing: an OAuth Authorization header is required', { field: 'authorization' });
}

export function authorizationWellFormed(req: RequestUnderTest): Outcome {
  if (req.authorization === undefined) return skip('no Authorization header');
  if (req.header === undefined) return fail(req.whyNoHeader, { field: 'authorization' });
  const missing = missingParam(req);
  // The field is the parameter itself: verify tells a missing oauth_signature (unsigned) from a malformed header.
  return missing === undefined ? PASS : fail(`authorization: ${missing} is missing`, { field: missing });
}

export const oauthHeaderPresent = requestRule({
  id: 'oauth-header-present',
  title: 'OAuth Authorization header sent',
  clause: 'Scheme B rule 2: "Header Authorization starts with OAuth"',
  basis: 'spec',
  assumptions: [],
  refusals: [{ status: FORBIDDEN, code: 'AUTH_HEADER_MISSING' }],
  hint: 'Send the OAuth 1.0a Authorization header on every request of an OAuth endpoint.',
  needs: ['endpoint'],
  only: OAUTH_ENDPOINTS,
  check: authorizationSent,
});

export const oauthHeaderFormat = requestRule({
  id: 'oauth-header-format',
  title: 'OAuth header well-formed',
  clause: 'Scheme B rules 2–3 (name="value" pairs, each percent-encoded); A-11',
  basis: 'spec',
  assumptions: ['A-11'],
  refusals: [{ status: FORBIDDEN, code: 'AUTH_HEADER_MALFORMED' }],
  hint: 'Write every oauth_* parameter once as name="percent-encoded value", separated by commas.',
  needs: ['endpoint'],
  only: OAUTH_ENDPOINTS,
  check: authorizationWellFormed,
});

export const oauthBodyConsistent = requestRule({
  id: 'oauth-body-consistent',
  title: 'oauth_* in the body repeat the header',
  clause: 'Scheme B rule 6 (the HMAC example repeats oauth_* in the body); A-26',
  basis: 'assumption',
  assumptions: ['A-26'],
  refusals: [{ status: FORBIDDEN, code: 'OAUTH_PARAM_CONFLICT' }],
  hint: 'Leave oauth_* out of the form body, or repeat exactly what the Authorization header says.',
  needs: ['endpoint', 'form'],
  only: OAUTH_ENDPOINTS,
  check(req) {
    const sent = sentOAuth(req);
    if (isOutcome(sent)) return sent;
    const conflict = req.params.find(([name, value]) => name.startsWith('oauth_') && req.oauthParam(name) !== value);
    return conflict === undefined
      ? PASS
      : fail(`${conflict[0]}: in the form body it must repeat the Authorization header's value, or be left out`, {
          field: conflict[0],
        });
  },
});

export const consumerKeyKnown = requestRule({
  id: 'consumer-key-known',
  title: 'consumer key is the merchant login',
  clause: 'Scheme B rule 2: oauth_consumer_key = merchant login',
  basis: 'spec',
  assumptions: [],
  refusals: [
    { status: FORBIDDEN, code: 'CONSUMER_KEY_UNKNOWN' },
    { status: 400, code: 'ENDPOINT_UNKNOWN' },
  ],
  hint: 'Send your merchant login as oauth_consumer_key, on an endpoint id of that merchant.',
  fixedIn: 'configuration',
  needs: ['endpoint', 'merchant'],
  only: OAUTH_ENDPOINTS,
  check(req) {
    const sent = sentOAuth(req);
    if (isOutcome(sent)) return sent;
    const consumerKey = sent.oauth_consumer_key;
    const merchant = req.context.merchants.find((m) => m.login === consumerKey);
    if (!merchant)
      return fail('authorization: oauth_consumer_key is not a known merchant login', { field: 'oauth_consumer_key' });
    if (merchant !== req.merchant)
      return fail(`endpointId: ${req.match.endpointId} is not an endpoint of this merchant`, {
        field: 'endpointId',
        code: 'ENDPOINT_UNKNOWN',
      });
    return PASS;
  },
});

export const signatureMethod = requestRule({
  id: 'signature-method',
  title: 'signature method of the endpoint',
  clause: 'Scheme B: HMAC-SHA1 for payout, RSA-SHA256 for every /api/v4/ endpoint',
  basis: 'spec',
  assumptions: [],
  refusals: [{ status: FORBIDDEN, code: 'SIGNATURE_METHOD_WRONG' }],
  hint: 'Sign payout with HMAC-SHA1 (key "control key&") and every /api/v4/ endpoint with RSA-SHA256.',
  needs: ['endpoint'],
  only: OAUTH_ENDPOINTS,
  check(req) {
    const sent = sentOAuth(req);
    if (isOutcome(sent)) return sent;
    const required = requiredMethod(req);
    const method = sent.oauth_signature_method;
    return method === required
      ? PASS
      : fail(
          `authorization: oauth_signature_method is ${method.slice(0, 20)}; ` +
            `${req.match.endpoint.operation} requires ${required}`,
          {
            field: 'oauth_signature_method',
            expected: required,
            actual: method.slice(0, 20),
          },
        );
  },
});

export const oauthVersion = requestRule({
  id: 'oauth-version',
  title: 'oauth_version 1.0',
  clause: 'Scheme B rule 2: oauth_version "1.0"; A-9 (it may be left out)',
  basis: 'spec',
  assumptions: ['A-9'],
  refusals: [{ status: FORBIDDEN, code: 'OAUTH_VERSION_WRONG' }],
  hint: 'Send oauth_version="1.0", or leave it out.',
  needs: ['endpoint'],
  only: OAUTH_ENDPOINTS,
  check(req) {
    const sent = sentOAuth(req);
    if (isOutcome(sent)) return sent;
    const version = req.oauthParam('oauth_version');
    return version === undefined || version === '1.0'
      ? PASS
      : fail(`authorization: oauth_version must be 1.0 (got ${version.slice(0, 20)})`, {
          field: 'oauth_version',
          expected: '1.0',
          actual: version.slice(0, 20),
        });
  },
});

/** Seconds since the epoch of the request's oauth_timestamp, or NaN. */
const timestampOf = (sent: SentOAuth): number => Number(sent.oauth_timestamp);

export const oauthTimestampWindow = requestRule({
  id: 'oauth-timestamp-window',
  title: 'OAuth timestamp fresh',
  clause: 'Scheme B rule 2: oauth_timestamp "current time in seconds"; tolerance "not shown": A-22',
  basis: 'assumption',
  assumptions: ['A-22'],
  refusals: [{ status: FORBIDDEN, code: 'TIMESTAMP_OUT_OF_WINDOW' }],
  hint: 'Use the current Unix time in seconds, and keep the server clock in sync (NTP).',
  needs: ['endpoint'],
  only: OAUTH_ENDPOINTS,
  check(req) {
    const sent = sentOAuth(req);
    if (isOutcome(sent)) return sent;
    const timestamp = timestampOf(sent);
    const now = Math.floor(req.context.now() / 1000);
    const window = req.context.windowSeconds;
    if (Number.isInteger(timestamp) && Math.abs(now - timestamp) <= window) return PASS;
    // A millisecond timestamp is the most common way to be years off: say so.
    const unit =
      Number.isInteger(timestamp) && timestamp > 1e11
        ? `; ${timestamp} looks like milliseconds, and oauth_timestamp is in seconds`
        : '';
    return fail(`authorization: oauth_timestamp must be within ${window} s of the server's clock${unit}`, {
      field: 'oauth_timestamp',
      expected: `within ±${window} s`,
      actual: Number.isInteger(timestamp) ? `${now - timestamp} s away` : 'not a whole number',
    });
  },
});

export const oauthSignature = requestRule({
  id: 'oauth-signature',
  title: 'OAuth signature',
  clause: 'Scheme B rules 4–5: the base string POST&url&params, HMAC-SHA1 with key "secret&" or RSA-SHA256',
  basis: 'spec',
  assumptions: [],
  refusals: [
    { status: FORBIDDEN, code: 'SIGNATURE_INVALID' },
    { status: 400, code: 'FIELD_MISSING' },
    { status: 400, code: 'FIELD_INVALID' },
  ],
  hint: 'See the diagnosis and the step-by-step explanation; fix the named canonicalisation step.',
  needs: ['endpoint', 'form', 'merchant'],
  only: OAUTH_ENDPOINTS,
  check(req) {
    const sent = sentOAuth(req);
    if (isOutcome(sent)) return sent;
    return signatureOutcome(
      req,
      { header: sent.header, signature: sent.oauth_signature },
      'oauth_signature',
      `authorization: ${requiredMethod(req)} signature does not match the request`,
    );
  },
});

export const nonceUnique = requestRule({
  id: 'nonce-unique',
  title: 'OAuth nonce unique',
  clause: 'Limits: "The nonce must be unique per request"; replay rules "not shown": A-22',
  basis: 'spec',
  assumptions: ['A-22'],
  refusals: [{ status: FORBIDDEN, code: 'NONCE_REPLAYED' }],
  hint: 'Make a fresh random oauth_nonce for every request, retries included.',
  needs: ['endpoint'],
  only: OAUTH_ENDPOINTS,
  check(req) {
    const sent = sentOAuth(req);
    if (isOutcome(sent)) return sent;
    // The mock reaches this rule only once the signature is valid, so nobody can burn another merchant's nonces.
    const now = Math.floor(req.context.now() / 1000);
    const timestamp = timestampOf(sent);
    const fresh = req.context.nonces.remember(
      sent.oauth_consumer_key,
      sent.oauth_nonce,
      Number.isInteger(timestamp) ? timestamp : now,
      now,
    );
    return fresh
      ? PASS
      : fail('authorization: oauth_nonce was already used within the timestamp window', { field: 'oauth_nonce' });
  },
});

/**
 * The spec's operations put oauth_* in the header only. Its own HMAC-SHA1 example repeats them in the body, and
 * the family's public HMAC page asks for exactly that ("OAuth parameters must be included in request body",
 * doc.payneteasy.com integration_helpers/oauth.html; A-26): on an HMAC-SHA1 endpoint a repeat is the documented
 * form (oauth-body-consistent holds it to the header), elsewhere inspect reports it.
 */
export const noOAuthInBody = requestRule({
  id: 'no-oauth-in-body',
  title: 'no oauth_* in the body (RSA-SHA256)',
  clause:
    'Scheme B rule 6: oauth_* go in the Authorization header, not in the form body; the HMAC-SHA1 example repeats ' +
    'them; A-26',
  basis: 'spec',
  assumptions: ['A-26'],
  refusals: [],
  hint: 'Send the oauth_* parameters only in the Authorization header.',
  needs: ['endpoint', 'form'],
  check(req) {
    const names = [...new Set(req.params.filter(([n]) => n.startsWith('oauth_')).map(([n]) => n))];
    if (names.length === 0) return PASS;
    if (req.match.endpoint.auth.kind === 'oauth-hmac-sha1')
      return skip("HMAC-SHA1: the spec's example and the public HMAC page repeat oauth_* in the body (A-26)");
    return fail(`${names.join(', ')} in the form body`, { field: names[0] });
  },
});
