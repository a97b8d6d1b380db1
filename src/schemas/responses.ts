/**
 * JSON Schemas (draft-07) of the nine response bodies the spec names. The spec shows no fields; the
 * field names and statuses are those of the API family's public clients (docs/assumptions.md A-17,
 * Unknown fields are rejected: a conformance suite must notice what it does not expect.
 */
import { DECIMAL_AMOUNT_PATTERN } from '../signing/cents.ts';

const STATUS = { enum: ['processing', 'approved', 'declined', 'filtered', 'error', 'unknown'] };
const text = { type: 'string', minLength: 1 };
const orderFields = {
  'paynet-order-id': { type: 'string', pattern: '^[0-9]+$' },
  'merchant-order-id': text,
  'serial-number': text,
};
const required = ['type', 'status', 'paynet-order-id', 'merchant-order-id', 'serial-number'];

function asyncBody(type: string, extra: Record<string, unknown> = {}, extraRequired: string[] = []): object {
  return {
    type: 'object',
    additionalProperties: false,
    required: [...required, ...extraRequired],
    properties: { type: { const: type }, status: STATUS, ...orderFields, ...extra },
  };
}

function errorBody(type: string): object {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['type', 'error-code', 'error-message', 'serial-number'],
    properties: {
      type: { const: type },
      'error-code': { type: 'string', pattern: '^[A-Z][A-Z0-9_]*$' },
      'error-message': text,
      'serial-number': text,
      field: text,
    },
  };
}

export const RESPONSE_SCHEMAS: Readonly<Record<string, object>> = {
  AsyncResponse: asyncBody('async-response'),
  AsyncCheckoutFormRedirect: asyncBody(
    'async-form-response',
    { 'redirect-url': { type: 'string', format: 'uri', pattern: '^https?://' } },
    ['redirect-url'],
  ),
  CardRefAsyncResponse: asyncBody('async-response', { 'card-ref-id': text }),
  CardRefV4AsyncResponse: asyncBody('async-response', { 'card-ref-id': text }),
  CardInfoAsyncResponse: asyncBody('async-response', {
    bin: { type: 'string', pattern: '^[0-9]{6}$' },
    'last-four-digits': { type: 'string', pattern: '^[0-9]{4}$' },
    'card-printed-name': { type: 'string' },
    'expire-month': { type: 'string', pattern: '^(0[1-9]|1[0-2])$' },
    'expire-year': { type: 'string', pattern: '^[0-9]{2,4}$' },
  }),
  StatusResponse: asyncBody('status-response', {
    // An answer carries the amount as the request gave it, so both follow the one grammar.
    amount: { type: 'string', pattern: DECIMAL_AMOUNT_PATTERN },
    currency: { type: 'string', pattern: '^[A-Z]{3}$' },
    'error-message': { type: 'string' },
    'error-code': { type: 'string' },
    html: { type: 'string' },
    'card-ref-id': text,
    'redirect-url': { type: 'string', format: 'uri' },
  }),
  CreateRecurringPaymentResponse: asyncBody('async-response', { 'recurring-payment-id': text }, [
    'recurring-payment-id',
  ]),
  ValidationErrorResponse: errorBody('validation-error'),
  ServerErrorResponse: errorBody('error'),
};
