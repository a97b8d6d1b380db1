/**
 * The OAuth base string and signature (RFC 5849 §3.4–3.6) as a recipe of steps whose defaults are the reference
 * signer's own functions. A canonicalisation mistake replaces one or more steps (oauth-mistakes.ts); mistakes at
 * different steps compose.
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
  /** oauth_* pairs from the header (oauth_signature among them is never signed). */
  readonly protocol: readonly Pair[];
  readonly realm: string | undefined;
}

export interface OAuthRecipe {
  readonly method: (method: string) => string;
  /** The base URL as written: scheme and host keep their case, a default port is kept. */
  readonly urlCase: boolean;
  readonly urlPort: boolean;
  /** The path without its prefix before /api/ (the gateway's mount point). */
  readonly urlPrefixDropped: boolean;
  /** The query kept in the base URL. */
  readonly urlQuery: boolean;
  /** The query's parameters: decoded (RFC 5849 §3.4.1.3.1), as written, or left out. */
  readonly query: 'decoded' | 'raw' | 'omitted';
  /** Encodes a name or value, and the URL and the joined parameters, before any other encoding step. */
  readonly encoder: (s: string) => string;
  readonly plusForSpace: boolean;
  readonly doubleEncoded: boolean;
  readonly lowerHex: boolean;
  readonly body: boolean;
  readonly oauth: boolean;
  readonly emptyDropped: boolean;
  readonly realmSigned: boolean;
  readonly repeated: 'kept' | 'first' | 'last';
  readonly sort: (encoded: Pair[]) => Pair[];
  readonly keyEncoded: boolean;
  readonly keyAmpersand: boolean;
  readonly hmacHash: 'sha1' | 'sha256';
  readonly rsaHash: 'sha256' | 'sha1';
}

export const REFERENCE: OAuthRecipe = {
  method: (m) => m.toUpperCase(),
  urlCase: false,
  urlPort: false,
  urlPrefixDropped: false,
  urlQuery: false,
  query: 'decoded',
  encoder: percentEncode,
  plusForSpace: false,
  doubleEncoded: false,
  lowerHex: false,
  body: true,
  oauth: true,
  emptyDropped: false,
  realmSigned: false,
  repeated: 'kept',
  sort: (encoded) => encoded.sort(compareEncodedPairs),
  keyEncoded: true,
  keyAmpersand: true,
  hmacHash: 'sha1',
  rsaHash: 'sha256',
};

/**
 * Parts of base strings already made during one diagnosis, by the settings of the steps they depend on: the search
 * meets the same URL and parameter parts under many compositions.
 */
export type Memo = Map<string, string>;

const functionIds = new WeakMap<object, number>();
let functions = 0;
/** A short stable id for a step's function (an encoder, a sort). */
function idOf(f: object): number {
  let id = functionIds.get(f);
  // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: a new id each time misses the memo
  if (id === undefined) {
    // Stryker disable next-line UpdateOperator: counting down gives distinct ids too
    id = functions++;
    functionIds.set(f, id);
  }
  return id;
}

function cached(memo: Memo | undefined, key: string, make: () => string): string {
  // Stryker disable next-line ConditionalExpression: without the memo, each part is only made again
  if (memo === undefined) return make();
  let value = memo.get(key);
  // Stryker disable next-line ConditionalExpression: made again, a part is the same
  if (value === undefined) {
    value = make();
    memo.set(key, value);
  }
  return value;
}

const lowered = (s: string): string => s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());

/** A name or value as the recipe encodes it. */
export function encodeValue(recipe: OAuthRecipe, s: string): string {
  let e = recipe.encoder(s);
  if (recipe.plusForSpace) e = e.replace(/%20/g, '+');
  if (recipe.doubleEncoded) e = recipe.encoder(e);
  return recipe.lowerHex ? lowered(e) : e;
}

/** The URL and the joined parameters as the recipe encodes them into the base string. */
const encodeOuter = (recipe: OAuthRecipe, s: string): string =>
  recipe.lowerHex ? lowered(recipe.encoder(s)) : recipe.encoder(s);

const DEFAULT_PORT: Readonly<Record<string, string>> = { http: '80', https: '443' };

