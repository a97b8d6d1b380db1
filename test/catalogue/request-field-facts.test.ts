// The request field tables held to facts read off the family's public pages (issue 43), written here by hand with
// the page beside each: the pages are the independent source, not the tables. A fact is a field of an operation and
// how the page needs it; where the seed spec says otherwise the spec wins, and the row must say so (`source.spec`).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { REQUEST_FIELD_TABLES } from '../../src/catalogue/fields/requests.ts';
import { ENDPOINTS } from '../../src/catalogue/index.ts';

type Fact = readonly [schema: string, field: string, necessity: 'mandatory' | 'optional' | 'conditional', page: string];

const DOC2 = 'https://doc2.payneteasy.com/integration/API_commands/';
const COM = 'https://doc.payneteasy.com/integration/API_commands/';
const EU = 'https://doc.payneteasy.eu/integration/API_commands/';

const SALE = `${DOC2}api_v2_sale.html`;
const SALE_FORM = `${DOC2}api_v2_sale-form.html`;
const PREAUTH = `${DOC2}api_v2_preauth.html`;
const CAPTURE = `${EU}api_v2_capture.html`;
const RETURN = `${DOC2}api_v2_return.html`;
const STATUS = `${COM}api_v2_status.html`;
const CARD_REF = `${COM}api_v2_create-card-ref.html`;
const CARD_INFO = `${EU}api_v2_get-card-info.html`;
const REBILL = `${COM}api_v2_make-rebill-sale.html`;

// "Necessity: Required" on the page, for each of these.
const PAYER = ['client_orderid', 'order_desc', 'address1', 'city', 'zip_code'] as const;
const FACTS: readonly Fact[] = [
  ...(['amount', 'currency', 'country', 'phone', 'email', 'ipaddress', ...PAYER] as const).map((f): Fact => [
    'SaleRequest',
    f,
    'mandatory',
    SALE,
  ]),
  ...(['amount', 'currency', 'country', 'phone', 'email', 'ipaddress', ...PAYER] as const).map((f): Fact => [
    'AuthRequest',
    f,
    'mandatory',
    PREAUTH,
  ]),
  ...PAYER.map((f): Fact => ['SaleFormRequest', f, 'mandatory', SALE_FORM]),
  // "Required for USA, Canada and Australia. Necessity: Conditional"
  ['SaleFormRequest', 'state', 'conditional', SALE_FORM],
  // "Parameter necessity depends on the Acquiring channel and necessity of it must be clarified with Tech Support."
  ['SaleFormRequest', 'first_name', 'conditional', SALE_FORM],
  // The capture page lists login, client_orderid, orderid (no necessity column): the order to capture.
  ['CaptureRequest', 'login', 'mandatory', CAPTURE],
  ['CaptureRequest', 'client_orderid', 'mandatory', CAPTURE],
  ['CaptureRequest', 'orderid', 'mandatory', CAPTURE],
  // "login … Necessity: Mandatory", "orderid … Mandatory", "client_orderid … Mandatory"
  ['ReturnRequest', 'login', 'mandatory', RETURN],
  ['ReturnRequest', 'orderid', 'mandatory', RETURN],
  ['ReturnRequest', 'client_orderid', 'mandatory', RETURN],
  // "If this parameter is omitted, initial transaction is reversed as a whole."
  ['ReturnRequest', 'amount', 'optional', RETURN],
  // "Please note that Currency MUST be specified if amount is specified!"
  ['ReturnRequest', 'currency', 'conditional', RETURN],
  ['StatusRequest', 'login', 'mandatory', STATUS],
  ['StatusRequest', 'client_orderid', 'mandatory', STATUS],
  // "orderid … Conditional": a status "can be requested with only client_orderid"
  ['StatusRequest', 'orderid', 'conditional', STATUS],
  ['StatusRequest', 'by-request-sn', 'optional', STATUS],
  // "Connecting Party has to supply orderid and client_orderid associated with the first payment transaction."
  ['CreateCardRefRequest', 'login', 'mandatory', CARD_REF],
  ['CreateCardRefRequest', 'client_orderid', 'mandatory', CARD_REF],
  ['CreateCardRefRequest', 'orderid', 'mandatory', CARD_REF],
  ['GetCardInfoRequest', 'login', 'mandatory', CARD_INFO],
  ['GetCardInfoRequest', 'cardrefid', 'mandatory', CARD_INFO],
  ...(['login', 'client_orderid', 'cardrefid', 'amount', 'currency'] as const).map((f): Fact => [
    'RebillRequest',
    f,
    'mandatory',
    REBILL,
  ]),
  // "recurrent_scenario … Possible values: REGULAR or IRREGULAR … Necessity: Optional"
  ['RebillRequest', 'recurrent_scenario', 'optional', REBILL],
];

