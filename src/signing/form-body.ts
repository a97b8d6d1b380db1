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
  let index = 0;
  // Names and values are cut from the text by position, not split into segments first: the mock decodes every body.
  for (let start = 0; start <= text.length; index++) {
    const amp = text.indexOf('&', start);
    const end = amp === -1 ? text.length : amp;
    if (end > start) {
      const eq = text.indexOf('=', start);
      const named = eq === -1 || eq > end ? end : eq;
      const rawValue = named === end ? '' : text.slice(named + 1, end);
      pairs.push([formDecode(text.slice(start, named), field, index + 1), formDecode(rawValue, field, index + 1)]);
    }
    start = end + 1;
  }
  return pairs;
}

/**
 * One name or value: `+` a space, then percent-decoding, skipped where there is nothing to decode (the mock's hot
 * path).
 */
function formDecode(raw: string, field: string, index: number): string {
  const spaced = raw.includes('+') ? raw.replaceAll('+', ' ') : raw;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
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
