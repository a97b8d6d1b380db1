/**
 * How the OpenAPI document describes authentication, which OpenAPI cannot express: the control
 * field's formula per operation (`x-payconform-control`) and OAuth 1.0a (`x-payconform-oauth1`, and
 * two security schemes `{type: http, scheme: OAuth}`: OAuth is in IANA's HTTP authentication scheme
 * registry, RFC 5849, but OpenAPI has no OAuth 1 flow). The facts come from the catalogue and signing.
 */
import type { Endpoint, SignableScheme } from '../catalogue/index.ts';
import { CONTROL_KEY_PLACEHOLDER, CONTROL_PATTERN, formulaText } from '../signing/control.ts';
import { MIN_RSA_BITS } from '../signing/keys.ts';
import type { SignatureMethod } from '../signing/oauth-params.ts';

type Json = Record<string, unknown>;

/** The security scheme of each OAuth signature method, by its name in components.securitySchemes. */
export const OAUTH_SCHEMES: Readonly<Record<SignatureMethod, string>> = {
  'HMAC-SHA1': 'OAuth1HmacSha1',
  'RSA-SHA256': 'OAuth1RsaSha256',
};

/** The signature method of an OAuth row, undefined for the control field and "none stated". */
/** The OAuth signature method of each OAuth scheme of the catalogue. */
const OAUTH_METHODS = { 'oauth-hmac-sha1': 'HMAC-SHA1', 'oauth-rsa-sha256': 'RSA-SHA256' } as const satisfies Record<
  Exclude<SignableScheme, 'control'>,
  SignatureMethod
>;

export function signatureMethodOf(endpoint: Endpoint): SignatureMethod | undefined {
  const kind = endpoint.auth.kind;
  return kind === 'oauth-hmac-sha1' || kind === 'oauth-rsa-sha256' ? OAUTH_METHODS[kind] : undefined;
}

const KEY_NAME = CONTROL_KEY_PLACEHOLDER.slice(1, -1);

/** The `Control` schema: the form field's shape. */
export const CONTROL_SCHEMA: Json = {
  type: 'string',
  pattern: CONTROL_PATTERN,
  description:
    'The request signature of the control scheme (api-spec.md Scheme A): SHA-1 of the plain concatenation of the ' +
    'values the ' +
    `operation's formula names, in its order, with the merchant control key last; amounts in integer cents. ` +
    ('The formula of each operation is in its description and its x-payconform-control extension. The spec leaves ' +
      "the digest's ") +
    'encoding open: payconform takes 40 lowercase hex digits (A-1) over the UTF-8 bytes of the concatenation (A-2).',
  'x-payconform-assumptions': ['A-1', 'A-2'],
};

/**
 * The `x-payconform-control` extension of a control-scheme operation: the formula's fields in order,
 * each with its source (url: the endpointId or group id of the path; credentials: the merchant
 * login; params: the form field of that name) and whether it enters in cents; the key last.
 */
export function controlExtension(endpoint: Endpoint, groupUrl: boolean): Json | undefined {
  if (endpoint.auth.kind !== 'control') return undefined;
  return {
    formula: formulaText(endpoint.auth.fields),
    fields: endpoint.auth.fields.map(({ name, from, cents, whenSent }) => ({
      name,
      from,
      cents,
      ...(whenSent === true
        ? { whenSent, sent: 'only when the request sends it: absent or empty, nothing enters' }
        : {}),
      ...(from === 'url'
        ? {
            value: groupUrl
              ? 'the groupId of the path (an endpoint group id, A-3)'
              : 'the endpointId of the path (or the endpoint group id sent in its place, A-3)',
          }
        : {}),
      ...(from === 'credentials' ? { value: 'the merchant login (A-6)' } : {}),
      ...(cents ? { value: 'the amount in integer cents: 10.00 becomes 1000 (A-7: at most two decimals)' } : {}),
    })),
    key: { name: KEY_NAME, position: 'last', sent: false },
    digest: 'SHA-1',
    encoding: 'lowercase hex, 40 digits (A-1)',
    concatenation: 'plain, no separators, UTF-8 bytes (A-2)',
    // The spec states none for this operation; the formula is the family's public page's.
    ...(endpoint.auth.fromPublicPage !== undefined ? { statedBy: endpoint.auth.fromPublicPage } : {}),
    field: 'control',
  };
}

