/**
 * Rules that a request's reference names something this merchant has: an order, a card
 * reference, a recurring payment. Another merchant's is as unknown as a missing one.
 */
import { fail, PASS, type Rule } from './rule.ts';
import { isApproved, type OrderState } from './orders.ts';

export const orderKnown: Rule<{ readonly order: OrderState | undefined }, 'order-known', 'ORDER_UNKNOWN'> = {
  id: 'order-known',
  title: 'orderid names an order of the merchant',
  clause: 'Identifiers: orderid "service-side order identifier"; A-23',
  basis: 'assumption',
  assumptions: ['A-23'],
  refusals: [{ status: 400, code: 'ORDER_UNKNOWN' }],
  hint: 'Send the paynet-order-id the gateway answered for the order, on an endpoint of the same merchant.',
  check: ({ order }) =>
    order !== undefined ? PASS : fail('orderid: no such order for this merchant', { field: 'orderid' }),
};

export const referenceKnown: Rule<
  { readonly field: 'cardrefid' | 'recurring-payment-id'; readonly found: boolean },
  'reference-known',
  'CARD_REF_UNKNOWN' | 'RECURRING_PAYMENT_UNKNOWN'
> = {
  id: 'reference-known',
  title: 'card reference or recurring payment of the merchant',
  clause: 'Identifiers: cardrefid; A-27',
  basis: 'assumption',
  assumptions: ['A-27'],
  refusals: [
    { status: 400, code: 'CARD_REF_UNKNOWN' },
    { status: 400, code: 'RECURRING_PAYMENT_UNKNOWN' },
  ],
  hint: 'Send the card-ref-id or recurring-payment-id the gateway answered, on an endpoint of the same merchant.',
  check({ field, found }) {
    if (found) return PASS;
    return field === 'cardrefid'
      ? fail('cardrefid: no such card reference for this merchant', { field })
      : fail('recurring-payment-id: no such recurring payment for this merchant', {
          field,
          code: 'RECURRING_PAYMENT_UNKNOWN',
        });
  },
};

export const cardRefOfApprovedCard: Rule<
  { readonly parent: OrderState; readonly hasCard: boolean },
  'card-ref-of-approved-card',
  'ORDER_STATE'
> = {
  id: 'card-ref-of-approved-card',
  title: 'a card reference comes from an approved card order',
  // The page asks only for a first payment in a final status "and sufficient card information", however it was
  // paid: a hosted form's payment keeps its card as a direct one's does. Approved, not any final status: A-27.
  clause:
    'A-27, A-43; create-card-ref page: "an initial payment must be in final status" ' +
    '(https://doc2.payneteasy.com/integration/API_commands/api_v2_create-card-ref.html)',
  basis: 'assumption',
  assumptions: ['A-27', 'A-43'],
  refusals: [{ status: 400, code: 'ORDER_STATE' }],
  hint:
    "Create a card reference from the orderid of an approved first payment paid with a card (the card's fields " +
    'in the request, or typed on the hosted payment page).',
  check: ({ parent, hasCard }) =>
    hasCard && isApproved(parent)
      ? PASS
      : fail('orderid: a card reference needs an approved order paid with a card', { field: 'orderid' }),
};
