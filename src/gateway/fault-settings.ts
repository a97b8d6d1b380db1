/**
 * A run's faults (`--faults FILE`, a profile's `faults`; docs/mock.md, "Faults for a whole run"): the file's
 * settings, validated at the edge with one line naming the field and the rule, and the seeded generator that
 * draws them (src/gateway/faults.ts, FaultPlan).
 */
import { PayconformError } from '../errors.ts';
import { readUserFile } from '../read-file.ts';

/** The longest wait SLOW or a run's latency may ask for: a larger value waits this long. */
export const MAX_DELAY_MS = 60_000;

/** The faults a run's rates may draw, in the order their rates are laid end to end. */
export const RATE_KINDS = ['timeout', 'reset', 'lost-answer', '502', '503'] as const;
export type RateKind = (typeof RATE_KINDS)[number];

export interface FaultSettings {
  /** The PRNG's seed: the same seed and the same requests give the same faults. */
  readonly seed: number;
  /** Each answer's wait: a fixed number of milliseconds, or drawn uniformly from min to max. */
  readonly latencyMs: { readonly min: number; readonly max: number };
  /** The share of requests each fault gets, 0..1, summing to at most 1. */
  readonly rates: Readonly<Record<RateKind, number>>;
}

const MAX_SEED = 0xffff_ffff;

/** Makes the one-line error of a bad faults setting from its JSON pointer and the rule it breaks. */
export type BadSetting = (pointer: string, rule: string) => Error;

const wholeIn = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

function latencyOf(value: unknown, badFaults: BadSetting): FaultSettings['latencyMs'] {
  const rule = `must be whole milliseconds 0..${MAX_DELAY_MS}, or {"min": A, "max": B} with A <= B`;
  if (value === undefined) return { min: 0, max: 0 };
  if (wholeIn(value, 0, MAX_DELAY_MS)) return { min: value, max: value };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badFaults('/latencyMs', rule);
  const { min, max, ...rest } = value as Record<string, unknown>;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined) throw badFaults(`/latencyMs/${extra}`, 'is not a latency setting (min, max)');
  if (!wholeIn(min, 0, MAX_DELAY_MS)) throw badFaults('/latencyMs/min', rule);
  if (!wholeIn(max, min, MAX_DELAY_MS)) throw badFaults('/latencyMs/max', rule);
  return { min, max };
}

/**
 * A faults file's JSON, validated (`{"seed"?, "latencyMs"?, "rates"?}`; docs/mock.md, "Faults for a whole run").
 * Without a seed, `randomSeed` gives one, which the commands print so the run can be replayed.
 */
export function faultSettingsOf(data: unknown, randomSeed: () => number, badFaults: BadSetting): FaultSettings {
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw badFaults('', 'must be a JSON object with seed, latencyMs and rates');
  const { seed, latencyMs, rates, ...rest } = data as Record<string, unknown>;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined) throw badFaults(`/${extra}`, 'is not a faults setting (seed, latencyMs, rates)');
  if (seed !== undefined && !wholeIn(seed, 0, MAX_SEED))
    throw badFaults('/seed', `must be a whole number 0..${MAX_SEED}`);
  if (rates !== undefined && (typeof rates !== 'object' || rates === null || Array.isArray(rates)))
    throw badFaults('/rates', `must be an object of rates by fault (${RATE_KINDS.join(', ')})`);
  const given = (rates ?? {}) as Record<string, unknown>;
  const out = {} as Record<RateKind, number>;
  for (const name of Object.keys(given))
    if (!(RATE_KINDS as readonly string[]).includes(name))
      throw badFaults(`/rates/${name}`, `is not a fault (${RATE_KINDS.join(', ')})`);
  let sum = 0;
  for (const kind of RATE_KINDS) {
    const rate = given[kind] ?? 0;
    if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1))
      throw badFaults(`/rates/${kind}`, 'must be a number 0..1');
    out[kind] = rate;
    sum += rate;
  }
  // A little slack for decimal fractions that add up to 1 (0.1 + 0.2 + 0.7).
  if (sum > 1 + 1e-9) throw badFaults('/rates', `must add up to at most 1 (they add up to ${sum})`);
  return { seed: seed ?? randomSeed(), latencyMs: latencyOf(latencyMs, badFaults), rates: out };
}

/** The faults file of `--faults FILE` (mock, inspect): one line naming the option, the file, the field and the rule. */
export function readFaults(file: string): FaultSettings {
  const bad = (pointer: string, rule: string): PayconformError =>
    new PayconformError('ERR_FAULTS', `--faults ${file}: ${pointer === '' ? '' : `${pointer}: `}${rule}`, {
      field: '--faults',
      rule,
    });
  const text = readUserFile(file, '--faults');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw bad('', `is not JSON (${(err as Error).message})`);
  }
  return faultSettingsOf(data, randomSeed, bad);
}

/** What a run's faults are, printed at its start with the seed that replays them. */
export function faultsLine({ seed, latencyMs, rates }: FaultSettings): string {
  const drawn = RATE_KINDS.filter((k) => rates[k] > 0).map((k) => `${k} ${+(rates[k] * 100).toFixed(4)}%`);
  const { min, max } = latencyMs;
  const latency = max === 0 ? 'no latency' : min === max ? `latency ${min} ms` : `latency ${min}-${max} ms`;
  return (
    `faults for the whole run: seed ${seed} (the same seed and requests replay them), ` +
    `${drawn.length === 0 ? 'no faults' : drawn.join(', ')}, ${latency}`
  );
}

/** A seed for a run that named none. */
export const randomSeed = (): number => Math.floor(Math.random() * (MAX_SEED + 1));
