/**
 * Magic test data: card numbers and order ids that decide an outcome deterministically, so suites
 * can test every path against the mock (docs/mock.md). Every other card is approved.
 */
import { TEST_CARDS, type TestCardRole } from '../catalogue/test-cards.ts';
import type { OrderStatus } from './order-status.ts';

export interface CardOutcome {
  readonly finalStatus: OrderStatus;
  readonly awaiting3ds: boolean;
  readonly what: string;
}

/** What each test card does here; the compiler checks that every role has its outcome. */
const OUTCOMES: Readonly<Record<TestCardRole, CardOutcome>> = {
  approved: { finalStatus: 'approved', awaiting3ds: false, what: 'approved' },
  declined: { finalStatus: 'declined', awaiting3ds: false, what: 'declined' },
  '3-D Secure': {
    finalStatus: 'approved',
    awaiting3ds: true,
    what: '3-D Secure required: processing until a 3-D Secure result is uploaded, then approved',
  },
  'stays processing': { finalStatus: 'processing', awaiting3ds: false, what: 'stays processing' },
  'gateway error': { finalStatus: 'error', awaiting3ds: false, what: 'gateway error (status error)' },
};

/** The outcome of each test card, by card number. */
export const MAGIC_CARDS: Readonly<Record<string, CardOutcome>> = Object.fromEntries(
  Object.entries(OUTCOMES).map(([role, outcome]) => [TEST_CARDS[role as TestCardRole], outcome]),
);

/**
 * A client_orderid that makes the mock answer 500 ServerErrorResponse, on any operation, to test clients' handling
 * of it (also followed by `-…`: MOCK-SERVER-ERROR-2). It shares one table with the network's faults (MOCK-TIMEOUT …),
 * MAGIC_FAULTS in src/gateway/faults.ts, which inspect's embedded mock reads too.
 */
export { isServerErrorId, SERVER_ERROR_ORDER_ID } from '../gateway/faults.ts';

/** A `cres` or `pares` value that fails 3-D Secure authentication: the order ends declined. */
export const THREE_DS_FAIL = 'MOCK-3DS-FAIL';

// A Map: an object keyed by 16-digit numbers keeps them as slow dictionary elements (a lookup per order).
const OUTCOME_BY_CARD: ReadonlyMap<string, CardOutcome> = new Map(Object.entries(MAGIC_CARDS));

export function cardOutcome(cardNumber: string | undefined): CardOutcome {
  return (cardNumber !== undefined ? OUTCOME_BY_CARD.get(cardNumber) : undefined) ?? OUTCOMES.approved;
}
