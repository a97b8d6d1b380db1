/**
 * How much the generated checks explore and from which seed (docs/certify.md, "Generated checks"). The runner
 * puts the settings in cucumber's worldParameters beside the target; each property draws from a seed of its own,
 * made from the run's seed and the property's name, so `certify --seed S` replays every property of a run.
 */
import { randomInt } from 'node:crypto';
import { fieldError } from '../errors.ts';

/** The key under which the settings travel in cucumber's worldParameters. */
export const EXPLORE_PARAMETER = 'payconformExplore';

export interface ExploreSettings {
  /** The run's seed: printed and recorded, so that a run can be replayed. */
  readonly seed: number;
  /** Runs per property beyond the default budget (--explore N), or undefined for the default. */
  readonly runs?: number | undefined;
}

/** fast-check's seeds are 32-bit integers; ours are the non-negative ones, so they read the same everywhere. */
export const MAX_SEED = 2 ** 31 - 1;

/** The settings of a run: the seed given (--seed), else a fresh one. */
export function exploreSettings(seed: number | undefined, runs: number | undefined): ExploreSettings {
  return { seed: seed ?? randomInt(MAX_SEED), ...(runs === undefined ? {} : { runs }) };
}

/** The settings the runner put in worldParameters; a plain `npx cucumber-js` run has none and gets a fresh seed. */
export function exploreOf(worldParameters: unknown): ExploreSettings {
  const given = (worldParameters as Record<string, unknown> | undefined)?.[EXPLORE_PARAMETER];
  if (given === undefined) return exploreSettings(undefined, undefined);
  const { seed, runs } = given as Partial<ExploreSettings>;
  if (typeof seed !== 'number' || !Number.isInteger(seed) || (runs !== undefined && !Number.isInteger(runs)))
    throw fieldError('ERR_TARGET', `worldParameters.${EXPLORE_PARAMETER}`, 'must be settings written by the runner');
  return { seed, ...(runs === undefined ? {} : { runs }) };
}

/** The seed of one property: the run's seed mixed with the property's name (FNV-1a), within MAX_SEED. */
export function propertySeed(runSeed: number, property: string): number {
  let hash = 0x811c9dc5 ^ runSeed;
  for (const char of property) hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 0x01000193);
  return (hash >>> 0) % MAX_SEED;
}

/** Runs of a property: --explore N where given, else the family's default budget. */
export const runsOf = (settings: ExploreSettings, defaultRuns: number): number => settings.runs ?? defaultRuns;
