/**
 * Redaction of card data for anything printed, logged or attached (design.md, Habits: a PAN shows
 * at most its first six and last four digits; a CVV never shows). Redaction is by field name, so
 * it is anchored and never rewrites unrelated text that happens to share digits.
 */
import { cvvSpans, panSpans, replaceSpans } from '../catalogue/card-echoes.ts';
import { CARD_NUMBER_FIELDS, CVV_FIELDS, maskCardNumber } from '../catalogue/test-cards.ts';
import type { Pair } from '../signing/form-body.ts';
import { percentEncode } from '../signing/percent-encode.ts';
import type { Credentials } from '../signing/request.ts';

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

/** What stands in for a secret. */
export const REDACTED = '<redacted>';

/** The merchant's secrets a run holds: the control key (the OAuth consumer secret), a token secret, the private key. */
export function credentialSecrets(c: Credentials | undefined): string[] {
  if (c === undefined) return [];
  // A key echoed in part (one line of its base64) is as bad as the whole: each line is a secret of its own.
  const keyLines = (c.privateKeyPem ?? '').split(/\r?\n/).filter((line) => /^[A-Za-z0-9+/=]{16,}$/.test(line));
  return [c.controlKey, c.tokenSecret, ...keyLines].filter((s): s is string => s !== undefined && s !== '');
}

const hex4 = (c: string): string => (c.codePointAt(0) ?? 0).toString(16).padStart(4, '0');

/**
 * The ways a secret may be written in an answer: as is, percent-encoded (upper- and lower-case hex, a form's `+`
 * for a space, twice as in a base string), JSON-escaped (with `\/` and `\uXXXX` as PHP writes them) and
 * HTML-escaped.
 */
