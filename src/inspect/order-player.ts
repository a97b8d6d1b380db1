/**
 * What the callback and the return checks share: each final order's checks are played once, in the background;
 * what cannot be played is recorded, never thrown (playing never stops inspect); closing ends every play under way.
 */
import { NO_CALLBACK_TARGET } from '../gateway/callback-delivery.ts';
import type { FinalOrder } from '../gateway/final-order.ts';
import { settledWithin } from '../gateway/settled.ts';

export abstract class OrderPlayer<R> {
  readonly records: R[] = [];
  private readonly pending = new Set<Promise<void>>();
  private readonly started = new Set<string>();
  /** Aborted by close(): every request under way ends at once, as a time-out. */
  protected readonly closing = new AbortController();

  constructor(private readonly onRecord: ((record: R) => void) | undefined) {}

  /** An order is final: its checks are played once, in the background. */
  check(order: FinalOrder): void {
    const key = `${order.merchant.login}\u0000${order.facts.orderid}`;
    if (this.started.has(key)) return;
    this.started.add(key);
    const run = this.play(order)
      .catch((err: unknown) =>
        this.notPlayed(order, NO_CALLBACK_TARGET, 'error', `not played: internal: ${String(err)}`),
      )
      .finally(() => this.pending.delete(run));
    this.pending.add(run);
  }

  protected abstract play(order: FinalOrder): Promise<void>;

  /** An order whose checks were not played: every check fails with the reason. */
  protected abstract notPlayed(order: FinalOrder, target: string, error: string, message: string): void;

  protected keep(record: R): void {
    this.records.push(record);
    this.onRecord?.(record);
  }

  /** Resolves when every order's checks are played, or after `timeoutMs`; returns how many are still under way. */
  idle(timeoutMs: number): Promise<number> {
    return settledWithin(this.pending, timeoutMs);
  }

  /** Ends every request under way at once (as a time-out) and plays no more: inspect is closing. */
  close(): void {
    this.closing.abort();
  }
}
