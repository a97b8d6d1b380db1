/**
 * The timing loop every benchmark shares. Contenders of a group (ours and its peers) run in the same
 * process on the same inputs: each is warmed up and calibrated, then timed in many short rounds
 * whose order alternates (A B C, then C B A, …), so drift, GC and CPU frequency changes hit all of
 * them alike. Reported: each contender's median round, and for a comparison the median of the
 * per-round ratios (ours and peer timed back to back), which cancels the slow swings of a shared
 * VM better than a ratio of two medians. Times are wall-clock (process.hrtime), one thread.
 */

export interface Contender {
  /** Shown in the table: what is being called. */
  readonly label: string;
  readonly fn: () => unknown;
}

/**
 * One table row: `ours` against the fastest of `peers` (the target applies to that one); every
 * slower peer gets an informational row of its own.
 */
export interface Comparison {
  readonly name: string;
  readonly ours: string;
  readonly peers: readonly string[];
  /** Minimum ratio ours/peer to meet, or null for an informational row. */
  readonly target: number | null;
}

export interface BenchGroup {
  readonly title: string;
  readonly contenders: Readonly<Record<string, Contender>>;
  /** Runs before any timing; throws if a contender's output differs from its peers'. */
  readonly verify: () => void;
  readonly rows: readonly Comparison[];
}

/** A benchmark file: bench/run.ts imports each and runs its groups. */
export interface BenchModule {
  readonly groups: () => BenchGroup[] | Promise<BenchGroup[]>;
  /** Absolute figures, for targets stated in absolute terms (seconds, MB) rather than as ratios. */
  readonly figures?: () => Figure[] | Promise<Figure[]>;
}

/**
 * A figure measured outside the timing loop (a command's wall time, a server's throughput, RSS),
 * with its targets and, where there is one, the same measurement of a peer taken in the same run.
 */
export interface Figure {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  /** Whether a lower value is better (times, memory) or a higher one (throughput). */
  readonly better: 'lower' | 'higher';
  /** Absolute target: the figure must be at most `max` or at least `min`. */
  readonly max?: number;
  readonly min?: number;
  /** The peer's figure; the ratio is oriented so that above 1 means ours is better. */
  readonly peer?: {
    readonly label: string;
    readonly value: number;
    readonly minRatio?: number;
    /** For a time: ours at most this multiple of the peer's (a ratio of at least its inverse). */
    readonly maxTimesPeer?: number;
    /** The median of ratios paired round by round, where the figure was taken in rounds (servers). */
    readonly pairedRatio?: number;
  };
}

/** ours ÷ peer for throughput, peer ÷ ours for times and memory: above 1, ours is better. */
export const figureRatio = (f: Figure): number | undefined =>
  f.peer && (f.peer.pairedRatio ?? (f.better === 'higher' ? f.value / f.peer.value : f.peer.value / f.value));

export interface Settings {
  readonly rounds: number;
  readonly warmupMs: number;
  readonly roundMs: number;
}

export interface Measured {
  readonly label: string;
  /** Median over rounds. */
  readonly opsPerSec: number;
  /** Every round's ops/s, in round order: for paired ratios and the spread. */
  readonly rounds: number[];
}

// Results land here so no call can be optimised away as unused (exported so it counts as read).
let sink: unknown;
export const lastSink = (): unknown => sink;

const now = (): number => Number(process.hrtime.bigint()) / 1e6;

/** Calls fn n times and returns the elapsed milliseconds. */
function runBatch(fn: () => unknown, n: number): number {
  const start = now();
  for (let i = 0; i < n; i++) sink = fn();
  return now() - start;
}

/**
 * Warms fn up for about `warmupMs` (lets V8 optimise it) and returns a batch size that takes at
 * least ~5 ms, so timer overhead and the clock read stay far below the measured work.
 */
function warmUp(fn: () => unknown, warmupMs: number): number {
  let batch = 1;
  let spent = 0;
  for (;;) {
    const ms = runBatch(fn, batch);
    spent += ms;
    if (ms < 5) batch *= 2;
    else if (spent >= warmupMs) return batch;
  }
}

/** Runs whole batches until `roundMs` is used up; returns ops/s for the round. */
function timeRound(fn: () => unknown, batch: number, roundMs: number): number {
  let ops = 0;
  let ms = 0;
  do {
    ms += runBatch(fn, batch);
    ops += batch;
  } while (ms < roundMs);
  return (ops * 1000) / ms;
}

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

export function measureGroup(group: BenchGroup, settings: Settings): Map<string, Measured> {
  const keys = Object.keys(group.contenders);
  const batches = new Map<string, number>();
  for (const key of keys) batches.set(key, warmUp(group.contenders[key]!.fn, settings.warmupMs));
  const perRound = new Map<string, number[]>(keys.map((k) => [k, []]));
  for (let round = 0; round < settings.rounds; round++) {
    // Alternate the order so no contender always runs right after the same one.
    const order = round % 2 === 0 ? keys : [...keys].reverse();
    for (const key of order) {
      perRound.get(key)!.push(timeRound(group.contenders[key]!.fn, batches.get(key)!, settings.roundMs));
    }
  }
  return new Map(
    keys.map((k) => [
      k,
      { label: group.contenders[k]!.label, opsPerSec: median(perRound.get(k)!), rounds: perRound.get(k)! },
    ]),
  );
}

/** ours ÷ peer: the median over rounds of the ratio of their ops/s in the same round. */
export function pairedRatio(ours: Measured, peer: Measured): number {
  return median(ours.rounds.map((ops, i) => ops / peer.rounds[i]!));
}

/** Round-to-round spread: interquartile range ÷ median (extremes of many short rounds say little). */
export function spread(m: Measured): number {
  const s = [...m.rounds].sort((a, b) => a - b);
  return (s[Math.floor((s.length * 3) / 4)]! - s[Math.floor(s.length / 4)]!) / m.opsPerSec;
}
