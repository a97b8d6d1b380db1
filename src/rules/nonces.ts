/**
 * Nonces seen per consumer key, kept only as long as their timestamp could still be accepted, so
 * memory stays bounded by the request rate times the window. The mock and inspect each keep one.
 */
export class NonceStore {
  private readonly seen = new Map<string, number>();
  private lastSweep = 0;

  constructor(private readonly windowSeconds: number) {}

  /** Records a nonce; false when it was already used by this consumer within the window. */
  remember(consumerKey: string, nonce: string, timestamp: number, now: number): boolean {
    if (now - this.lastSweep >= this.windowSeconds) this.sweep(now);
    const key = `${consumerKey}\u0000${nonce}`;
    // A nonce never seen counts as long expired (one comparison: no `!== undefined` that no test could tell from true).
    if ((this.seen.get(key) ?? -Infinity) >= now) return false;
    this.seen.set(key, timestamp + 2 * this.windowSeconds);
    return true;
  }

  get size(): number {
    return this.seen.size;
  }

  private sweep(now: number): void {
    for (const [key, expires] of this.seen) if (expires < now) this.seen.delete(key);
    this.lastSweep = now;
  }
}
