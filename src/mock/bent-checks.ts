/**
 * The checks a deliberately broken gateway runs instead of a signature or envelope rule, for the defects that
 * only the generated checks of certify catch (docs/prove.md): each is the rule's own check where it holds, and a
 * slip of the kind real gateways make where it does not: a float for the cents, a prefix compared, a base string
 * built without a part or with another encoder. A defect in defects.ts names the rule each one replaces.
 */
import { baseMediaType } from '../catalogue/answer-format.ts';
import { OP } from '../catalogue/index.ts';
import { isPayconformError } from '../errors.ts';
import { controlFormat, controlPresent, controlSignature } from '../rules/control.ts';
import { contentType, formEncoding } from '../rules/http.ts';
import { credentialsOf, type Merchant } from '../rules/merchant.ts';
import { oauthSignature, requiredMethod } from '../rules/oauth.ts';
import type { RequestUnderTest } from '../rules/request.ts';
import { fail, PASS, type Outcome } from '../rules/rule.ts';
import type { ParsedAuthorization } from '../signing/authorization-header.ts';
import { controlConcatenation, controlOf } from '../signing/control.ts';
import { controlWithMistake } from '../signing/diagnose/index.ts';
import { encodeForm, type Pair } from '../signing/form-body.ts';
import { hmacSha1Signature, hmacSigningKey } from '../signing/hmac-sha1.ts';
import { loadPublicKey } from '../signing/keys.ts';
import { compareEncodedPairs } from '../signing/normalize-params.ts';
import { normalizeUrl } from '../signing/normalize-url.ts';
import { collectSignedPairs, oauthBaseString } from '../signing/oauth.ts';
import { percentEncode } from '../signing/percent-encode.ts';
import { rsaSha256Verify } from '../signing/rsa-sha256.ts';
import { compareSignature, constantTimeEqual } from '../signing/verify.ts';

type Check = (req: RequestUnderTest) => Outcome;

const controlMismatch = (req: RequestUnderTest): Outcome =>
  fail(`control: does not match ${req.match?.endpoint.operation ?? 'the operation'}'s formula`, { field: 'control' });

/** A control refused for not matching, not for a formula field missing or malformed (which stays refused). */
const isMismatch = (outcome: Outcome): boolean => outcome.outcome === 'fail' && outcome.evidence.code === undefined;

/** The one control sent, or undefined where the real rule must say what is wrong. */
function sentControl(req: RequestUnderTest): string | undefined {
  const controls = req.controls;
  return controls?.length === 1 && req.match !== undefined && req.merchant !== undefined ? controls[0] : undefined;
}

/** Whether the control sent matches the formula with the amount in these cents; undefined where not computable. */
function controlMatches(req: RequestUnderTest, sent: string, amountCents: string | undefined): boolean | undefined {
  const { match, params, merchant } = req;
  if (match === undefined || params === undefined || merchant === undefined) return undefined;
  try {
    const request = { method: 'POST', url: req.seen.url, params };
    return compareSignature(request, credentialsOf(merchant), { control: sent }, { match, amountCents }).valid;
  } catch (err) {
    if (isPayconformError(err)) return undefined; // a formula field missing: the rule says which
    throw err;
  }
}

/** truncated-float-cents: cents as PHP's (int)($amount*100), a binary float truncated: 8.20 → 819. */
export const truncatedFloatCents: Check = (req) => {
  const sent = sentControl(req);
  const amount = req.field('amount');
  if (sent === undefined || amount === undefined || req.amount?.cents === undefined) return controlSignature.check(req);
  const matches = controlMatches(req, sent, String(Math.trunc(parseFloat(amount) * 100)));
  if (matches === undefined) return controlSignature.check(req);
  return matches ? PASS : controlMismatch(req);
};

/** The operations whose decimal-amount control the gateway of decimal-amount-elsewhere still refuses. */
const CENTS_CHECKED = new Set<string>([OP.SALE, OP.CAPTURE]);

/** decimal-amount-elsewhere: the control made over the decimal amount passes too, but for SALE and CAPTURE. */
export const decimalAmountElsewhere: Check = (req) => {
  const outcome = controlSignature.check(req);
  const sent = sentControl(req);
  const { match, params, merchant } = req;
  if (!isMismatch(outcome) || sent === undefined || match === undefined || params === undefined) return outcome;
  if (merchant === undefined || CENTS_CHECKED.has(match.endpoint.operation)) return outcome;
  const request = { method: 'POST', url: req.seen.url, params };
  const decimal = controlWithMistake('decimal-amount', match.endpoint.operation, match.endpointId, request, {
    login: merchant.login,
    controlKey: merchant.merchantControlKey,
  });
  return decimal !== undefined && constantTimeEqual(sent, decimal) ? PASS : outcome;
};

