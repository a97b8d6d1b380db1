/**
 * Magic test data: card numbers and order ids that decide an outcome deterministically, so suites
 * can test every path against the mock (docs/mock.md). Every other card is approved.
 */
import type { OrderStatus } from './orders.ts';

export interface CardOutcome {
  readonly finalStatus: OrderStatus;
  readonly awaiting3ds: boolean;
  readonly what: string;
}

export const MAGIC_CARDS: Readonly<Record<string, CardOutcome>> = {
  '4111111111111111': { finalStatus: 'approved', awaiting3ds: false, what: 'approved' },
  '4000000000000002': { finalStatus: 'declined', awaiting3ds: false, what: 'declined' },
  '4000000000003220': { finalStatus: 'approved', awaiting3ds: true, what: '3-D Secure required: processing until a 3-D Secure result is uploaded, then approved' },
  '4000000000000259': { finalStatus: 'processing', awaiting3ds: false, what: 'stays processing' },
  '4000000000000119': { finalStatus: 'error', awaiting3ds: false, what: 'gateway error (status error)' },
};

/** A client_orderid that makes the mock answer 500 ServerErrorResponse, to test clients' handling of it. */
export const SERVER_ERROR_ORDER_ID = 'MOCK-SERVER-ERROR';

/** A `cres` or `pares` value that fails 3-D Secure authentication: the order ends declined. */
export const THREE_DS_FAIL = 'MOCK-3DS-FAIL';

export function cardOutcome(cardNumber: string | undefined): CardOutcome {
  return (cardNumber !== undefined ? MAGIC_CARDS[cardNumber] : undefined) ?? MAGIC_CARDS['4111111111111111']!;
}
