/**
 * The callbacks a gateway sends for an order after its final one (docs/callbacks.md, "Events on demand";
 * what `payconform trigger` delivers from a running mock or inspect (src/mock/events.ts), and
 * what inspect --callback-checks plays against a merchant's handler. Each is signed as every callback
 * is (signing/callback.ts: the amount and type are not in the control), with the family's field names
 * and callback types: sale, reversal, chargeback (api-family-notes.md, "Merchant callbacks"; A-31).
 */
import { CALLBACK_STATUSES } from '../catalogue/index.ts';
import type { CallbackFacts } from '../signing/callback.ts';

export const CALLBACK_EVENTS = ['chargeback', 'reversal', 'repeat', 'late', 'duplicate'] as const;
export type CallbackEvent = (typeof CALLBACK_EVENTS)[number];

/** What an event delivers: the callbacks in order, or all at the same moment (`together`). */
export interface EventDelivery {
  readonly callbacks: readonly CallbackFacts[];
  readonly together: boolean;
}

/** A final status other than the order's: the one a late callback claims (approved where it was not). */
export function otherFinalStatus(status: string): (typeof CALLBACK_STATUSES)[number] {
  return status === 'approved' ? 'declined' : 'approved';
}

/**
 * The callbacks of an event for an order whose final callback said `final`, or why the event cannot
 * happen to it (a chargeback or reversal needs an approved order).
 */
export function eventDelivery(event: CallbackEvent, final: CallbackFacts): EventDelivery | string {
  switch (event) {
    case 'repeat':
      return { callbacks: [final], together: false };
    case 'duplicate':
      return { callbacks: [final, final], together: true };
    case 'late':
      return { callbacks: [{ ...final, status: otherFinalStatus(final.status) }], together: false };
    case 'chargeback':
    case 'reversal':
      if (final.status !== 'approved') return `a ${event} needs an approved order; this one is ${final.status}`;
      return { callbacks: [{ ...final, type: event, status: 'approved' }], together: false };
  }
}
