/**
 * Card data inside free text (an error message, a header, a log line): where a full card number or a CVV
 * stands. The answer rules fail an answer that echoes one (rules/answers.ts) and redaction masks them
 * (report/redact.ts): both find them here, so what is judged and what is hidden cannot drift apart.
 */
import { luhn } from './test-cards.ts';

/** A stretch of text, [start, end). */
export interface Span {
  readonly start: number;
  readonly end: number;
}

// Digits in groups as printed on a card (4-4-4-4, 4-6-5), spaced, dashed or with form-encoded spaces.
const GROUPED = /(?<![0-9])[0-9]{4,6}(?:(?:[ -]|%20|\+)[0-9]{1,6}){1,5}(?![0-9])/g;
const RUN = /(?<![0-9])[0-9]{13,19}(?![0-9])/g;

const spansOf = (text: string, pattern: RegExp, keep: (found: string) => boolean): Span[] =>
  [...text.matchAll(pattern)].filter((m) => keep(m[0])).map((m) => ({ start: m.index, end: m.index + m[0].length }));

const isPan = (found: string): boolean => {
  const digits = found.replace(/%20|[^0-9]/g, '');
  return digits.length >= 13 && digits.length <= 19 && luhn(digits);
};

/** A grouped card number followed by more digits ("… 1111 2 times"): the longest run of its groups that is one. */
function groupedPan(start: number, found: string): Span | undefined {
  const groups = found.split(/(?=(?:[ -]|%20|\+)[0-9])/);
  for (let n = groups.length; n > 1; n--) {
    const head = groups.slice(0, n).join('');
    if (isPan(head)) return { start, end: start + head.length };
  }
  return undefined;
}

/**
 * Where a full card number stands: a 13–19 digit run (or one grouped as on a card) that passes the Luhn
 * check, and wherever a card number of `sent` (the request's) appears, even inside a longer run of digits.
 */
export function panSpans(text: string, sent: readonly string[] = []): Span[] {
  const found = spansOf(text, RUN, isPan);
  for (const m of text.matchAll(GROUPED)) {
    const span = groupedPan(m.index, m[0]);
    if (span !== undefined) found.push(span);
  }
  for (const pan of sent) {
    if (!/^[0-9]{12,19}$/.test(pan)) continue;
    for (let at = text.indexOf(pan); at !== -1; at = text.indexOf(pan, at + 1))
      found.push({ start: at, end: at + pan.length });
  }
  return found;
}

// The names a CVV goes by: form fields, JSON keys, words of an error message ("security code").
// Words of a name are joined by a space, `_` or `-`, or an encoded space.
const JOIN = String.raw`(?:[ _-]|%20|\+)?`;
const CVV_NAME =
  String.raw`(?<![A-Za-z])(?:cvv2|cvc2|cvv|cvc|cvn|cid|csc|(?:card${JOIN})?security${JOIN}code|` +
  String.raw`card${JOIN}verification)(?:${JOIN}(?:value|code|number))?(?![A-Za-z0-9])`;
// Between a name and its value: quotes, colons, equals, spaces and brackets, raw, backslash- or percent-escaped.
const BETWEEN = String.raw`(?:[\s"'\x60:=\\,;()[\]{}<>+|]|%[0-9A-Fa-f]{2}|&(?:quot|apos|#34|#39|#x22|#x27);){1,12}`;
const NAMED_CVV = new RegExp(`${CVV_NAME}${BETWEEN}([0-9]{3,4})(?![0-9])`, 'gi');
// A few words between a value the request sent and a CVV's name: "123 is not the cvv2", "cvv2 of the card 123".
const WORDS = String.raw`(?:[\s'"]+[A-Za-z]+){0,4}[\s'":]+`;

/**
 * Where a CVV stands: three or four digits right after a CVV's name (`cvv2=123`, `"cvv2":"123"`,
 * `security code: 123`, escaped or encoded); and a value of `sent` (the CVVs the request sent) a few words
 * before or after a CVV's name. With `onlySent`, only the values the request sent count,
 * so a rule fails an echo and never another number that happens to follow the word "cvv".
 * A CVV is three digits: anywhere else, the same digits are an amount or a count, and stay.
 */
export function cvvSpans(text: string, sent: readonly string[], onlySent = false): Span[] {
  const found: Span[] = [];
  for (const m of text.matchAll(NAMED_CVV)) {
    const value = m[1] ?? '';
    if (onlySent && !sent.includes(value)) continue;
    const end = m.index + m[0].length;
    found.push({ start: end - value.length, end });
  }
  for (const value of new Set(sent)) {
    if (!/^[0-9]{3,4}$/.test(value)) continue;
    for (const m of text.matchAll(new RegExp(`(?<![0-9])${value}(?=${WORDS}${CVV_NAME})`, 'gi')))
      found.push({ start: m.index, end: m.index + value.length });
    for (const m of text.matchAll(new RegExp(`${CVV_NAME}${WORDS}${value}(?![0-9])`, 'gi')))
      found.push({ start: m.index + m[0].length - value.length, end: m.index + m[0].length });
  }
  return found;
}

/** `text` with each span (overlapping ones merged) replaced by what `mask` makes of its text. */
export function replaceSpans(text: string, spans: readonly Span[], mask: (found: string) => string): string {
  const merged: Span[] = [];
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    const last = merged.at(-1);
    if (last !== undefined && span.start < last.end)
      merged[merged.length - 1] = { ...last, end: Math.max(last.end, span.end) };
    else merged.push(span);
  }
  let out = '';
  let at = 0;
  for (const { start, end } of merged) {
    out += text.slice(at, start) + mask(text.slice(start, end));
    at = end;
  }
  return out + text.slice(at);
}
