/**
 * The gateway's messages to the merchant, which the spec does not show (api-spec.md: "Events,
 * callbacks, notifications and their payloads: not shown"); the facts are the API family's public
 * library (api-family-notes.md, docs/assumptions.md A-31): the callback to `server_callback_url`
 * and the customer's return to `redirect_url`, both signed with one control formula.
 */
import type { ControlField } from './types.ts';

/** `control = SHA-1(status + orderid + client_orderid + merchant_control_key)`: the amount is not in it. */
export const CALLBACK_FORMULA: readonly ControlField[] = [
  { name: 'status', from: 'params', cents: false },
  { name: 'orderid', from: 'params', cents: false },
  { name: 'client_orderid', from: 'params', cents: false },
];

/** The callback's fields in the order the mock sends them (control last). */
export const CALLBACK_FIELDS = ['orderid', 'merchant_order', 'client_orderid', 'amount', 'status', 'type', 'control'] as const;

/** The customer's return to redirect_url carries these (no amount, no type). */
export const RETURN_FIELDS = ['status', 'orderid', 'merchant_order', 'client_orderid', 'control'] as const;

/** The statuses a callback may carry: the library refuses any other. */
export const CALLBACK_STATUSES = ['approved', 'declined', 'filtered', 'error'] as const;

/** How the formula is named wherever an operation name would be shown. */
export const CALLBACK_NAME = 'CALLBACK';

/** The callback's `type`: the transaction the order is, from its path (`sale-form` is a sale), A-31. */
export function transactionType(path: string): string {
  const segments = path.split('/');
  return segments[segments.length - 2]!.replace(/-form$/, '');
}
