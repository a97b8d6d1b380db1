// How a form's fields are read, as the family's request pages say: empty is absent for an optional field,
// outer whitespace is omitted (but where the signature covers the value, and the amount), a field the operation's
// page does not list is ignored; and return takes no amount ("initial transaction is reversed as a whole").
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkRequestFields } from '../../src/schemas/index.ts';
import type { Pair } from '../../src/signing/form-body.ts';

// A sale-form the vendor's WooCommerce plugin sends, written out by hand: the card fields empty, the payer's own.
const PLUGIN_SALE_FORM: Pair[] = [
  ['client_orderid', '7001'],
  ['order_desc', 'Order 7001'],
  ['amount', '25.50'],
  ['currency', 'EUR'],
  ['address1', 'Main Street 1'],
  ['city', 'Berlin'],
  ['zip_code', '10115'],
  ['country', 'DE'],
  ['phone', '+49 30 1234567'],
  ['ipaddress', '203.0.113.7'],
  ['email', 'payer@example.com'],
  ['redirect_url', 'https://shop.example/return'],
  ['credit_card_number', ''],
  ['card_printed_name', ''],
  ['expire_month', ''],
  ['expire_year', ''],
  ['cvv2', ''],
  ['notify_url', ''],
];
const problem = (schema: string, params: Pair[]) => {
  const p = checkRequestFields(schema, params);
  return p === undefined ? undefined : [p.code, p.field, p.message];
};
const replaced = (params: Pair[], name: string, value: string | undefined): Pair[] =>
  value === undefined ? params.filter(([n]) => n !== name) : params.map(([n, v]) => [n, n === name ? value : v]);

describe('a form read as the family reads it (A-36)', () => {
  it("passes the vendor plugin's sale-form, whose card fields are sent empty", () => {
    assert.equal(problem('SaleFormRequest', PLUGIN_SALE_FORM), undefined);
  });

  it('ignores a field the operation does not list, whatever its value; refuses it sent twice', () => {
    assert.equal(problem('SaleFormRequest', replaced(PLUGIN_SALE_FORM, 'expire_month', '13')), undefined);
    assert.equal(
      problem('StatusRequest', [
        ['login', 'm'],
        ['client_orderid', 'A'],
        ['orderid', '1'],
        ['amount', 'x'],
      ]),
      undefined,
    );
    assert.deepEqual(problem('SaleFormRequest', [...PLUGIN_SALE_FORM, ['cvv2', '']]), [
      'FIELD_DUPLICATE',
      'cvv2',
      'cvv2: must appear once',
    ]);
  });

  it('does not check an optional field sent blank; a mandatory one sent blank is still refused', () => {
    const sale = replaced(PLUGIN_SALE_FORM, 'notify_url', ' ');
    assert.equal(problem('SaleFormRequest', [...sale, ['state', '  '], ['first_name', '']]), undefined);
    assert.deepEqual(problem('SaleFormRequest', replaced(PLUGIN_SALE_FORM, 'city', '  ')), [
      'FIELD_INVALID',
      'city',
      'city: must NOT have fewer than 1 characters',
    ]);
    assert.deepEqual(problem('SaleFormRequest', replaced(PLUGIN_SALE_FORM, 'city', undefined)), [
      'FIELD_MISSING',
      'city',
      'city: is required by SaleFormRequest',
    ]);
  });

  it('omits outer whitespace of an unsigned value, but not of a signed one or of the amount', () => {
    // country and phone are in no formula of sale-form: " DE " is DE to the gateway.
    const padded = replaced(replaced(PLUGIN_SALE_FORM, 'country', ' DE\t'), 'phone', '+49 30 1234567 ');
    assert.equal(problem('SaleFormRequest', padded), undefined);
    // email is in sale-form's control formula: the merchant signed "payer@example.com ", as sent.
    assert.equal(
      problem('SaleFormRequest', replaced(PLUGIN_SALE_FORM, 'email', 'payer@example.com '))?.[0],
      'FIELD_INVALID',
    );
    assert.equal(problem('SaleFormRequest', replaced(PLUGIN_SALE_FORM, 'amount', ' 25.50'))?.[1], 'amount');
  });

  it('takes a return without amount and currency, and asks for the currency beside an amount', () => {
    const order: Pair[] = [
      ['login', 'merchant'],
      ['client_orderid', 'R-1'],
      ['orderid', '100000001'],
    ];
    assert.equal(problem('ReturnRequest', order), undefined);
    assert.equal(problem('ReturnRequest', [...order, ['amount', ''], ['currency', '']]), undefined);
    assert.equal(problem('ReturnRequest', [...order, ['amount', '5.00'], ['currency', 'EUR']]), undefined);
    assert.deepEqual(problem('ReturnRequest', [...order, ['amount', '5.00']]), [
      'FIELD_MISSING',
      'currency',
      'currency: is required by ReturnRequest when amount is sent',
    ]);
    assert.equal(problem('ReturnRequest', [...order, ['amount', '5.00'], ['currency', ' ']])?.[0], 'FIELD_MISSING');
    assert.deepEqual(problem('ReturnRequest', [...order, ['amount', '5.001'], ['currency', 'EUR']])?.[1], 'amount');
  });
});
