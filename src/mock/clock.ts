/**
 * The mock's clock (docs/mock.md, "The clock"): the real clock plus an offset, set at start (`mock --clock`) and
 * advanced at run time (the admin route, `payconform trigger clock --advance 2h`). The OAuth timestamp window reads
 * it, and so does the callback retry timeline: a retry whose due time the clock has passed goes at once.
 */
import { MAX_OFFSET_MS, parseDuration } from '../gateway/duration.ts';

/**
 * `--clock WHEN` as an offset from the real clock: an offset (`+2h`, `-10m`) or an ISO time
 * (`2030-01-01T00:00:00Z`), or a one-line reason it is neither.
 */
export function clockOffset(when: string, realNow: number): number | string {
  if (/^[+-]/.test(when)) {
    const ms = parseDuration(when);
    return ms ?? 'must be an offset such as +2h, -10m, +1d (units ms, s, m, h, d; ten years at most)';
  }
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(when)) {
    const at = Date.parse(when);
    if (!Number.isNaN(at) && Math.abs(at - realNow) <= MAX_OFFSET_MS) return at - realNow;
  }
  return 'must be an ISO time with its zone (2030-01-01T12:00:00Z) within ten years, or an offset such as +2h';
}

export class MockClock {
  private offsetMs: number;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly real: () => number = Date.now,
    offsetMs = 0,
  ) {
    this.offsetMs = offsetMs;
  }

  /** The mock's time in milliseconds (an arrow: handed around as the rules' `now`). */
  readonly now = (): number => this.real() + this.offsetMs;

  /** How far the clock is from the real one. */
  get offset(): number {
    return this.offsetMs;
  }

  /** Moves the clock forward (never back: a due time once passed stays passed); those waiting look again. */
  advance(ms: number): void {
    if (!(ms >= 0) || ms > MAX_OFFSET_MS) throw new RangeError(`clock: cannot advance by ${ms} ms`);
    this.offsetMs += ms;
    for (const listener of this.listeners) listener();
  }

  /** Told after every advance; returns the way to stop being told. */
  onAdvance(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** The clock route's answer to `{"advance": "2h"}` (or `{}`, which only reads the clock): the time now, the offset. */
export function clockAnswer(body: unknown, clock: MockClock): { status: 200 | 400; body: object } {
  const advance = typeof body === 'object' && body !== null ? (body as { advance?: unknown }).advance : undefined;
  if (advance !== undefined) {
    const ms = typeof advance === 'string' ? parseDuration(advance) : undefined;
    if (ms === undefined || ms < 0)
      return { status: 400, body: { error: 'advance: must be a duration forward such as 2h, 90m, 30s, 1d' } };
    clock.advance(ms);
  }
  return { status: 200, body: { now: new Date(clock.now()).toISOString(), offsetMs: clock.offset } };
}
