/**
 * An answer field as text. The spec shows no answer field, so neither its type: an id may come as a
 * JSON number (taken as its digits, where JSON could carry it exactly).
 */
export function answerText(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return typeof value === 'string' ? value : undefined;
}

/**
 * A field of an answer's body: read as the client read it (JSON or a profile's form text), else, for a
 * body it kept as text (a media type it did not expect), from that text when it is a JSON object.
 */
export function answerFieldOf(body: unknown, name: string): string | undefined {
  if (typeof body !== 'string') return answerText((body as Record<string, unknown> | null | undefined)?.[name]);
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === 'object' && parsed !== null
      ? answerText((parsed as Record<string, unknown>)[name])
      : undefined;
  } catch {
    return undefined;
  }
}

/** An error code as the book writes them (CONTROL_INVALID): nothing else a gateway puts there is shown. */
const CODE_SHAPE = /^[A-Z][A-Z0-9_]{0,63}$/i;

/**
 * The answer's error code (the field a profile names, `error-code` by default), when it has a code's shape:
 * a gateway's free text, or a card number or key it echoes there, never reaches a finding.
 */
export function errorCodeOf(body: unknown, name: string): string | undefined {
  const code = answerFieldOf(body, name);
  return code !== undefined && CODE_SHAPE.test(code) ? code : undefined;
}
