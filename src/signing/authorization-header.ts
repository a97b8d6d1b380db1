/**
 * The `Authorization: OAuth …` header, RFC 5849 §3.5.1 and api-spec.md Scheme B rules 2-3.
 * Built canonically (vector-format.md): `OAuth `, `realm="…"` when given, then the oauth_*
 * parameters sorted by name, each `name="percent-encoded value"`, joined by `, `.
 * Parsed leniently where the spec allows it: any order, optional spaces after commas, no realm.
 */
import { PayconformError } from '../errors.ts';
import type { Pair } from './form-body.ts';
import { percentDecode, percentEncode } from './percent-encode.ts';

export function buildAuthorizationHeader(oauthPairs: readonly Pair[], realm?: string): string {
  let header = 'OAuth ';
  let separator = '';
  if (realm !== undefined) {
    if (/["\\\r\n]/.test(realm)) throw headerError('realm must not contain a quote, backslash or line break');
    header += `realm="${realm}"`;
    separator = ', ';
  }
  // A stable insertion sort of a copy, by name: the pairs are a handful and arrive nearly sorted
  // (oauth_signature is appended last), where it beats Array#sort with a comparator closure.
  // Each pair goes after every pair whose name is not greater (so equal names keep their order).
  const sorted: Pair[] = [];
  for (const pair of oauthPairs) {
    let at = sorted.length;
    while (at > 0 && (sorted[at - 1] as Pair)[0] > pair[0]) at--; // at > 0: sorted[at - 1] is there
    sorted.splice(at, 0, pair);
  }
  // Appending as we go instead of collecting parts and joining them with ", ".
  for (const [name, value] of sorted) {
    header += `${separator}${name}="${percentEncode(value, name)}"`;
    separator = ', ';
  }
  return header;
}

export interface ParsedAuthorization {
  /** The realm as written (not signed, not percent-decoded), if present. */
  readonly realm: string | undefined;
  /** Decoded oauth_* parameters in header order, oauth_signature included. */
  readonly pairs: Pair[];
}

// One `name="value"` item, then a comma (with optional whitespace around it) or the end.
const ITEM = /[ \t]*([A-Za-z0-9_]+)[ \t]*=[ \t]*"([^"]*)"[ \t]*(?:,|$)/y;

export function parseAuthorizationHeader(header: string): ParsedAuthorization {
  const scheme = /^[ \t]*OAuth[ \t]+/i.exec(header);
  if (!scheme) throw headerError('must start with "OAuth " followed by name="value" parameters');
  let realm: string | undefined;
  const pairs: Pair[] = [];
  const seen = new Set<string>();
  ITEM.lastIndex = scheme[0].length;
  while (ITEM.lastIndex < header.length) {
    const at = ITEM.lastIndex;
    const item = ITEM.exec(header);
    if (!item) throw headerError(`malformed at character ${at + 1}: expected name="value" items separated by commas`);
    const [, name, raw] = item as unknown as [string, string, string];
    if (seen.has(name)) throw headerError(`parameter ${name} appears more than once`);
    seen.add(name);
    if (name === 'realm') realm = raw;
    else if (name.startsWith('oauth_')) pairs.push([name, percentDecode(raw, `authorization ${name}`)]);
    else throw headerError(`unexpected parameter "${name}" (only realm and oauth_* belong here)`);
    // ITEM ends with a comma or at the end of the header, so the next item starts right after this one.
  }
  if (pairs.length === 0) throw headerError('carries no oauth_* parameters');
  return { realm, pairs };
}

export function getParam(parsed: ParsedAuthorization, name: string): string | undefined {
  return parsed.pairs.find(([n]) => n === name)?.[1];
}

function headerError(rule: string): PayconformError {
  return new PayconformError('ERR_AUTH_HEADER', `authorization: ${rule}`, { field: 'authorization', rule });
}
