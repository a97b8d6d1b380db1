/**
 * The `transaction-type` a status answer names: the order's transaction as the family's shop
 * plugins read it. The vendor's WooCommerce plugin books `sale/approved` as paid, `reversal/approved` as
 * refunded and `chargeback/approved` as charged back, anything else as failed; the values the pages and
 * plugins never show are the mock's own, named after the operation. The type is the order's latest
 * transaction: a sale returned (in part or whole) reads `reversal`, which the plugin books as refunded; one
 * charged back (an event on demand, events.ts) reads `chargeback`.
 */
import type { Operation } from '../catalogue/index.ts';
import type { Order } from './orders.ts';

const SALE = 'sale';
const PAYOUT = 'payout';
const VERIFICATION = 'account-verification';

const TRANSACTION_TYPES: Readonly<Record<Operation, string>> = {
  SALE,
  SALEFORM: SALE,
  PAYMENTFORM: SALE,
  REBILL: SALE,
  PROCESS_RP_V4: SALE,
  PREAUTH: 'preauth',
  PREAUTHFORM: 'preauth',
  CAPTURE: 'capture',
  // A return reverses the payment: the plugin's "reversal".
  RETURN: 'reversal',
  VOID: 'cancel',
  ACCOUNT_VERIFICATION: VERIFICATION,
  ACCOUNT_VERIFICATION_FORM: VERIFICATION,
  PAYOUT,
  PAYOUTFORM: PAYOUT,
  PAYOUT_V4: PAYOUT,
  PAYOUT_V4_CHECK: PAYOUT,
  PAYOUT_V4_PAY: PAYOUT,
  TRANSFER_V4: 'transfer',
  TRANSFER_BY_REF_V4: 'transfer',
  CARDREF: 'create-card-ref',
  CARDREF_V4: 'create-card-ref',
  CARDINFO: 'get-card-info',
  CREATE_RP_V4: 'create-recurring-payment',
  STATUS: 'status',
  PAN_ELIGIBILITY_SEND: 'pan-eligibility',
  TDS_UPLOAD_CRES_RESULT: '3ds',
  TDS_UPLOAD_METHOD_URL_RESULT: '3ds',
  TDS_UPLOAD_PARES_RESULT: '3ds',
};

/** The transaction type a status answer names for this order now. */
export const transactionTypeOf = (order: Order): string =>
  order.chargedBack
    ? 'chargeback'
    : order.returnedCents > 0n
      ? TRANSACTION_TYPES.RETURN
      : TRANSACTION_TYPES[order.operation];
