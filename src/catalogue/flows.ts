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
  readonly operation: string;
  /** The answer field it comes from. */
  readonly answer: string;
  /** Request fields the earlier operation needs for this (e.g. the 3-D Secure magic card). */
  readonly with?: ReadonlyArray<readonly [string, string]>;
}

/** The documented 3-D Secure test card of the mock (docs/mock.md). */
export const THREE_DS_CARD = TEST_CARDS['3-D Secure'];

const order = (operation: string, ...withFields: Array<readonly [string, string]>): Prerequisite =>
  ({ field: 'orderid', operation, answer: 'paynet-order-id', ...(withFields.length ? { with: withFields } : {}) });
const cardRef: Prerequisite = { field: 'cardrefid', operation: 'CARDREF', answer: 'card-ref-id' };
const threeDs = order('SALE', ['credit_card_number', THREE_DS_CARD]);

export const PREREQUISITES: Readonly<Record<string, Prerequisite>> = {
  CAPTURE: order('PREAUTH'),
  VOID: order('SALE'),
  RETURN: order('SALE'),
  STATUS: order('SALE'),
  CARDREF: order('SALE'),
  PAYOUT_V4_PAY: order('PAYOUT_V4_CHECK'),
  TDS_UPLOAD_CRES_RESULT: threeDs,
  TDS_UPLOAD_METHOD_URL_RESULT: threeDs,
  TDS_UPLOAD_PARES_RESULT: threeDs,
  CARDINFO: cardRef,
  REBILL: cardRef,
  CREATE_RP_V4: cardRef,
  TRANSFER_BY_REF_V4: cardRef,
  PROCESS_RP_V4: { field: 'recurring-payment-id', operation: 'CREATE_RP_V4', answer: 'recurring-payment-id' },
};