/**
 * control-prefix-compare: a start of at least 8 hex digits, as `strncmp($expected, $sent, strlen($sent))` behind a
 * length check compares it. Shorter ones stay malformed: a control of a digit or two would be redacted from every
 * report as the request's signature, digits of HTTP statuses with it.
 */
const HEX_PREFIX = /^[0-9a-f]{8,40}$/;

/** control-prefix-compare: a control of 8 to 40 lowercase hex digits is well-formed. */
export const prefixShapedControl: Check = (req) => {
  const controls = req.controls;
  const only = controls?.length === 1 ? controls[0] : undefined;
  return only !== undefined && HEX_PREFIX.test(only) ? PASS : controlFormat.check(req);
};

/** control-prefix-compare: a control passes when it is the start of the right one. */
export const prefixComparedControl: Check = (req) => {
  const outcome = controlSignature.check(req);
  const sent = sentControl(req);
  const { match, params, merchant } = req;
  if (!isMismatch(outcome) || sent === undefined || !HEX_PREFIX.test(sent)) return outcome;
  if (match === undefined || params === undefined || merchant === undefined) return outcome;
  const { auth, operation } = match.endpoint;
  if (auth.kind !== 'control') return outcome;
  const ctx = { operation, endpointId: match.endpointId, login: merchant.login, params };
  const right = controlOf(controlConcatenation(auth.fields, ctx), merchant.merchantControlKey);
  return constantTimeEqual(sent, right.slice(0, sent.length)) ? PASS : outcome;
};

/** What an OAuth bend checks: the signature sent under the endpoint's method, over a base string of its choice. */
interface SignedOAuth {
  readonly header: ParsedAuthorization;
  readonly signature: string;
  readonly method: 'HMAC-SHA1' | 'RSA-SHA256';
  readonly params: readonly Pair[];
  readonly url: string;
  readonly merchant: Merchant;
}

/** The request's OAuth signature, or undefined where the real rule (or one before it) must say what is wrong. */
function signedOAuth(req: RequestUnderTest): SignedOAuth | undefined {
  const { header, params, merchant, match } = req;
  const signature = req.oauthParam('oauth_signature');
  if (header === undefined || params === undefined || merchant === undefined || signature === undefined) return;
  if (match === undefined || !match.endpoint.auth.kind.startsWith('oauth-')) return;
  const method = requiredMethod(req);
  if (req.oauthParam('oauth_signature_method') !== method) return;
  if (method === 'RSA-SHA256' && merchant.publicKeyPem === undefined) return;
  return { header, signature, method, params, url: req.seen.signedFor ?? req.seen.url, merchant };
}

function signsOver(s: SignedOAuth, baseString: string): boolean {
  const { merchant } = s;
  if (s.method === 'HMAC-SHA1')
    return constantTimeEqual(s.signature, hmacSha1Signature(hmacSigningKey(merchant.merchantControlKey), baseString));
  return rsaSha256Verify(loadPublicKey(merchant.publicKeyPem ?? ''), baseString, s.signature);
}

/** The base strings a bend also (or instead) verifies against; one it cannot build (bad encoding) is none. */
type BaseStrings = (s: SignedOAuth) => string[];

function signedOverAny(s: SignedOAuth, variants: BaseStrings): boolean {
  let bases: string[];
  try {
    bases = variants(s);
  } catch (err) {
    if (isPayconformError(err) || err instanceof URIError) return false;
    throw err;
  }
  return bases.some((b) => signsOver(s, b));
}

/** The OAuth signature passes over the right base string or over any of these. */
export const oauthAlsoOver =
  (variants: BaseStrings): Check =>
  (req) => {
    const outcome = oauthSignature.check(req);
    if (outcome.outcome !== 'fail') return outcome;
    const s = signedOAuth(req);
    return s !== undefined && signedOverAny(s, variants) ? PASS : outcome;
  };

/** The OAuth signature is checked over this base string instead of the right one. */
export const oauthOnlyOver =
  (variant: (s: SignedOAuth) => string): Check =>
  (req) => {
    const s = signedOAuth(req);
    if (s === undefined) return oauthSignature.check(req);
    if (signedOverAny(s, (x) => [variant(x)])) return PASS;
    const outcome = oauthSignature.check(req);
    return outcome.outcome === 'fail'
      ? outcome
      : fail(`authorization: ${s.method} signature does not match the request`, { field: 'oauth_signature' });
  };

