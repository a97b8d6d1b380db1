/**
 * An answer field as text. The spec shows no answer field, so neither its type: an id may come as a
 * JSON number (taken as its digits, where JSON could carry it exactly).
 */
export function answerText(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return typeof value === 'string' ? value : undefined;
}
