/**
 * The fast-check settings every property test uses: one seed per run (chosen and printed by
 * scripts/run-tests.mjs, replayable with PAYCONFORM_SEED=N), so a failure can be reproduced exactly.
 */
export const seed = Number(process.env.PAYCONFORM_SEED ?? '42');

/** Parameters for fc.assert: the run's seed and enough runs to matter without slowing `npm test`. */
export function fcParams(numRuns = 200): { seed: number; numRuns: number } {
  return { seed, numRuns };
}
