/**
 * A status answer names the order's transaction type. The vendor's current shop plugins decide an
 * order's fate by `transaction-type/status` (the WooCommerce plugin books `sale/approved` as paid,
 * `reversal/approved` as refunded, `chargeback/approved` as charged back, anything else as failed): a
 * gateway that leaves it out has every paid order end "failed" in the shop.
 */
import { compare, type Compared } from './expectations.ts';
import type { Rule } from './rule.ts';

/** Compared as the steps' other expectations: `expected` are the types that would do (`sale` for a sale's order). */
export const statusTransactionType: Rule<Compared, 'status-transaction-type', never> = {
  id: 'status-transaction-type',
  title: "a status answer names the order's transaction type",
  basis: 'assumption',
  assumptions: ['A-40'],
  refusals: [],
  clause:
    'Response schemas: fields "not shown"; A-40 (transaction-type, read by the vendor\'s shop plugins, beside the ' +
    'status page https://doc.payneteasy.eu/integration/API_commands/api_v2_status.html)',
  hint:
    "Answer status with the order's transaction-type: sale for a sale's order (sale-form and rebills included), " +
    'reversal once it is returned, chargeback once it is charged back.',
  check: compare,
};
