/**
 * Durations as a person types them (`2h`, `-10m`, `500ms`): the mock's clock (`mock --clock`, the admin route) and
 * `payconform trigger clock --advance` read them the same way.
 */

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Ten years either way: beyond it a typo, not a test. */
export const MAX_OFFSET_MS = 10 * 365 * UNIT_MS.d!;

/** A duration such as `2h`, `90m`, `30s`, `1d`, `500ms`, signed or not: milliseconds, or undefined if not one. */
export function parseDuration(text: string): number | undefined {
  const m = /^([+-]?)([0-9]{1,12})(ms|s|m|h|d)$/.exec(text.trim());
  if (m === null) return undefined;
  const ms = Number(m[2]) * UNIT_MS[m[3]!]!;
  return Math.abs(ms) > MAX_OFFSET_MS ? undefined : m[1] === '-' ? -ms : ms;
}
