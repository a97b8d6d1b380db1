/**
 * Known OAuth canonicalisation mistakes, each the reference recipe with one step replaced. Several
 * come from real signers: the Mastercard oauth1-signer-nodejs bugs (default port kept, only the first
 * `*` and `!` encoded, query values not decoded, repeated values collapsed), Postman issue #8879
 * (query values encoded twice), and the usual `+` for space and encodeURIComponent without fix-ups.
 */
import type { Pair } from '../form-body.ts';
import { compareEncodedPairs } from '../normalize-params.ts';
import { percentEncode } from '../percent-encode.ts';
import { REFERENCE, rawQueryPairs, type OAuthRecipe } from './oauth-recipe.ts';
import type { Mistake } from './types.ts';

export interface OAuthMistake extends Mistake {
  /** One or more recipes that make this mistake (several where it has variants). */
  readonly recipes: readonly OAuthRecipe[];
}

const uriComponent = (s: string): string => {
  try {
    return encodeURIComponent(s);
  } catch {
    return s;
  }
};
const lowerHex = (s: string): string => percentEncode(s).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
/** The reference order by name only: b's own value on both sides makes every value equal. */
const byName = (a: Pair, b: Pair): number => compareEncodedPairs([a[0], b[1]], b);
const keepOnePerName = (pairs: Pair[], last: boolean): Pair[] => {
  const kept = new Map<string, Pair>();
  for (const p of pairs) if (last || !kept.has(p[0])) kept.set(p[0], p);
  return [...kept.values()];
};
/** scheme://host:port/path exactly as written (case and port kept), no query. No user info: normalizeUrl rejects it. */
const asWritten = (input: string, keepCase: boolean, keepPort: boolean): string => {
  const m = /^([a-z][a-z0-9+.-]*):\/\/(\[[^\]]*\]|[^:/?#]*)(?::([0-9]+))?([^?#]*)/i.exec(input);
  if (!m) return input;
  const [, scheme, host, port, path] = m as unknown as [string, string, string, string | undefined, string];
  const authority = `${keepCase ? host : host.toLowerCase()}${port !== undefined && keepPort ? `:${port}` : ''}`;
  return `${keepCase ? scheme : scheme.toLowerCase()}://${authority}${path || '/'}`;
};
const query = (input: string): string => new URL(input).search;

const mistake = (
  id: string,
  title: string,
  explanation: string,
  fix: string,
  ...changes: Array<Partial<OAuthRecipe>>
): OAuthMistake => ({
  id,
  scheme: 'oauth',
  title,
  explanation,
  fix,
  recipes: changes.map((c) => ({ ...REFERENCE, ...c })),
});

export const OAUTH_MISTAKES: readonly OAuthMistake[] = [
  mistake(
    'double-encoding',
    'percent-encoding applied twice',
    'Each name and value was percent-encoded twice (or an already-encoded value was encoded again), so % became %25.',
    'Decode values once on input; encode each name and value exactly once before sorting.',
    { encode: (s) => percentEncode(percentEncode(s)) },
  ),
  mistake(
    'query-not-decoded',
    'query values signed without decoding them first',
    'Query parameters went into the base string as written in the URL, so %3A was encoded again to %253A (RFC ' +
      '5849 §3.4.1.3.1 says decode first).',
    'Parse the query as application/x-www-form-urlencoded (decode + and %XX) before normalising.',
    { query: rawQueryPairs },
  ),
  mistake(
    'plus-for-space',
    '"+" for a space',
    'Spaces were encoded as + (form encoding) instead of %20, so the base string has %2B where %2520 belongs.',
    'Use RFC 3986 encoding: a space is %20; never use form encoding or URLSearchParams.toString() for the base string.',
    { encode: (s) => percentEncode(s).replace(/%20/g, '+') },
  ),
  mistake(
    'encodeuricomponent-unfixed',
    "encodeURIComponent without the RFC 3986 fix-ups for !'()*",
    "JavaScript's encodeURIComponent leaves ! ' ( ) * unencoded; RFC 3986 encodes them.",
    "After encodeURIComponent, replace each of ! ' ( ) * with its %XX (all occurrences).",
    { encode: uriComponent, encodeOuter: uriComponent },
  ),
  mistake(
    'only-first-star-or-bang-encoded',
    'only the first * and ! encoded',
    ".replace('*', '%2A').replace('!', '%21') replaces the first occurrence only, and ' ( ) are never encoded.",
    "Use a global replacement over all five characters: /[!'()*]/g.",
    {
      encode: (s) => uriComponent(s).replace('*', '%2A').replace('!', '%21'),
      encodeOuter: (s) => uriComponent(s).replace('*', '%2A').replace('!', '%21'),
    },
  ),
  mistake(
    'lowercase-hex',
    'lowercase hex in percent-encoding',
    'Percent-escapes were written %2f instead of %2F; RFC 5849 §3.6 requires uppercase hex.',
    'Uppercase the two hex digits of every %XX escape.',
    { encode: lowerHex, encodeOuter: lowerHex },
  ),
  mistake(
    'body-params-omitted',
    'form-body parameters left out',
    'The base string was built from the oauth_* (and query) parameters only; every form-body parameter must be signed.',
    'Add every application/x-www-form-urlencoded body parameter to the parameter list.',
    { collect: (parts, q) => [...parts.protocol, ...q] },
  ),
  mistake(
    'query-params-omitted',
    'query parameters left out',
    'Parameters of the URL query were not signed.',
    'Add the decoded query parameters to the parameter list (RFC 5849 §3.4.1.3.1).',
    { collect: (parts) => [...parts.body, ...parts.protocol] },
  ),
  mistake(
    'oauth-params-omitted',
    'oauth_* parameters left out',
    'The oauth_* protocol parameters were not included in the base string.',
    'Include oauth_consumer_key, oauth_nonce, oauth_signature_method, oauth_timestamp and oauth_version (not ' +
      'oauth_signature).',
    { collect: (parts, q) => [...parts.body, ...q] },
  ),
  mistake(
    'empty-params-dropped',
    'empty parameters dropped',
    'Parameters with an empty value were left out; they are signed as name= .',
    'Keep every parameter, including those with empty values.',
    { collect: (parts, q) => REFERENCE.collect(parts, q).filter(([, v]) => v !== '') },
  ),
  mistake(
    'case-insensitive-sort',
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
    'sorted by name only, values left in send order',
    'Parameters with the same name kept their send order; they must be sorted by value too.',
    'When names are equal, sort by the encoded value.',
    { sort: (e) => e.sort(byName) },
  ),
  mistake(
    'repeated-params-collapsed',
    'repeated parameters collapsed into one',
    'Only one pair per name was signed (a map or an object was used), but every repeated pair must be signed.',
    'Keep the parameters as a list of pairs, never a map keyed by name.',
    { collect: (parts, q) => keepOnePerName(REFERENCE.collect(parts, q), false) },
    { collect: (parts, q) => keepOnePerName(REFERENCE.collect(parts, q), true) },
  ),
  mistake(
    'default-port-kept',
    'default port kept in the base URL',
    'The URL kept :443 (https) or :80 (http); RFC 5849 §3.4.1.2 drops the default port.',
    'Drop the port when it is the default one for the scheme (compare as numbers, not as "443" with 443).',
    { baseUrl: (url) => asWritten(url.input, false, true) },
  ),
  mistake(
    'query-in-base-url',
    'query kept in the base URL',
    'The base string URI kept the query string; it must be scheme://host[:port]/path only.',
    'Remove the query and fragment from the URL; sign the query parameters as parameters.',
    { baseUrl: (url) => `${url.normalized}${query(url.input)}` },
  ),
  mistake(
    'host-not-lowercased',
    'scheme or host not lowercased',
    'The scheme and host went into the base string with their original case.',
    'Lowercase the scheme and host (the path keeps its case).',
    { baseUrl: (url) => asWritten(url.input, true, false) },
  ),
  mistake(
    'hmac-key-no-ampersand',
    'HMAC key without the trailing &',
    'The HMAC key was the control key alone; it must be enc(control key) + "&" (an empty token secret).',
    'Use `${percentEncode(controlKey)}&` as the key.',
    { hmacKey: (secret) => percentEncode(secret) },
  ),
  mistake(
    'key-not-encoded',
    'control key not percent-encoded in the HMAC key',
    'The control key went into the HMAC key as is; it must be percent-encoded first.',
    'Use percentEncode(controlKey) + "&".',
    { hmacKey: (secret, tokenSecret) => `${secret}&${tokenSecret}` },
  ),
  mistake(
    'hmac-sha256-instead-of-sha1',
    'HMAC-SHA256 instead of HMAC-SHA1',
    'The HMAC was computed with SHA-256; payout and pan-eligibility use HMAC-SHA1.',
    'Use HMAC-SHA1 for the HMAC-SHA1 signature method.',
    { hmacHash: 'sha256' },
  ),
  mistake(
    'rsa-sha1-instead-of-sha256',
    'RSA with SHA-1 instead of SHA-256',
    'The RSA signature was made over a SHA-1 digest; the /api/v4/ endpoints use RSA-SHA256.',
    'Sign with SHA-256 (e.g. crypto.sign("sha256", …)).',
    { rsaHash: 'sha1' },
  ),
  mistake(
    'realm-signed',
    'realm included in the signed parameters',
    'The realm of the Authorization header was added to the parameter list; it is never signed.',
    'Leave realm out of the base string.',
    {
      collect: (parts, q) => [
        ...REFERENCE.collect(parts, q),
        ...(parts.realm === undefined ? [] : [['realm', parts.realm] as Pair]),
      ],
    },
  ),
];
