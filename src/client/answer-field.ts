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