/** scheme://host[:port]/path as written (query left out); the input itself when it is not written that way. */
function asWritten(input: string, keepCase: boolean, keepPort: boolean): string {
  const m = /^([a-z][a-z0-9+.-]*):\/\/(\[[^\]]*\]|[^:/?#]*)(?::([0-9]+))?([^?#]*)/i.exec(input);
  if (!m) return input;
  const [, scheme, host, port, path] = m as unknown as [string, string, string, string | undefined, string];
  const isDefault = port === DEFAULT_PORT[scheme.toLowerCase()];
  const kept = port !== undefined && (keepPort || !isDefault) ? `:${port}` : '';
  const authority = `${keepCase ? host : host.toLowerCase()}${kept}`;
  return `${keepCase ? scheme : scheme.toLowerCase()}://${authority}${path || '/'}`;
}

/** The path's prefix before /api/ left out (https://h/paynet/api/v2/x → https://h/api/v2/x). */
function prefixDropped(base: string): string {
  // Stryker disable next-line Regex: a base URL starts with its scheme, and .* runs to its end: ^ and $ change nothing
  const m = /^([a-z][a-z0-9+.-]*:\/\/[^/]*)(\/.*?)(\/api\/.*)$/i.exec(base);
  return m ? `${m[1]}${m[3]}` : base;
}

export function baseUrl(recipe: OAuthRecipe, url: NormalizedUrl): string {
  let base = recipe.urlCase || recipe.urlPort ? asWritten(url.input, recipe.urlCase, recipe.urlPort) : url.normalized;
  if (recipe.urlPrefixDropped) base = prefixDropped(base);
  return recipe.urlQuery ? `${base}${new URL(url.input).search}` : base;
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

const keepOnePerName = (pairs: Pair[], last: boolean): Pair[] => {
  const kept = new Map<string, Pair>();
  for (const p of pairs) if (last || !kept.has(p[0])) kept.set(p[0], p);
  return [...kept.values()];
};

/** The pairs the recipe signs, before encoding and sorting. */
export function signedPairs(recipe: OAuthRecipe, parts: OAuthParts): Pair[] {
  const query =
    recipe.query === 'decoded' ? parts.url.queryPairs : recipe.query === 'raw' ? rawQueryPairs(parts.url) : [];
  let pairs = collectSignedPairs(recipe.body ? parts.body : [], recipe.oauth ? parts.protocol : [], query);
  if (recipe.emptyDropped) pairs = pairs.filter(([, v]) => v !== '');
  if (recipe.realmSigned && parts.realm !== undefined) pairs.push(['realm', parts.realm]);
  return recipe.repeated === 'kept' ? pairs : keepOnePerName(pairs, recipe.repeated === 'last');
}

// Stryker disable UnaryOperator: -flag writes -1 and 0, as distinct in a memo key as +flag's 1 and 0
export function recipeBaseString(recipe: OAuthRecipe, parts: OAuthParts, memo?: Memo): string {
  const outerKey = `${idOf(recipe.encoder)}${+recipe.lowerHex}`;
  const urlKey = `u${outerKey}${+recipe.urlCase}${+recipe.urlPort}${+recipe.urlPrefixDropped}${+recipe.urlQuery}`;
  const paramsKey =
    `p${outerKey}${+recipe.plusForSpace}${+recipe.doubleEncoded}${recipe.query}${+recipe.body}${+recipe.oauth}` +
    `${+recipe.emptyDropped}${+recipe.realmSigned}${recipe.repeated}${idOf(recipe.sort)}`;
  const url = cached(memo, urlKey, () => encodeOuter(recipe, baseUrl(recipe, parts.url)));
  const params = cached(memo, paramsKey, () => {
    const encoded = signedPairs(recipe, parts).map(([n, v]): Pair => [encodeValue(recipe, n), encodeValue(recipe, v)]);
    const joined = recipe
      .sort(encoded)
      .map(([n, v]) => `${n}=${v}`)
      .join('&');
    return encodeOuter(recipe, joined);
  });
  return `${recipe.method(parts.method)}&${url}&${params}`;
}
// Stryker restore UnaryOperator

export function recipeHmacKey(recipe: OAuthRecipe, secret: string, tokenSecret: string): string {
  const key = recipe.keyEncoded ? percentEncode(secret) : secret;
  if (!recipe.keyAmpersand) return key;
  return recipe.keyEncoded ? hmacSigningKey(secret, tokenSecret) : `${key}&${tokenSecret}`;
}

export function recipeHmac(recipe: OAuthRecipe, secret: string, tokenSecret: string, baseString: string): string {
  return createHmac(recipe.hmacHash, recipeHmacKey(recipe, secret, tokenSecret))
    .update(baseString)
    .digest('base64');
}

export function oauthParts(
  method: string,
  url: string,
  body: readonly Pair[],
  protocol: readonly Pair[],
  realm: string | undefined,
): OAuthParts {
  // oauth_signature in the body is never signed: collectSignedPairs leaves it out.
  return { method, url: normalizeUrl(url), body, protocol, realm };
}
