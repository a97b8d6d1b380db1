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
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  if (a[1] !== b[1]) return a[1] < b[1] ? -1 : 1;
  return 0;
}

/** `pairs` are the decoded parameters from body, query and protocol, oauth_signature already left out. */
export function normalizeParams(pairs: readonly Pair[]): NormalizedParams {
  const sorted: Pair[] = new Array(pairs.length);
  for (let i = 0; i < pairs.length; i++) {
    const [name, value] = pairs[i]!;
    sorted[i] = [percentEncode(name, name), percentEncode(value, name)];
  }
  sorted.sort(compareEncodedPairs);
  let normalized = '';
  for (let i = 0; i < sorted.length; i++) {
    normalized += (i === 0 ? '' : '&') + sorted[i]![0] + '=' + sorted[i]![1];
  }
  return { sorted, normalized };
}
