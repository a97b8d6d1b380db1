import type { Operation } from './endpoints.ts';

/**
 * Which operations act on what another operation created: a capture needs a preauth's order id, a
 * rebill a card reference, and so on. Tests, the conformance suite and `send --prepare` follow this
 * table to set up a request's prerequisites, so the chain is written down once.
 */
import { TEST_CARDS } from './test-cards.ts';

export interface Prerequisite {
  /** The request field that names the earlier result. */
  readonly field: string;
  /** The operation that creates it. */
  readonly operation: Operation;
  /** The answer field it comes from. */
  readonly answer: string;
  /** Request fields the earlier operation needs for this (e.g. the 3-D Secure magic card). */
  readonly with?: ReadonlyArray<readonly [string, string]>;
}

/** The documented 3-D Secure test card of the mock (docs/mock.md). */
export const THREE_DS_CARD = TEST_CARDS['3-D Secure'];

const order = (operation: Operation, ...withFields: Array<readonly [string, string]>): Prerequisite => ({
  field: 'orderid',
  operation,
  answer: 'paynet-order-id',
  ...(withFields.length ? { with: withFields } : {}),
});
const cardRef: Prerequisite = { field: 'cardrefid', operation: 'CARDREF', answer: 'card-ref-id' };
const threeDs = order('SALE', ['credit_card_number', THREE_DS_CARD]);

/** Every operation states its prerequisite, null when it acts on nothing made earlier. */
export const PREREQUISITES: Readonly<Record<Operation, Prerequisite | null>> = {
  TDS_UPLOAD_CRES_RESULT: threeDs,
  TDS_UPLOAD_METHOD_URL_RESULT: threeDs,
  TDS_UPLOAD_PARES_RESULT: threeDs,
  ACCOUNT_VERIFICATION_FORM: null,
  ACCOUNT_VERIFICATION: null,
  CAPTURE: order('PREAUTH'),
  CARDREF: order('SALE'),
  CARDINFO: cardRef,
  REBILL: cardRef,
  PAYMENTFORM: null,
  PAYOUTFORM: null,
  PAYOUT: null,
  PREAUTHFORM: null,
  PREAUTH: null,
  RETURN: order('SALE'),
  SALEFORM: null,
  SALE: null,
  STATUS: order('SALE'),
  VOID: order('SALE'),
  CARDREF_V4: null,
  CREATE_RP_V4: cardRef,
  PAYOUT_V4_CHECK: null,
  PAYOUT_V4_PAY: order('PAYOUT_V4_CHECK'),
  PAYOUT_V4: null,
  PROCESS_RP_V4: { field: 'recurring-payment-id', operation: 'CREATE_RP_V4', answer: 'recurring-payment-id' },
  PAN_ELIGIBILITY_SEND: null,
  TRANSFER_V4: null,
  TRANSFER_BY_REF_V4: cardRef,
};
