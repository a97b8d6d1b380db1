/**
 * The answer field tables held to facts read off the family's public pages (issue 43), and to a status
 * answer a family gateway published: known answers from outside this code.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ANSWER_FIELD_TABLES } from '../../src/catalogue/fields/answers.ts';
import { ENDPOINTS } from '../../src/catalogue/index.ts';
import { validateResponse } from '../../src/schemas/index.ts';

const table = (schema: string) => {
  const found = ANSWER_FIELD_TABLES.find((t) => t.schema === schema);
  assert.ok(found, schema);
  return found;
};
const names = (schema: string) => table(schema).fields.map((f) => f.name);
const necessity = (schema: string, name: string) => table(schema).fields.find((f) => f.name === name)?.necessity;

describe('answer field tables', () => {
  it('has one table per response schema the catalogue names, and the two error bodies', () => {
    const named = new Set(ENDPOINTS.map((e) => e.responseSchema).filter((s): s is string => s !== null));
    named.add('ValidationErrorResponse').add('ServerErrorResponse');
    assert.deepEqual(new Set(ANSWER_FIELD_TABLES.map((t) => t.schema)), named);
  });

  it('cites a page of the family for every row, and puts no answer field in a control', () => {
    const family = /^https:\/\/(doc|doc2)\.payneteasy\.(com|eu)\//;
    for (const t of ANSWER_FIELD_TABLES) {
      assert.match(t.page, family, t.schema);
      for (const f of t.fields) {
        assert.match(f.source.page, family, `${t.schema}.${f.name}`);
        assert.equal(f.inControl, false, `${t.schema}.${f.name}`);
        assert.ok(f.description.length > 10, `${t.schema}.${f.name} has a description`);
      }
    }
  });

  // doc.payneteasy.eu …/api_v2_status.html, "Status Response Parameter": type (status-response), status,
  // amount, currency, paynet-order-id, …; the vendor's WooCommerce plugin reads transaction-type.
  it('status: the page’s first rows, and transaction-type', () => {
    for (const name of ['type', 'status', 'amount', 'currency', 'paynet-order-id', 'transaction-type'])
      assert.ok(names('StatusResponse').includes(name), name);
    assert.deepEqual(table('StatusResponse').fields[0]?.allowed, ['status-response']);
  });

  // doc.payneteasy.eu …/api_v2_get-card-info.html, "Information Response Parameters".
  it('get-card-info: its own answer type and the page’s fields, no order', () => {
    assert.deepEqual(names('CardInfoAsyncResponse').sort(), [
      'bin',
      'card-printed-name',
      'expire-month',
      'expire-year',
      'last-four-digits',
      'result-3d',
      'serial-number',
      'type',
    ]);
    assert.deepEqual(table('CardInfoAsyncResponse').fields[0]?.allowed, ['get-card-info-response']);
  });

  // doc.payneteasy.com …/api_v4_create-card-ref.html: card-ref-id, unq-card-ref-id, recurring-payment-id.
  it('create-card-ref: the reference is what the answer is for', () => {
    assert.equal(necessity('CardRefAsyncResponse', 'card-ref-id'), 'mandatory');
    assert.equal(necessity('CardRefV4AsyncResponse', 'card-ref-id'), 'mandatory');
    for (const name of ['unq-card-ref-id', 'recurring-payment-id'])
      assert.equal(necessity('CardRefV4AsyncResponse', name), 'optional', name);
  });

  // doc.payneteasy.eu …/api_v2_capture.html: async-response with paynet-order-id and merchant-order-id.
  it('a direct operation’s async-response names its order', () => {
    for (const name of ['type', 'paynet-order-id', 'merchant-order-id', 'serial-number'])
      assert.equal(necessity('AsyncResponse', name), 'mandatory', name);
  });

  // A status answer a family gateway sent (form text, published in a public PHP example; html left out).
  it('a family gateway’s published status answer passes StatusResponse whole', () => {
    const published = new URLSearchParams(
      'type=status-response&serial-number=00000000-0000-0000-0000-0000043b64d7&merchant-order-id=902B4FF56' +
        '&paynet-order-id=1969105&status=processing&amount=10.42&currency=EUR' +
        '&original-gate-descriptor=Callkey+LP+TEST+EUR&redirect-to=https%3A%2F%2Fsandbox.example%2Fform%2F1' +
        '&transaction-type=sale&receipt-id=158e97af-7ffe-3293-a3fe-ac523841a74f&name=John+Doe' +
        '&cardholder-name=John+Doe&card-exp-month=12&card-exp-year=2099&email=john.smith%40gmail.com' +
        '&order-stage=sale_3d_validating&last-four-digits=6732&bin=453897&card-type=VISA&phone=12063582043' +
        '&bank-name=UNKNOWN&paynet-processing-date=2024-03-20+08%3A51%3A03+MSK&card-hash-id=3902982' +
        '&card-country-alpha-three-code=JPN&first-name=John&last-name=Smith&ips-src-payment-product-code=F' +
        '&ips-src-payment-product-name=Visa+Classic&ips-src-payment-type-code=Credit' +
        '&ips-src-payment-type-name=VISA+Credit&initial-amount=10.42',
    );
    assert.deepEqual(validateResponse('StatusResponse', Object.fromEntries(published)), { valid: true });
  });
});
