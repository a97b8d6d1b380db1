/**
 * The OAuth base string as a recipe of steps whose defaults are the reference signer's own
 * functions. A canonicalisation mistake is the recipe with one step replaced (oauth-mistakes.ts).
 */
import { createHmac } from 'node:crypto';
import type { Pair } from '../form-body.ts';
import { hmacSigningKey } from '../hmac-sha1.ts';
import { compareEncodedPairs } from '../normalize-params.ts';
import { normalizeUrl, type NormalizedUrl } from '../normalize-url.ts';
import { collectSignedPairs } from '../oauth.ts';
import { percentEncode } from '../percent-encode.ts';

export interface OAuthParts {
  readonly method: string;
  readonly url: NormalizedUrl;
  readonly body: readonly Pair[];
  /** oauth_* pairs from the header, oauth_signature excluded. */
  readonly protocol: readonly Pair[];
  readonly realm: string | undefined;
}

export interface OAuthRecipe {
  /** Encodes each name and value (RFC 3986). */
  readonly encode: (s: string) => string;
  /** Encodes the URL and the joined parameters into the base string. */
  readonly encodeOuter: (s: string) => string;
  readonly query: (url: NormalizedUrl) => Pair[];
  readonly baseUrl: (url: NormalizedUrl) => string;
  readonly collect: (parts: OAuthParts, query: Pair[]) => Pair[];
  readonly sort: (encoded: Pair[]) => Pair[];
  readonly hmacKey: (secret: string, tokenSecret: string) => string;
  readonly hmacHash: 'sha1' | 'sha256';
  readonly rsaHash: 'sha256' | 'sha1';
}

export const REFERENCE: OAuthRecipe = {
  encode: (s) => percentEncode(s),
  encodeOuter: (s) => percentEncode(s),
  query: (url) => url.queryPairs,
  baseUrl: (url) => url.normalized,
  collect: (parts, query) => collectSignedPairs(parts.body, parts.protocol, query),
  sort: (encoded) => encoded.sort(compareEncodedPairs),
  hmacKey: (secret, tokenSecret) => hmacSigningKey(secret, tokenSecret),
  hmacHash: 'sha1',
  rsaHash: 'sha256',
};

export function recipeBaseString(recipe: OAuthRecipe, parts: OAuthParts): string {
  const pairs = recipe.collect(parts, recipe.query(parts.url));
  const sorted = recipe.sort(pairs.map(([n, v]): Pair => [recipe.encode(n), recipe.encode(v)]));
  const joined = sorted.map(([n, v]) => `${n}=${v}`).join('&');
  return `${parts.method.toUpperCase()}&${recipe.encodeOuter(recipe.baseUrl(parts.url))}&${recipe.encodeOuter(joined)}`;
}

export function recipeHmac(recipe: OAuthRecipe, secret: string, tokenSecret: string, baseString: string): string {
  return createHmac(recipe.hmacHash, recipe.hmacKey(secret, tokenSecret)).update(baseString).digest('base64');
}

export function oauthParts(
  method: string,
  url: string,
  body: readonly Pair[],
  protocol: readonly Pair[],
  realm: string | undefined,
): OAuthParts {
  return { method, url: normalizeUrl(url), body: body.filter(([n]) => n !== 'oauth_signature'), protocol, realm };
}

/** The query as written, split but not decoded (for the query-not-decoded mistake). */
export function rawQueryPairs(url: NormalizedUrl): Pair[] {
  const search = new URL(url.input).search.slice(1);
  return search
    .split('&')
    .filter(Boolean)
    .map((s): Pair => {
      const eq = s.indexOf('=');
      return eq === -1 ? [s, ''] : [s.slice(0, eq), s.slice(eq + 1)];
    });
}
