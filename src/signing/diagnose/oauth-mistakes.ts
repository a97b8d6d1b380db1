/**
 * OAuth canonicalisation mistakes, each an operator replacing steps of the reference recipe. Several come from
 * real signers: the Mastercard oauth1-signer-nodejs bugs (default port kept, only the first `*` and `!` encoded,
 * query values not decoded, repeated values collapsed), Postman issue #8879 (query values encoded twice), and the
 * usual `+` for space and encodeURIComponent without fix-ups.
 */
import type { Pair } from '../form-body.ts';
import { compareEncodedPairs } from '../normalize-params.ts';
import type { OAuthRecipe } from './oauth-recipe.ts';
import type { Operator } from './search.ts';

export interface OAuthMistake extends Operator {
  /** One or more changes to the reference recipe that make this mistake (several where it has variants). */
  readonly recipes: ReadonlyArray<Partial<OAuthRecipe>>;
}

const uriComponent = (s: string): string => {
  try {
    return encodeURIComponent(s);
  } catch {
    return s;
  }
};
/** The reference order by name only: b's own value on both sides makes every value equal. */
const byName = (a: Pair, b: Pair): number => compareEncodedPairs([a[0], b[1]], b);

export const STEPS = {
  method: 'method',
  urlCase: 'URL scheme and host case',
  urlPort: 'URL port',
  urlPath: 'URL path',
  urlQuery: 'URL query',
  query: 'query parameters',
  reserved: 'encoding of reserved characters',
  space: 'encoding of a space',
  hexCase: 'case of percent-escapes',
  double: 'encoding applied once',
  body: 'body parameters',
  oauth: 'oauth_* parameters',
  empty: 'empty parameters',
  realm: 'realm',
  repeated: 'repeated parameters',
  sort: 'sort',
  keyEncoding: 'HMAC key encoding',
  keyForm: 'HMAC key form',
  hash: 'hash',
} as const;

const mistake = (
  id: string,
  step: string,
  title: string,
  explanation: string,
  fix: string,
  ...recipes: Array<Partial<OAuthRecipe>>
): OAuthMistake => ({ id, scheme: 'oauth', step, title, explanation, fix, recipes });

