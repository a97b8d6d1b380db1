/**
 * RFC 3986 §2.3 percent-encoding as RFC 5849 §3.6 requires it:
 *   unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"   (kept as they are)
 * every other character is encoded as %XX of its UTF-8 bytes, uppercase hex; a space is %20.
 * encodeURIComponent already does this except that it keeps ! ' ( ) *, so those are fixed up here.
 */
import { fieldError } from '../errors.ts';

const KEPT_BY_ENCODE_URI_COMPONENT = /[!'()*]/;
const KEPT_BY_ENCODE_URI_COMPONENT_ALL = /[!'()*]/g;

const escape = (c: string): string => `%${c.charCodeAt(0).toString(16).toUpperCase()}`;

// Two shortcuts keep HMAC signing above 1.5× oauth-sign (npm run bench): most names and values
// (ids, amounts, nonces, oauth_*) are all unreserved, and most encoded text needs no fix-up. A
// non-string from an untyped caller takes the general path and comes back a string.
export function percentEncode(value: string, field = 'value'): string {
  // Stryker disable next-line Regex,ConditionalExpression,StringLiteral: a shortcut, same result
  if (typeof value === 'string' && /^[A-Za-z0-9._~-]*$/.test(value)) return value;
  let encoded: string;
  try {
    encoded = encodeURIComponent(value);
  } catch (cause) {
    throw fieldError('ERR_ENCODING', field, 'contains a lone UTF-16 surrogate, which has no UTF-8 form', cause);
  }
  return KEPT_BY_ENCODE_URI_COMPONENT.test(encoded)
    ? encoded.replace(KEPT_BY_ENCODE_URI_COMPONENT_ALL, escape)
    : encoded;
}

/** Strict percent-decoding (UTF-8); `+` is kept as `+`. Malformed escapes or bytes are an error. */
export function percentDecode(value: string, field = 'value'): string {
  try {
    return decodeURIComponent(value);
  } catch (cause) {
    throw fieldError('ERR_ENCODING', field, 'has a malformed percent-escape or bytes that are not UTF-8', cause);
  }
}