/** Control formulas as the pages print them ("Control string is represented as concatenation of …"). */
const SIGNED: readonly (readonly [schema: string, fields: readonly string[], page: string])[] = [
  ['ReturnRequest', ['login', 'client_orderid', 'orderid', 'amount', 'currency'], RETURN],
  ['StatusRequest', ['login', 'client_orderid', 'orderid'], STATUS],
  ['CreateCardRefRequest', ['login', 'client_orderid', 'orderid'], CARD_REF],
  ['GetCardInfoRequest', ['login', 'cardrefid'], CARD_INFO],
  ['SaleFormRequest', ['client_orderid', 'amount', 'email'], SALE_FORM],
];

const tableOf = (schema: string) => {
  const table = REQUEST_FIELD_TABLES.find((t) => t.schema === schema);
  assert.ok(table, `no field table for ${schema}`);
  return table;
};

describe('the request field tables, against facts read off the public pages', () => {
  it('hold every field and necessity the pages state', () => {
    for (const [schema, field, necessity, page] of FACTS) {
      const row = tableOf(schema).fields.find((f) => f.name === field);
      assert.ok(row, `${schema} lists ${field} (${page})`);
      assert.equal(row.necessity, necessity, `${schema}.${field} (${page})`);
      assert.equal(row.source.page, page, `${schema}.${field} cites the page it was read from`);
    }
  });

  it('list no card field on sale-form, whose payer types the card on the hosted page', () => {
    const names = tableOf('SaleFormRequest').fields.map((f) => f.name);
    for (const card of ['credit_card_number', 'cvv2', 'card_printed_name', 'expire_month', 'expire_year'])
      assert.ok(!names.includes(card), card);
  });

  it("let the spec win where it says more, and say so: capture's amount", () => {
    // The capture page: amount "may or may not be sent"; the spec signs it in cents on capture.
    const amount = tableOf('CaptureRequest').fields.find((f) => f.name === 'amount');
    assert.equal(amount?.necessity, 'mandatory');
    assert.ok(amount?.source.spec !== undefined && /may or may not be sent/.test(amount.source.disagreement ?? ''));
  });

  it('mark as signed exactly the fields of the control formulas the pages print', () => {
    for (const [schema, fields, page] of SIGNED) {
      const signed = tableOf(schema)
        .fields.filter((f) => f.inControl)
        .map((f) => f.name);
      assert.deepEqual(signed.sort(), [...fields].sort(), `${schema} (${page})`);
    }
  });

  it("give each of the catalogue's request schemas one table, every row citing a page of the family", () => {
    const schemas = new Set(ENDPOINTS.map((e) => e.checkedRequestSchema));
    assert.equal(schemas.size, 28);
    assert.deepEqual(new Set(REQUEST_FIELD_TABLES.map((t) => t.schema)), schemas);
    assert.equal(REQUEST_FIELD_TABLES.length, schemas.size);
    for (const table of REQUEST_FIELD_TABLES)
      for (const row of table.fields)
        assert.match(row.source.page, /^https:\/\/doc2?\.payneteasy\.(com|eu)\/integration\/API_commands\/\S+\.html$/);
  });
});
