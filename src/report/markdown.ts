/**
 * The one writer of Markdown (job summaries, `bundle diff`): every text from a run or a bundle is
 * hostile, so each goes through `mdText`, which leaves no markup of its own: no table cell break,
 * no link, image, HTML tag, emphasis or code span, no heading or list at a line's start, no line break.
 */

/**
 * Characters with an inline meaning in GitHub- or GitLab-flavoured Markdown, escaped with a backslash:
 * emphasis, code, links and images, HTML and entities, table cells, strike-through, math, mentions
 * and issue references (`@x`, `#1`), autolinks (`http:`). A text is never at a line's start: it is in
 * a cell, after other words, or a list item's content (`mdItem`, which escapes a leading block mark).
 */
const SPECIAL = /[\\`*_[\]<>|~&$:@#]/g;

/** A text as literal Markdown inline text: one line, at most `max` characters, nothing it says is markup. */
export function mdText(text: string, max = 300): string {
  // Control characters (line breaks included) become spaces: a value cannot start a line of its own.
  // eslint-disable-next-line no-control-regex
  const oneLine = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ');
  const cut = oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine;
  return cut.replace(SPECIAL, (c) => `\\${c}`);
}

/** A text that starts a list item's content: one starting "1." or "-" would otherwise open a list of its own. */
export const mdItem = (text: string, max = 300): string =>
  `- ${mdText(text, max).replace(/^(\d+[.)]|[-+=>])/, '\\$1')}`;

/** A table of escaped cells: the header row, its rule, a row each. */
export function mdTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string[] {
  const line = (cells: readonly string[]): string => `| ${cells.map((c) => mdText(c)).join(' | ')} |`;
  return [line(header), `|${header.map(() => '---').join('|')}|`, ...rows.map(line)];
}