/** The right base string for another method or URL. */
export const baseStringFor = (s: SignedOAuth, method: string, url: string): string =>
  oauthBaseString({ method, url, params: s.params }, s.header.pairs).baseString;

type Encoder = (text: string) => string;

/** The base string with other encoders: `inner` for each name and value, `outer` for the URL and the parameters. */
export function encodedBaseString(s: SignedOAuth, inner: Encoder, outer: Encoder): string {
  const url = normalizeUrl(s.url);
  const body = s.params.filter(([name]) => name !== 'oauth_signature');
  const pairs = collectSignedPairs(body, s.header.pairs, url.queryPairs)
    .map(([name, value]): Pair => [inner(name), inner(value)])
    .sort(compareEncodedPairs);
  return `POST&${outer(url.normalized)}&${outer(pairs.map(([name, value]) => `${name}=${value}`).join('&'))}`;
}

/** RFC 3986 encoding with lowercase hex in its escapes (%2f), which RFC 5849 §3.6 forbids. */
export const lowercaseEscapes: Encoder = (text) =>
  percentEncode(text).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());

/** encodeURIComponent as it is: it keeps ! ' ( ) *, which RFC 3986 encodes. */
export const uriComponent: Encoder = (text) => encodeURIComponent(text);
export { percentEncode as rfc3986 };

/** accept-oauth-on-control: no control, but an HMAC-SHA1 Authorization header with key "control key&" that verifies. */
export const oauthInsteadOfControl: Check = (req) => {
  const { header, params, merchant } = req;
  const signature = req.oauthParam('oauth_signature');
  const usable =
    req.controls?.length === 0 &&
    header !== undefined &&
    params !== undefined &&
    merchant !== undefined &&
    signature !== undefined &&
    req.oauthParam('oauth_signature_method') === 'HMAC-SHA1';
  if (!usable) return controlPresent.check(req);
  const { baseString } = oauthBaseString({ method: 'POST', url: req.seen.url, params }, header.pairs);
  const expected = hmacSha1Signature(hmacSigningKey(merchant.merchantControlKey), baseString);
  return constantTimeEqual(signature, expected) ? PASS : controlPresent.check(req);
};

const MULTIPART = 'multipart/form-data';
const isMultipart = (req: RequestUnderTest): boolean =>
  baseMediaType(req.seen.headers['content-type'] ?? '') === MULTIPART;

/** multipart-as-form: a body labelled multipart/form-data is taken in. */
export const multipartTaken: Check = (req) => (isMultipart(req) ? PASS : contentType.check(req));

/** The fields of a multipart/form-data body (RFC 7578), read simply; undefined where it is not one. */
function multipartFields(body: Buffer, type: string): Pair[] | undefined {
  const boundary = /;\s*boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (boundary === undefined) return undefined;
  const fields: Pair[] = [];
  for (const part of body.toString('utf8').split(`--${boundary}`).slice(1)) {
    if (part.startsWith('--')) return fields;
    const end = part.indexOf('\r\n\r\n');
    const name = end === -1 ? undefined : /\bname="([^"]*)"/i.exec(part.slice(0, end))?.[1];
    if (name === undefined) return undefined;
    fields.push([name, part.slice(end + 4).replace(/\r\n$/, '')]);
  }
  return undefined;
}

/**
 * multipart-as-form: the fields of a multipart body are read as the form, then judged as one (the gateway's body
 * reader, which the rules stand for here: the request is given the form it made of them).
 */
export const multipartReadAsForm: Check = (req) => {
  const body = req.receivedBody;
  const type = req.seen.headers['content-type'] ?? '';
  const fields = isMultipart(req) && body !== undefined ? multipartFields(body, type) : undefined;
  if (fields !== undefined) req.withBody(Buffer.from(encodeForm(fields)));
  return formEncoding.check(req);
};

/** The URL with the other of http and https. */
export const otherScheme = (url: string): string =>
  url.replace(/^https?:/i, (scheme) => (scheme.toLowerCase() === 'http:' ? 'https:' : 'http:'));

/** The URL without its query (and fragment). */
export const withoutQuery = (url: string): string => url.replace(/[?#].*$/s, '');

/** The methods a base string may name instead of POST, for method-not-signed. */
export const OTHER_METHODS = ['GET', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'] as const;