function writtenForms(secret: string): Set<string> {
  const forms = new Set([secret]);
  const json = JSON.stringify(secret).slice(1, -1);
  for (const j of [json, json.replaceAll('/', '\\/'), JSON.stringify(json).slice(1, -1)]) {
    forms.add(j);
    forms.add(j.replace(/[^\x20-\x7e]/g, (c) => [...c].map((u) => `\\u${hex4(u)}`).join('')));
    forms.add(
      j.replace(/[^\x20-\x7e]/gu, (c) =>
        c
          .split('')
          .map((u) => `\\u${hex4(u).toUpperCase()}`)
          .join(''),
      ),
    );
  }
  forms.add(secret.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`));
  forms.add(secret.replace(/[&<>"']/g, (c) => HTML_NAMED[c] ?? c));
  try {
    const uri = encodeURIComponent(secret);
    for (const u of [uri, uri.replaceAll('%20', '+'), new URLSearchParams({ s: secret }).toString().slice(2)]) {
      forms.add(u);
      forms.add(u.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()));
      forms.add(encodeURIComponent(u));
    }
  } catch {
    // A lone surrogate has no UTF-8 form, so no percent-encoded one either.
  }
  return forms;
}
const HTML_NAMED: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

// A private key, whole or cut short; its lines may be joined by escaped newlines (JSON).
const PRIVATE_KEY =
  /(-----BEGIN[A-Z0-9 %+]*?PRIVATE(?: |%20|\+)KEY-----)[\s\S]*?(-----END[A-Z0-9 %+]*?PRIVATE(?: |%20|\+)KEY-----|$)/g;
// An OAuth signature in a header, a base string or a JSON string: quoted, escaped or percent-encoded.
const OAUTH_SIGNATURE =
  /(oauth_signature(?:\\*")?\s*(?:=|%3D|:)\s*(?:\\*"|%22)?)(?:%(?!22)[0-9A-Fa-f]{2}|[^\s"\\&,%])+/gi;
// Other Authorization schemes carry their credentials whole.
const AUTHORIZATION = /(authorization(?:\\*")?\s*[:=]\s*(?:\\*")?(?:Bearer|Basic|Digest)\s+)[^\s"\\,]+/gi;

/** A card number as it may be shown: its first six and last four digits, whatever stands between them. */
function maskPanText(found: string): string {
  const total = found.replace(/[^0-9]/g, '').length;
  let seen = 0;
  return found.replace(/[0-9]/g, (d) => (++seen <= 6 || seen > total - 4 ? d : '*'));
}

/** Replaces every written form of every secret; again where a replacement joined text into a secret. */
export function withoutSecrets(text: string, secrets: readonly string[]): string {
  const forms = [...new Set(secrets.flatMap((s) => [...writtenForms(s)]))]
    .filter((f) => f !== '' && !REDACTED.includes(f))
    .sort((a, b) => b.length - a.length);
  let out = text;
  for (let round = 0; round < 4; round++) {
    if (!forms.some((f) => out.includes(f))) return out;
    for (const form of forms) out = out.replaceAll(form, REDACTED);
  }
  return forms.some((f) => out.includes(f)) ? `${REDACTED} (a text that kept a secret after redaction)` : out;
}

/**
 * Text as it may be printed, attached or written, whoever wrote it (a gateway's answer, a merchant's field, our
 * own message quoting either): private keys and Authorization credentials replaced; `secrets` (the merchant's:
 * credentialSecrets) and the request's signatures replaced in every way they may be written; full card numbers
 * masked to their first six and last four digits, the request's own and any other that passes the Luhn check;
 * CVVs masked where they stand as a CVV (after a CVV's name, or a value the request sent next to one).
 */
export function redactEchoes(
  text: string,
  pairs: readonly Pair[],
  secrets: readonly (string | undefined)[] = [],
): string {
  const valuesOf = (fields: ReadonlySet<string>): string[] => pairs.filter(([n]) => fields.has(n)).map(([, v]) => v);
  const known = [...secrets, ...valuesOf(SIGNATURE_FIELDS)].filter((s): s is string => s !== undefined && s !== '');
  let out = text
    .replace(PRIVATE_KEY, `$1${REDACTED}$2`)
    .replace(OAUTH_SIGNATURE, `$1${REDACTED}`)
    .replace(AUTHORIZATION, `$1${REDACTED}`);
  out = withoutSecrets(out, known);
  out = replaceSpans(out, panSpans(out, valuesOf(CARD_NUMBER_FIELDS)), maskPanText);
  return replaceSpans(out, cvvSpans(out, valuesOf(CVV_FIELDS)), () => '***');
}

/**
 * A value read from JSON (an answer, a warning) with every string in it redacted as redactEchoes does text; a
 * number that is a card number masked (as a string); a CVV that is a field's whole value (`{"cvv2": 123}`)
 * masked by its field's name, which text redaction of the value alone would not see.
 */
export function redactJson(
  value: unknown,
  pairs: readonly Pair[],
  secrets: readonly (string | undefined)[] = [],
): unknown {
  if (typeof value === 'string') return redactEchoes(value, pairs, secrets);
  if (typeof value === 'number') {
    const shown = redactEchoes(String(value), pairs, secrets);
    return shown === String(value) ? value : shown;
  }
  if (Array.isArray(value)) return value.map((v) => redactJson(v, pairs, secrets));
  if (value === null || typeof value !== 'object') return value;
  const sentCvvs = pairs.filter(([n]) => CVV_FIELDS.has(n)).map(([, v]) => v);
  const isCvv = (key: string, v: unknown): boolean => {
    if (typeof v !== 'string' && typeof v !== 'number') return false;
    const pair = `${key}=${v}`;
    return cvvSpans(pair, sentCvvs).some((span) => span.start === key.length + 1 && span.end === pair.length);
  };
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      redactEchoes(k, pairs, secrets),
      isCvv(k, v) ? '***' : redactJson(v, pairs, secrets),
    ]),
  );
}

/** An attachment as it may be written: a JSON one (a warning) redacted value by value, so it stays JSON. */
export function redactAttachment(
  data: string,
  mediaType: string,
  pairs: readonly Pair[],
  secrets: readonly (string | undefined)[],
): string {
  if (/[/+]json$/.test(mediaType))
    try {
      return JSON.stringify(redactJson(JSON.parse(data) as unknown, pairs, secrets));
    } catch {
      // Not JSON after all: redacted as text.
    }
  return redactEchoes(data, pairs, secrets);
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

/** An Authorization value as logged: its oauth_signature, or another scheme's credentials, replaced. */
export function redactAuthorization(header: string): string {
  return header.replace(OAUTH_SIGNATURE, `$1${REDACTED}`).replace(/^((?:Bearer|Basic|Digest)\s+)\S+/i, `$1${REDACTED}`);
}
