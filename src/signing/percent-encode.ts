/**
 * RFC 3986 §2.3 percent-encoding as RFC 5849 §3.6 requires it:
 *   unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"   (kept as they are)
 * every other character is encoded as %XX of its UTF-8 bytes, uppercase hex; a space is %20.
 * encodeURIComponent already does this except that it keeps ! ' ( ) *, so those are fixed up here.
 */
import { fieldError } from '../errors.ts';

const KEPT_BY_ENCODE_URI_COMPONENT = /[!'()*]/;
const KEPT_BY_ENCODE_URI_COMPONENT_ALL = /[!'()*]/g;

const fixUp = (c: string): string => `%${c.charCodeAt(0).toString(16).toUpperCase()}`;

// Most names and values (ids, amounts, nonces, timestamps, oauth_* names) are pure unreserved
// ASCII and encode to themselves: one anchored regex test is far cheaper than encodeURIComponent
// plus the fix-up test. Such text holds no lone surrogate, so no encoding error is skipped either.
// Stryker disable next-line Regex: a changed pattern only moves text between the fast and the slow path, which agree on unreserved text
const UNRESERVED_ONLY = /^[A-Za-z0-9._~-]*$/;

export function percentEncode(value: string, field = 'value'): string {
  // typeof: a non-string from an untyped caller still goes the slow way and comes back a string.
  // Stryker disable next-line StringLiteral,ConditionalExpression: either mutant only drops the fast path, whose result the slow path equals
  if (typeof value === 'string' && UNRESERVED_ONLY.test(value)) return value;
  let encoded: string;
  try {
    encoded = encodeURIComponent(value);
  } catch (cause) {
    throw fieldError('ERR_ENCODING', field, 'contains a lone UTF-16 surrogate, which has no UTF-8 form', cause);
  }
  return KEPT_BY_ENCODE_URI_COMPONENT.test(encoded)
    ? encoded.replace(KEPT_BY_ENCODE_URI_COMPONENT_ALL, fixUp)
    : encoded;
}

/** Strict percent-decoding (UTF-8); `+` is kept as `+`. Malformed escapes or bytes are an error. */
export function percentDecode(value: string, field = 'value'): string {
  // Stryker disable next-line StringLiteral,ConditionalExpression: either mutant only drops the fast path; decodeURIComponent keeps text without '%' as it is
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch (cause) {
    throw fieldError('ERR_ENCODING', field, 'has a malformed percent-escape or bytes that are not UTF-8', cause);
  }
}