/** One paragraph of an operation's description on how it is authenticated. */
export function authProse(endpoint: Endpoint, groupUrl: boolean): string {
  switch (endpoint.auth.kind) {
    case 'control': {
      const named = endpoint.auth.fields.some((f) => f.from === 'url');
      const where = !groupUrl
        ? ''
        : named
          ? " The groupId of the path takes the endpointId's place in the formula (A-3)."
          : ' The formula names no endpointId, so the groupId is not in it (A-3).';
      const page =
        endpoint.auth.fromPublicPage === undefined
          ? ''
          : ` api-spec.md states no authentication here; the formula is the family's public ` +
            `page's, ${endpoint.auth.fromPublicPage} (A-12, A-24).`;
      return (
        `Authentication: the \`control\` form field, control = ${formulaText(endpoint.auth.fields)}; 40 lowercase ` +
        `hex digits (A-1).${page}${where} ` +
        'OpenAPI cannot compute it: `payconform sign` does (see x-payconform-control).'
      );
    }
    case 'oauth-hmac-sha1':
    case 'oauth-rsa-sha256': {
      const method = OAUTH_METHODS[endpoint.auth.kind];
      return (
        `Authentication: OAuth 1.0a (RFC 5849) with ${method} in the Authorization header (security ` +
        `scheme ${OAUTH_SCHEMES[method]}; rules in x-payconform-oauth1). ` +
        'OpenAPI cannot compute the signature: `payconform sign` does.'
      );
    }
    case 'unstated':
      return (
        'Authentication: none stated by api-spec.md; payconform sends no signature and its mock asks for ' +
        'none (A-12, A-24).'
      );
  }
}

/** Description of a security scheme: the OAuth 1.0a signature of one method. */
export function securitySchemes(): Json {
  return {
    [OAUTH_SCHEMES['HMAC-SHA1']]: {
      type: 'http',
      scheme: 'OAuth',
      description:
        'OAuth 1.0a (RFC 5849), HMAC-SHA1: the v2 payout and pan-eligibility. Authorization: OAuth ' +
        'oauth_consumer_key="<login>", ' +
        (`oauth_nonce, oauth_signature_method="HMAC-SHA1", oauth_timestamp, oauth_version="1.0", oauth_signature; ` +
          `signing key \`${CONTROL_KEY_PLACEHOLDER}&\` `) +
        ('(the percent-encoded control key, an ampersand, an empty token secret). OpenAPI has no OAuth 1 scheme: ' +
          'the rules are in x-payconform-oauth1.'),
      'x-payconform-signature': { signatureMethod: 'HMAC-SHA1', key: `${CONTROL_KEY_PLACEHOLDER}&`, output: 'Base64' },
    },
    [OAUTH_SCHEMES['RSA-SHA256']]: {
      type: 'http',
      scheme: 'OAuth',
      description:
        'OAuth 1.0a (RFC 5849), RSA-SHA256: every /api/v4/ endpoint. Authorization: OAuth ' +
        'oauth_consumer_key="<login>", oauth_nonce, ' +
        (`oauth_signature_method="RSA-SHA256", oauth_timestamp, oauth_version="1.0", oauth_signature; signed with ` +
          `the merchant's RSA private key `) +
        (`(PEM, at least ${MIN_RSA_BITS} bits) over the UTF-8 bytes of the base string, verified by the operator ` +
          `with the public key. `) +
        'OpenAPI has no OAuth 1 scheme: the rules are in x-payconform-oauth1.',
      'x-payconform-signature': {
        signatureMethod: 'RSA-SHA256',
        key: "the merchant's RSA private key (PEM); the operator holds its public key",
        minimumBits: MIN_RSA_BITS,
        output: 'Base64',
      },
    },
  };
}

/** The document's `x-payconform-oauth1`: api-spec.md Scheme B, as rules a reader can implement. */
export function oauthExtension(): Json {
  return {
    rfc: 'RFC 5849 (OAuth 1.0a)',
    header:
      'Authorization: OAuth name="value", … (comma, optional space; realm optional; each value percent-encoded on ' +
      'its own, the nonce and the signature above all)',
    parameters: {
      oauth_consumer_key: 'the merchant login',
      oauth_nonce: 'a unique random string per request',
      oauth_signature_method: 'HMAC-SHA1 or RSA-SHA256, as the operation says',
      oauth_timestamp: 'the current time in seconds (payconform assumes ±300 s tolerance, A-22)',
      oauth_version: '1.0',
      oauth_signature: 'Base64 of the signature, percent-encoded in the header',
    },
    baseString: [
      'POST&<url>&<params>, each of the three elements percent-encoded (RFC 3986: reserved characters such as % / ' +
        '= are encoded, a space is %20, never +)',
      '<url>: the normalized request URL, without a default port',
      '<params>: every form-body parameter, the oauth_* parameters and any query parameters, oauth_signature left out',
      'each name and value percent-encoded, the pairs sorted by name, joined as name=value with &, and the whole ' +
        'string percent-encoded once more',
    ],
    methods: {
      'HMAC-SHA1': { key: `${CONTROL_KEY_PLACEHOLDER}&`, appliesTo: 'the v2 payout and pan-eligibility' },
      'RSA-SHA256': {
        key: `the merchant's RSA private key, PEM, at least ${MIN_RSA_BITS} bits`,
        appliesTo: 'every /api/v4/ endpoint',
      },
    },
    body:
      'application/x-www-form-urlencoded, the request parameters percent-encoded; the oauth_* parameters go ' +
      'in the header, not the body (A-26 on the HMAC example that repeats them)',
    tools: 'payconform sign / verify / explain compute and check it; docs/openapi.md',
  };
}
