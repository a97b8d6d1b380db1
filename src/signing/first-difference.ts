/** Where two strings first differ, with a little of both sides around it, for one-glance debugging. */
export interface FirstDifference {
  /** 0-based index of the first differing character (the shorter length if one is a prefix). */
  readonly position: number;
  readonly expected: string;
  readonly actual: string;
  /** Spaces up to the differing column of `expected` / `actual`, for a caret line. */
  readonly caret: string;
}

export function firstDifference(expected: string, actual: string, context = 30): FirstDifference | null {
  if (expected === actual) return null;
  let i = 0;
  // The strings differ, so this stops: at a differing character, or where one ends (undefined !== a character).
  while (expected[i] === actual[i]) i++;
  const from = Math.max(0, i - context);
  const lead = from > 0 ? '…' : '';
  const cut = (s: string): string => lead + s.slice(from, i + context) + (s.length > i + context ? '…' : '');
  return { position: i, expected: cut(expected), actual: cut(actual), caret: ' '.repeat(lead.length + i - from) };
}
