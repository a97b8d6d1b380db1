// Request schemas: what sampleRequest builds passes, and each mandatory field, left out or broken,
// is reported by name.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ENDPOINTS } from '../../src/catalogue/index.ts';
import {
  checkRequestFields,
  requestSchemaOf,
  REQUIRED_FIELDS,
  sampleRequest,
  validateResponse,
} from '../../src/schemas/index.ts';
import { toCents } from '../../src/signing/cents.ts';

describe('request schemas', () => {
  it('give every catalogue row a schema, and accept its sample request', () => {
    for (const endpoint of ENDPOINTS) {
      const name = requestSchemaOf(endpoint);
      assert.ok(name !== undefined && REQUIRED_FIELDS[name], endpoint.operation);
      assert.equal(checkRequestFields(name, sampleRequest(endpoint)), undefined, endpoint.operation);
    }
  });

  it('name each missing mandatory field', () => {
    for (const endpoint of ENDPOINTS) {
      const name = requestSchemaOf(endpoint);
      for (const field of REQUIRED_FIELDS[name]!) {
        const problem = checkRequestFields(
          name,
          sampleRequest(endpoint).filter(([n]) => n !== field),
        );
        assert.deepEqual(
          [problem?.code, problem?.field],
          ['FIELD_MISSING', field],
          `${endpoint.operation} without ${field}`,
        );
      }
    }
  });

  it('name a malformed field and the rule it breaks; refuse a field sent twice', () => {
    const sale = ENDPOINTS.find((e) => e.operation === 'SALE')!;
    for (const [field, value] of [
      ['amount', '10.001'],
      ['amount', '1e3'],
      ['currency', 'eur'],
      ['expire_month', '00'],
      ['expire_year', '2030x'],
      ['cvv2', '12'],
      ['credit_card_number', '4111 1111 1111 1111'],
      ['email', 'no-at-sign'],
      ['ipaddress', '300.1.1.1'],
      ['country', 'Germany'],
    ] as const) {
      const problem = checkRequestFields('SaleRequest', sampleRequest(sale, [[field, value]]));
      assert.deepEqual([problem?.code, problem?.field], ['FIELD_INVALID', field], `${field}=${value}`);
      assert.match(problem!.message, new RegExp(`^${field}: `));
    }
    assert.equal(
      checkRequestFields(
        'SaleRequest',
        sampleRequest(sale, [
          ['ipaddress', '2001:db8::1'],
          ['expire_year', '2030'],
          ['extra_field', 'anything'],
        ]),
      ),
      undefined,
    );
    assert.equal(
      checkRequestFields('SaleRequest', [...sampleRequest(sale), ['email', 'a@b.c']])?.code,
      'FIELD_DUPLICATE',
    );
  });

  it('judge every value alike whatever came before: the last valid value remembered never lets another through', () => {
    const sale = ENDPOINTS.find((e) => e.operation === 'SALE')!;
    const verdict = (field: string, value: string): string | undefined =>
      checkRequestFields('SaleRequest', sampleRequest(sale, [[field, value]]))?.code;
    for (const [field, valid, invalid] of [
      ['currency', 'EUR', 'eur'],
      ['email', 'jane.doe@example.com', 'jane.doe@example.com '],
      ['cvv2', '123', '12'],
    ] as const) {
      // Valid twice (the second may be remembered), then a near miss twice (a refusal is never remembered), then valid.
      const seen = [valid, valid, invalid, invalid, valid].map((value) => verdict(field, value));
      assert.deepEqual(seen, [undefined, undefined, 'FIELD_INVALID', 'FIELD_INVALID', undefined], field);
    }
  });

  it('judge a layout seen before as they would afresh: fields judged elsewhere, or not, are told apart', () => {
    const sale = ENDPOINTS.find((e) => e.operation === 'SALE')!;
    const twoControls = [...sampleRequest(sale), ['control', 'a'], ['control', 'b']] as const;
    const isControl = (name: string): boolean => name === 'control';
    // Apart (a signature rule judges control), the same names are fine; as fields, control is sent twice.
    const verdicts = [isControl, undefined, isControl, undefined].map(
      (elsewhere) => checkRequestFields('SaleRequest', twoControls, elsewhere)?.code,
    );
    assert.deepEqual(verdicts, [undefined, 'FIELD_DUPLICATE', undefined, 'FIELD_DUPLICATE']);
    // The same names in another order, one missing, one renamed: each judged on its own names.
    const moved = [...twoControls.slice(1), twoControls[0]];
    assert.equal(checkRequestFields('SaleRequest', moved, isControl), undefined);
    assert.equal(checkRequestFields('SaleRequest', twoControls.slice(1), isControl)?.code, 'FIELD_MISSING');
    const renamed = twoControls.map(([n, v]) => (n === 'email' ? (['e-mail', v] as const) : ([n, v] as const)));
    assert.equal(checkRequestFields('SaleRequest', renamed, isControl)?.field, 'email');
  });

  it('sampleRequest keeps given values, adds extra fields after the mandatory ones', () => {
    const sale = ENDPOINTS.find((e) => e.operation === 'SALE')!;
    const pairs = sampleRequest(sale, [
      ['amount', '0.29'],
      ['site_url', 'https://shop.example'],
    ]);
    assert.deepEqual(
      pairs.find(([n]) => n === 'amount'),
      ['amount', '0.29'],
    );
    assert.deepEqual(pairs.at(-1), ['site_url', 'https://shop.example']);
  });

  // Bug fixed in issue 15: the schemas had their own amount rule, which refused ".5", "007.10" and
  // 16-digit amounts that the signer converts to cents and docs/assumptions.md A-7 accepts.
  it('accept exactly the amounts the signer converts to cents (A-7), in requests and in status answers', () => {
    const sale = ENDPOINTS.find((e) => e.operation === 'SALE')!;
    const status = {
      type: 'status-response',
      status: 'approved',
      'paynet-order-id': '1',
      'merchant-order-id': 'A-1',
      'serial-number': 's',
      currency: 'EUR',
    };
    for (const amount of ['.5', '007.10', '1234567890123456', '0', '10', '10.5', '10.00']) {
      assert.doesNotThrow(() => toCents(amount), amount);
      assert.equal(checkRequestFields('SaleRequest', sampleRequest(sale, [['amount', amount]])), undefined, amount);
      assert.deepEqual(validateResponse('StatusResponse', { ...status, amount }), { valid: true }, amount);
    }
    for (const amount of ['', '.', '1.', '1.005', '-1', '+1', '1e3', ' 1', '1 ', '1,000', 'NaN']) {
      assert.throws(() => toCents(amount), { code: 'ERR_AMOUNT_FORMAT' }, amount);
      assert.equal(
        checkRequestFields('SaleRequest', sampleRequest(sale, [['amount', amount]]))?.field,
        'amount',
        amount,
      );
      assert.equal(validateResponse('StatusResponse', { ...status, amount }).valid, false, amount);
    }
  });
});
