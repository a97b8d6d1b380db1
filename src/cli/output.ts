/**
 * Printing results: aligned `name  value` lines, explanations, JSON, and card-data masking before anything is
 * shown. Values are the request's or a partner's, never trusted: each is shown on its own line (terminal-text.ts).
 */
import { hasSensitivePairs, redactPairsInText } from '../report/redact.ts';
import type { Explanation } from '../signing/explain.ts';
import type { RequestInput } from '../signing/request.ts';
import type { Io } from './command.ts';
import { shown } from './terminal-text.ts';

/** `name  value` lines, the names payconform's, each value shown (its line breaks and controls escaped). */
export function fields(rows: ReadonlyArray<readonly [string, string | undefined]>): string {
  const present = rows.filter((r): r is readonly [string, string] => r[1] !== undefined);
  const width = Math.max(...present.map(([k]) => k.length)) + 2;
  return present.map(([k, v]) => `${k.padEnd(width)}${shown(v)}`).join('\n');
}

/**
 * An explanation whose values (a request's fields, concatenated or encoded) are shown, for explanationText: each
 * masked of the request's card data first (unless revealed), as the value it is, before its escapes change it.
 */
export function shownExplanation(explanation: Explanation, request: RequestInput, reveal: boolean): Explanation {
  const show = (text: string): string => shown(reveal ? text : redactPairsInText(text, request.params));
  const steps = explanation.steps.map((s) => ({ ...s, value: show(s.value), details: s.details.map(show) }));
  return { ...explanation, steps };
}

/** Prints text with card numbers and CVVs of the request masked, unless the user asked to reveal them. */
export function printMasked(io: Io, text: string, request: RequestInput, reveal: boolean): void {
  const pairs = [...request.params];
  if (!reveal && hasSensitivePairs(pairs)) {
    io.stdout(redactPairsInText(text, pairs));
    io.stderr(
      'note: card numbers and CVVs are masked in this output (--reveal-card-data shows them, for test cards only)',
    );
    return;
  }
  io.stdout(text);
}
