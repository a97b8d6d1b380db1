/**
 * How a gateway writes its answers: the spec's JSON (application/vnd.pay+json), or the form text the
 * family's public gateways send (docs/assumptions.md A-17): `key=value` pairs, form-encoded, each
 * after the first on its own line that starts with `&` (`type=async-response\n&serial-number=…\n`).
 * The public clients read that text with a form parser (PHP parse_str, node querystring) and trim
 * the line break off each value; the pages give the Content-Type as `text/html;charset=utf-8`.
 * The mock writes answers and the client reads them here only.
 */
import { MEDIA_TYPE } from './media-types.ts';

export type AnswerSyntax = 'json' | 'form';

export interface AnswerFormat {
  readonly format: AnswerSyntax;
  /**
   * The Content-Type the answers carry (its type/subtype; a form answer adds `;charset=utf-8`, as the public gateways
   * write it).
   */
  readonly mediaType: string;
  /**
   * 200: refusals are answered HTTP 200 with their `type` (validation-error, error), as the public
   * gateways do; absent: each with its own status (the spec's 400 and 500, A-21 for the rest).
   */
  readonly errorStatus?: 200 | undefined;
}

/** The answer types of a refusal, with the status the spec gives each (api-spec.md "Errors"). */
export const REFUSAL_TYPES: Readonly<Record<string, number>> = { 'validation-error': 400, error: 500 };

/** The spec's answers. */
export const SPEC_ANSWERS: AnswerFormat = { format: 'json', mediaType: MEDIA_TYPE };

/** An answer's content type without its parameters, in lower case. */
export function baseMediaType(contentType: string): string {
  const [type = ''] = contentType.split(';'); // split always gives one element: the whole text where no ';'
  return type.trim().toLowerCase();
}

/** `name=value` with the form's escapes: a value may hold `&`, `=` or a line break without ending its pair. */
const formPair = (name: string, value: string): string => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;

/** Whether a profile's answerFields rename any field of this answer. */
function renamesAny(body: Readonly<Record<string, unknown>>, names: Readonly<Record<string, string>>): boolean {
  for (const name in names) if (Object.hasOwn(body, name)) return true;
  return false;
}

/**
 * An answer object as the format writes it, with its Content-Type. Top-level fields are renamed to
 * the gateway's names (`names`: ours → theirs) so a profile's answerFields hold on the wire too.
 */
export function renderAnswer(
  body: Readonly<Record<string, unknown>>,
  format: AnswerFormat,
  names: Readonly<Record<string, string>> = {},
): { text: string; contentType: string } {
  // The mock's hot path: JSON with our own names is the object as it is, without copying it twice.
  if (format.format === 'json' && !renamesAny(body, names))
    return { text: JSON.stringify(body), contentType: format.mediaType };
  const renamed = Object.entries(body).map(([name, value]) => [names[name] ?? name, value] as const);
  if (format.format === 'json')
    return { text: JSON.stringify(Object.fromEntries(renamed)), contentType: format.mediaType };
  const text = `${renamed.map(([name, value]) => formPair(name, String(value))).join('\n&')}\n`;
  return { text, contentType: `${format.mediaType};charset=utf-8` };
}

/**
 * Form text as the public clients read it: a form parser, then each value trimmed of the line break before the next
 * `&`.
 */
export function parseFormAnswer(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) fields[name.trim()] = value.trim();
  return fields;
}
