/**
 * Card data where the operation's page asks for none (A-37): a card number or CVV, not blank, on a
 * request whose field table lists no card field (the hosted forms, the order moves, status, card
 * references by id). The family ignores fields a page does not list, so a gateway takes the request and
 * the mock does too; but the shop that sent it held the card, which a hosted form exists to avoid (the
 * payer types the card on the gateway's page). inspect reports it; the vendor plugins' empty
 * `credit_card_number=` and `cvv2=` on a sale-form pass, since a blank field is not sent (A-36).
 */
import { CARD_NUMBER_FIELDS, CVV_FIELDS } from '../catalogue/test-cards.ts';
import { REQUEST_TABLES, requestSchemaOf } from '../schemas/index.ts';
import { requestRule } from './request-rule.ts';
import { fail, PASS } from './rule.ts';

const isCardData = (name: string): boolean => CARD_NUMBER_FIELDS.has(name) || CVV_FIELDS.has(name);

/** The request schemas whose table names a card field: there, card data is the request's own. */
const ASKS_FOR_CARD: ReadonlySet<string> = new Set(
  [...REQUEST_TABLES.values()].filter((t) => t.fields.some((f) => isCardData(f.name))).map((t) => t.schema),
);

export const cardDataWhereAsked = requestRule({
  id: 'card-data-where-asked',
  title: 'no card number or CVV on a request whose page lists none',
  clause:
    'Field lists "not shown"; A-37 (the sale-form page lists no card field, ' +
    'https://doc2.payneteasy.com/integration/API_commands/api_v2_sale-form.html)',
  basis: 'assumption',
  assumptions: ['A-37'],
  refusals: [],
  hint:
    'Leave card fields out of hosted-form and order requests (or send them empty): the payer types the card on ' +
    "the gateway's page, so the shop never holds it.",
  needs: ['endpoint', 'form'],
  check(req) {
    if (ASKS_FOR_CARD.has(requestSchemaOf(req.match.endpoint))) return PASS;
    for (const [name, value] of req.params) {
      // The value stays out of the message: it is a card number or a CVV.
      if (isCardData(name) && value.trim() !== '')
        return fail(`${name}: card data on ${req.match.endpoint.operation}, whose page lists no card field`, {
          field: name,
          expected: 'no card data, or the field empty',
          actual: 'a value',
        });
    }
    return PASS;
  },
});