export const OAUTH_MISTAKES: readonly OAuthMistake[] = [
  mistake(
    'double-encoding',
    STEPS.double,
    'percent-encoding applied twice',
    'Each name and value was percent-encoded twice (or an already-encoded value was encoded again), so % became %25.',
    'Decode values once on input; encode each name and value exactly once before sorting.',
    { doubleEncoded: true },
  ),
  mistake(
    'query-not-decoded',
    STEPS.query,
    'query values signed without decoding them first',
    'Query parameters went into the base string as written in the URL, so %3A was encoded again to %253A (RFC ' +
      '5849 §3.4.1.3.1 says decode first).',
    'Parse the query as application/x-www-form-urlencoded (decode + and %XX) before normalising.',
    { query: 'raw' },
  ),
  mistake(
    'plus-for-space',
    STEPS.space,
    '"+" for a space',
    'Spaces were encoded as + (form encoding) instead of %20, so the base string has %2B where %2520 belongs.',
    'Use RFC 3986 encoding: a space is %20; never use form encoding or URLSearchParams.toString() for the base string.',
    { plusForSpace: true },
  ),
  mistake(
    'encodeuricomponent-unfixed',
    STEPS.reserved,
    "encodeURIComponent without the RFC 3986 fix-ups for !'()*",
    "JavaScript's encodeURIComponent leaves ! ' ( ) * unencoded; RFC 3986 encodes them.",
    "After encodeURIComponent, replace each of ! ' ( ) * with its %XX (all occurrences).",
    { encoder: uriComponent },
  ),
  mistake(
    'only-first-star-or-bang-encoded',
    STEPS.reserved,
    'only the first * and ! encoded',
    ".replace('*', '%2A').replace('!', '%21') replaces the first occurrence only, and ' ( ) are never encoded.",
    "Use a global replacement over all five characters: /[!'()*]/g.",
    { encoder: (s) => uriComponent(s).replace('*', '%2A').replace('!', '%21') },
  ),
  mistake(
    'lowercase-hex',
    STEPS.hexCase,
    'lowercase hex in percent-encoding',
    'Percent-escapes were written %2f instead of %2F; RFC 5849 §3.6 requires uppercase hex.',
    'Uppercase the two hex digits of every %XX escape.',
    { lowerHex: true },
  ),
  mistake(
    'body-params-omitted',
    STEPS.body,
    'form-body parameters left out',
    'The base string was built from the oauth_* (and query) parameters only; every form-body parameter must be signed.',
    'Add every application/x-www-form-urlencoded body parameter to the parameter list.',
    { body: false },
  ),
  mistake(
    'query-params-omitted',
    STEPS.query,
    'query parameters left out',
    'Parameters of the URL query were not signed.',
    'Add the decoded query parameters to the parameter list (RFC 5849 §3.4.1.3.1).',
    // Stryker disable next-line StringLiteral: a query neither 'decoded' nor 'raw' is left out, as 'omitted'
    { query: 'omitted' },
  ),
  mistake(
    'oauth-params-omitted',
    STEPS.oauth,
    'oauth_* parameters left out',
    'The oauth_* protocol parameters were not included in the base string.',
    'Include oauth_consumer_key, oauth_nonce, oauth_signature_method, oauth_timestamp and oauth_version (not ' +
      'oauth_signature).',
    { oauth: false },
  ),
  mistake(
    'empty-params-dropped',
    STEPS.empty,
    'empty parameters dropped',
    'Parameters with an empty value were left out; they are signed as name= .',
    'Keep every parameter, including those with empty values.',
    { emptyDropped: true },
  ),
  mistake(
    'case-insensitive-sort',
    STEPS.sort,
    'parameters sorted case-insensitively',
    'Names were sorted ignoring case (or with localeCompare); RFC 5849 sorts by byte value, uppercase before ' +
      'lowercase.',
    'Sort by the encoded name, then the encoded value, comparing bytes (plain < on ASCII strings).',
    {
      sort: (e) => e.sort((a, b) => compareEncodedPairs([a[0].toLowerCase(), a[1]], [b[0].toLowerCase(), b[1]])),
    },
    { sort: (e) => e.sort((a, b) => a[0].localeCompare(b[0]) || a[1].localeCompare(b[1])) },
  ),
  mistake(
    'sort-by-name-only',
    STEPS.sort,
    'sorted by name only, values left in send order',
    'Parameters with the same name kept their send order; they must be sorted by value too.',
    'When names are equal, sort by the encoded value.',
    { sort: (e) => e.sort(byName) },
  ),
  mistake(
    'repeated-params-collapsed',
    STEPS.repeated,
    'repeated parameters collapsed into one',
    'Only one pair per name was signed (a map or an object was used), but every repeated pair must be signed.',
    'Keep the parameters as a list of pairs, never a map keyed by name.',
    // Stryker disable next-line StringLiteral: signedPairs compares with 'kept' and 'last' only, so '' keeps the first
    { repeated: 'first' },
    { repeated: 'last' },
  ),
  mistake(
    'method-lowercase',
    STEPS.method,
    'HTTP method in lowercase',
    'The method went into the base string as "post"; RFC 5849 §3.4.1 uppercases it.',
    'Uppercase the HTTP method in the base string (POST).',
    { method: (m) => m.toLowerCase() },
  ),
  mistake(
    'default-port-kept',
    STEPS.urlPort,
    'default port kept in the base URL',
    'The URL kept :443 (https) or :80 (http); RFC 5849 §3.4.1.2 drops the default port.',
    'Drop the port when it is the default one for the scheme (compare as numbers, not as "443" with 443).',
    { urlPort: true },
  ),
  mistake(
    'path-prefix-dropped',
    STEPS.urlPath,
    'path signed without its prefix',
    'The base URL left out the part of the path before /api/ (the gateway mount point, as /paynet), as a client ' +
      'configured with a base URL and a relative path may do.',
    'Sign the full path the request is sent to, prefix included.',
    { urlPrefixDropped: true },
  ),
  mistake(
    'query-in-base-url',
    STEPS.urlQuery,
    'query kept in the base URL',
    'The base string URI kept the query string; it must be scheme://host[:port]/path only.',
    'Remove the query and fragment from the URL; sign the query parameters as parameters.',
    { urlQuery: true },
  ),
  mistake(
    'host-not-lowercased',
    STEPS.urlCase,
    'scheme or host not lowercased',
    'The scheme and host went into the base string with their original case.',
    'Lowercase the scheme and host (the path keeps its case).',
    { urlCase: true },
  ),
  mistake(
    'hmac-key-no-ampersand',
    STEPS.keyForm,
    'HMAC key without the trailing &',
    'The HMAC key was the control key alone; it must be enc(control key) + "&" (an empty token secret).',
    'Use `${percentEncode(controlKey)}&` as the key.',
    { keyAmpersand: false },
  ),
  mistake(
    'key-not-encoded',
    STEPS.keyEncoding,
    'control key not percent-encoded in the HMAC key',
    'The control key went into the HMAC key as is; it must be percent-encoded first.',
    'Use percentEncode(controlKey) + "&".',
    { keyEncoded: false },
  ),
  mistake(
    'hmac-sha256-instead-of-sha1',
    STEPS.hash,
    'HMAC-SHA256 instead of HMAC-SHA1',
    'The HMAC was computed with SHA-256; payout and pan-eligibility use HMAC-SHA1.',
    'Use HMAC-SHA1 for the HMAC-SHA1 signature method.',
    { hmacHash: 'sha256' },
  ),
  mistake(
    'rsa-sha1-instead-of-sha256',
    STEPS.hash,
    'RSA with SHA-1 instead of SHA-256',
    'The RSA signature was made over a SHA-1 digest; the /api/v4/ endpoints use RSA-SHA256.',
    'Sign with SHA-256 (e.g. crypto.sign("sha256", …)).',
    { rsaHash: 'sha1' },
  ),
  mistake(
    'realm-signed',
    STEPS.realm,
    'realm included in the signed parameters',
    'The realm of the Authorization header was added to the parameter list; it is never signed.',
    'Leave realm out of the base string.',
    { realmSigned: true },
  ),
];
