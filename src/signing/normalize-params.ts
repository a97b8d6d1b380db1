/**
 * Parameter normalisation, RFC 5849 §3.4.1.3.2: encode every name and value (§3.6), sort by
 * encoded name, then by encoded value where names are equal, in byte order, and join `name=value`
 * pairs with `&`. Encoded text is ASCII, so UTF-16 code-unit comparison is byte order.
 */
import type { Pair } from './form-body.ts';
import { percentEncode } from './percent-encode.ts';

export interface NormalizedParams {
  /** Encoded pairs in sorted order. */
  readonly sorted: Pair[];
  /** The joined string that is percent-encoded once more into the base string. */
  readonly normalized: string;
}

export function compareEncodedPairs(a: Pair, b: Pair): number {
  if (a[0] < b[0]) return -1;
  if (a[0] > b[0]) return 1;
  if (a[1] < b[1]) return -1;
  if (a[1] > b[1]) return 1;
  return 0;
}

/** `pairs` are the decoded parameters from body, query and protocol, oauth_signature already left out. */
export function normalizeParams(pairs: readonly Pair[]): NormalizedParams {
  const sorted = pairs
    .map(([name, value]): Pair => [percentEncode(name, name), percentEncode(value, name)])
    .sort(compareEncodedPairs);
  return { sorted, normalized: sorted.map(([name, value]) => `${name}=${value}`).join('&') };
}
