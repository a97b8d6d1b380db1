import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ENDPOINTS } from '../../src/catalogue/index.ts';
import { containsFullPan, RESPONSE_SCHEMAS, validateResponse } from '../../src/schemas/index.ts';

const order = {
  status: 'processing',
  'paynet-order-id': '1234567890123',
  'merchant-order-id': 'A-1',
  'serial-number': 's-1',
};
const valid: Record<string, object> = {
  AsyncResponse: { type: 'async-response', ...order },
  AsyncCheckoutFormRedirect: { type: 'async-form-response', ...order, 'redirect-url': 'https://gw.example/checkout/1' },
  CardRefAsyncResponse: { type: 'async-response', ...order, 'card-ref-id': '77' },
  // The v4 page's own type, with none of the order fields the pages do not list there.
  CardRefV4AsyncResponse: { type: 'create-card-ref-response', 'serial-number': 's-1', 'card-ref-id': '77' },
  // doc.payneteasy.eu …/api_v2_get-card-info.html: get-card-info-response, no order.
  CardInfoAsyncResponse: {
    type: 'get-card-info-response',
    'serial-number': 's-1',
    bin: '411111',
    'last-four-digits': '1111',
    'card-printed-name': 'JANE DOE',
    'expire-month': '12',
    'expire-year': '30',
  },
  StatusResponse: {
    type: 'status-response',
    ...order,
    status: 'approved',
    amount: '10.00',
    currency: 'EUR',
    'transaction-type': 'sale',
  },
  CreateRecurringPaymentResponse: { type: 'async-response', ...order, 'recurring-payment-id': 'rp-1' },
  ValidationErrorResponse: {
    type: 'validation-error',
    'error-code': 'CONTROL_INVALID',
    'error-message': 'control: does not match',
    'serial-number': 's',
    field: 'control',
  },
  ServerErrorResponse: {
    type: 'error',
    'error-code': 'INTERNAL',
    'error-message': 'try again later',
    'serial-number': 's',
  },
};

describe('response schemas', () => {
  it('exist for every response schema the catalogue names, and for the two error bodies', () => {
    const named = new Set(ENDPOINTS.map((e) => e.responseSchema).filter((s): s is string => s !== null));
    for (const name of [...named, 'ValidationErrorResponse', 'ServerErrorResponse'])
      assert.ok(RESPONSE_SCHEMAS[name], name);
    assert.equal(Object.keys(RESPONSE_SCHEMAS).length, 9);
  });

  for (const [name, body] of Object.entries(valid)) {
    it(`${name}: accepts a conforming body and rejects a missing field, an extra field and a wrong type tag`, () => {
      assert.deepEqual(validateResponse(name, body), { valid: true });
      const { 'serial-number': _s, ...missing } = body as Record<string, unknown>;
      assert.deepEqual(validateResponse(name, missing), {
        valid: false,
        errors: ["/: must have required property 'serial-number'"],
      });
      assert.deepEqual(validateResponse(name, { ...body, surprise: 1 }), {
        valid: false,
        errors: ['/: must NOT have additional properties "surprise"'],
      });
      assert.match(
        (validateResponse(name, { ...body, type: 'other' }) as { errors: string[] }).errors.join(),
        /^\/type: must be equal to (constant|one of the allowed values)/,
      );
    });
  }

  it('rejects an unknown status, a relative redirect URL and a card number in an answer', () => {
    assert.match(
      (
        validateResponse('AsyncResponse', { ...valid.AsyncResponse, status: 'done' }) as { errors: string[] }
      ).errors.join(),
      /^\/status: must be equal to one of the allowed values/,
    );
    assert.equal(
      validateResponse('AsyncCheckoutFormRedirect', {
        ...valid.AsyncCheckoutFormRedirect,
        'redirect-url': '/checkout/1',
      }).valid,
      false,
    );
    assert.match(
      (
        validateResponse('StatusResponse', {
          ...valid.StatusResponse,
          'error-message': 'card 4111111111111111 declined',
        }) as { errors: string[] }
      ).errors.join(),
      /full card number/,
    );
  });

  it('finds a full card number (Luhn) but not a masked one, a non-Luhn run or an id', () => {
    assert.equal(containsFullPan({ a: ['x 4111111111111111 y'] }), true);
    assert.equal(containsFullPan('411111******1111'), false);
    assert.equal(containsFullPan('4111111111111112'), false);
    assert.equal(containsFullPan({ 'paynet-order-id': '4111111111111111' }), false);
  });
});
