/** Printing results: aligned `name  value` lines, JSON, and card-data masking before anything is shown. */
import { hasSensitivePairs, redactPairsInText } from '../report/redact.ts';
import type { RequestInput } from '../signing/request.ts';
import type { Io } from './command.ts';

export function fields(rows: ReadonlyArray<readonly [string, string | undefined]>): string {
  const present = rows.filter((r): r is readonly [string, string] => r[1] !== undefined);
  const width = Math.max(...present.map(([k]) => k.length)) + 2;
  return present.map(([k, v]) => `${k.padEnd(width)}${v}`).join('\n');
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
