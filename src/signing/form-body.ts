/**
 * application/x-www-form-urlencoded bodies and query strings as ordered name/value pairs.
 * Names may repeat, so pairs are kept as an array in send order, never a map.
 */
import { fieldError } from '../errors.ts';
import { percentDecode, percentEncode } from './percent-encode.ts';

export type Pair = readonly [name: string, value: string];

/**
 * Decodes `a=1&b=x+y` into pairs (`+` is a space, then percent-decoding; RFC 5849 §3.4.1.3.1 reads
 * body and query parameters this way). Empty segments (`a=1&&b=2`) are skipped; a segment without
 * `=` is a name with an empty value.
 */
export function decodeForm(text: string, field = 'body'): Pair[] {
  const pairs: Pair[] = [];
  let start = 0;
  // Names and values are cut from the text by position, not split into segments first: the mock decodes every body.
  for (let index = 1; ; index++) {
    const amp = text.indexOf('&', start);
    const end = amp === -1 ? text.length : amp;
    if (end > start) {
      const eq = text.indexOf('=', start);
      // The name ends at the segment's first `=`, else with the segment (and the value slice after it is empty).
      const named = eq === -1 ? end : Math.min(eq, end);
      pairs.push([
        formDecode(text.slice(start, named), field, index),
        formDecode(text.slice(named + 1, end), field, index),
      ]);
    }
    if (amp === -1) return pairs;
    start = amp + 1;
  }
}

/**
 * One name or value: `+` a space, then percent-decoding, skipped where there is nothing to decode (the mock's hot
 * path).
 */
function formDecode(raw: string, field: string, index: number): string {
  const spaced = raw.includes('+') ? raw.replaceAll('+', ' ') : raw;
  const first = spaced.indexOf('%');
  if (first === -1) return spaced;
  try {
    return asciiEscapesDecoded(spaced, first) ?? decodeURIComponent(spaced);
  } catch {
    // The field's label is built only for the error: a SALE has eight encoded values to decode.
    return percentDecode(spaced, `${field} (parameter ${index})`);
  }
}

/** Encodes pairs as a form body with RFC 3986 encoding (a space is %20, which every form decoder reads). */
export function encodeForm(pairs: readonly Pair[]): string {
  return pairs.map(([name, value]) => `${percentEncode(name, name)}=${percentEncode(value, name)}`).join('&');
}

/** Parses a `name=value` command-line parameter; the value may itself contain `=`. */
export function parseParamOption(option: string, field = '--param'): Pair {
  const eq = option.indexOf('=');
  if (eq <= 0) throw fieldError('ERR_FORM_BODY', field, `"${option.slice(0, 40)}" must be written name=value`);
  // Node reads argument bytes that are not UTF-8 as U+FFFD, which would be signed in their place:
  // refused as --body-file refuses such bytes. The value is not shown (it may be a card number).
  if (option.includes('\uFFFD'))
    throw fieldError(
      'ERR_ENCODING',
      field,
      `${option.slice(0, Math.min(eq, 40))} has bytes that are not UTF-8 (read as U+FFFD, which would be signed ` +
        `in their place); give the value as UTF-8 text`,
    );
  return [option.slice(0, eq), option.slice(eq + 1)];
}

/** A hex digit's value, else a negative number (a character below `0` gives its distance from it). */
const hexValue = (code: number): number =>
  code <= 57 ? code - 48 : (code | 32) >= 97 && (code | 32) <= 102 ? (code | 32) - 87 : -1;

/**
 * The text with its escapes decoded where every one is a well-formed escape of an ASCII byte (`%20`, `%40`, `%2F`: what
 * form bodies mostly carry), else undefined for decodeURIComponent to decode or refuse: a byte of UTF-8's multi-byte
 * sequences needs its neighbours. A third cheaper than decodeURIComponent, which the mock pays for most values.
 * `first` is the index of the text's first `%`. Exported for its own property test: through decodeForm, a fast path
 * that gives up too often is only slower.
 */
export function asciiEscapesDecoded(text: string, first: number): string | undefined {
  let decoded = '';
  let from = 0;
  for (let at = first; at !== -1; at = text.indexOf('%', from)) {
    const high = hexValue(text.charCodeAt(at + 1));
    const low = hexValue(text.charCodeAt(at + 2));
    if (high < 0 || high > 7 || low < 0) return undefined;
    decoded += text.slice(from, at) + String.fromCharCode(high * 16 + low);
    from = at + 3;
  }
  return decoded + text.slice(from);
}
