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

// Up to this many pairs are sorted by insertion while they are encoded: a request has tens of
// parameters, and for so few an inline insertion sort is several times faster than Array#sort with
// a comparator. Both are stable, and pairs that compare equal are equal strings, so the result is
// the same; longer lists (fuzzing, odd forms) take Array#sort and stay O(n log n).
const INSERTION_SORT_MAX = 64;

/** `pairs` are the decoded parameters from body, query and protocol, oauth_signature already left out. */
export function normalizeParams(pairs: readonly Pair[]): NormalizedParams {
  const n = pairs.length;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: both sorts give the same order (see above); the limit is for speed only
  const small = n <= INSERTION_SORT_MAX;
  const sorted: Pair[] = [];
  for (let i = 0; i < n; i++) {
    const pair = pairs[i]!; // indexing, not destructuring: no iterator per pair
    const encoded: Pair = [percentEncode(pair[0], pair[0]), percentEncode(pair[1], pair[0])];
    let j = i;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: moving equal pairs or also insertion-sorting a large list gives the same order
    if (small) for (; j > 0 && compareEncodedPairs(sorted[j - 1]!, encoded) > 0; j--) sorted[j] = sorted[j - 1]!;
    sorted[j] = encoded;
  }
  // Stryker disable next-line ConditionalExpression: sorting an already sorted small list changes nothing
  if (!small) sorted.sort(compareEncodedPairs);
  let normalized = '';
  for (let i = 0; i < n; i++) {
    normalized += (i === 0 ? '' : '&') + sorted[i]![0] + '=' + sorted[i]![1];
  }
  return { sorted, normalized };
}
