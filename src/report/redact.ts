/**
 * Redaction of card data for anything printed, logged or attached (design.md, Habits: a PAN shows
 * at most its first six and last four digits; a CVV never shows). Redaction is by field name, so
 * it is anchored and never rewrites unrelated text that happens to share digits.
 */
import { CARD_NUMBER_FIELDS, CVV_FIELDS, maskCardNumber } from '../catalogue/test-cards.ts';
import type { Pair } from '../signing/form-body.ts';
import { percentEncode } from '../signing/percent-encode.ts';

/** The masked form of a field's value, or null when the field is not sensitive. */
export function maskedValue(name: string, value: string): string | null {
  if (CARD_NUMBER_FIELDS.has(name)) return maskCardNumber(value);
  if (CVV_FIELDS.has(name)) return '***';
  return null;
}

export function hasSensitivePairs(pairs: readonly Pair[]): boolean {
  return pairs.some(([name, value]) => maskedValue(name, value) !== null);
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Masks the values of sensitive pairs wherever they appear in `text` as `name=value` (raw,
 * percent-encoded once or twice, as in a base string) or as `"name" = "value"` (explanations).
 */
export function redactPairsInText(text: string, pairs: readonly Pair[]): string {
  let out = text;
  for (const [name, value] of pairs) {
    const masked = maskedValue(name, value);
    if (masked === null || value === '') continue;
    const forms: Array<[string, string, string]> = [
      [`${JSON.stringify(name)} = `, JSON.stringify(value), JSON.stringify(masked)],
      [`${name}=`, value, masked],
    ];
    const once = [percentEncode(name), percentEncode(value), percentEncode(masked)] as const;
    forms.push([`${once[0]}=`, once[1], once[2]]);
    forms.push([`${percentEncode(once[0])}%3D`, percentEncode(once[1]), percentEncode(once[2])]);
    for (const [prefix, raw, replacement] of forms) {
      out = out.replace(new RegExp(escapeRegExp(prefix + raw) + '(?=$|[&"\\s,]|%26)', 'g'), () => prefix + replacement);
    }
  }
  return out;
}

/**
 * An answer as it may be printed: wherever a gateway echoed them, the request's card numbers are
 * masked and the given secrets (the control key) replaced. CVVs are too short to find safely and
 * are never sent back by a conforming gateway; the suite fails one that does (schemas, A-5).
 */
export function redactEchoes(
  text: string,
  pairs: readonly Pair[],
  secrets: readonly (string | undefined)[] = [],
): string {
  let out = text;
  for (const [name, value] of pairs)
    if (CARD_NUMBER_FIELDS.has(name) && value.length >= 12) out = out.replaceAll(value, maskCardNumber(value));
  // A form-text answer (`a=b\n&c=d`, a gateway profile's answers.format) carries a secret form-encoded.
  for (const secret of secrets)
    if (secret)
      for (const form of new Set([
        secret,
        encodeURIComponent(secret),
        new URLSearchParams({ s: secret }).toString().slice(2),
      ]))
        out = out.replaceAll(form, '<redacted>');
  return out;
}

/** Form fields whose values are signatures: shown as <redacted> in anything logged. */
export const SIGNATURE_FIELDS: ReadonlySet<string> = new Set(['control', 'oauth_signature']);

/** Pairs as they may be logged: signatures redacted, card numbers and CVVs masked. */
export function redactParams(pairs: readonly Pair[]): Pair[] {
  return pairs.map(([name, value]) => [
    name,
    SIGNATURE_FIELDS.has(name) ? '<redacted>' : (maskedValue(name, value) ?? value),
  ]);
}

/** An Authorization header as it may be logged: the oauth_signature value replaced. */
export function redactAuthorization(header: string): string {
  return header.replace(/(oauth_signature[ \t]*=[ \t]*")[^"]*"/g, '$1<redacted>"');
}
