/** Waiting, within a bound, for background work (callbacks under way) that the mock and inspect both keep. */

/**
 * Resolves when every promise in `pending` (a set that empties itself as they settle, and may grow meanwhile) has
 * settled, or after `timeoutMs`; returns how many are still under way.
 */
export async function settledWithin(pending: ReadonlySet<Promise<unknown>>, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (pending.size > 0 && Date.now() < deadline) {
    await Promise.race([
      Promise.allSettled([...pending]),
      new Promise((r) => setTimeout(r, Math.max(1, deadline - Date.now())).unref()),
    ]);
  }
  return pending.size;
}
