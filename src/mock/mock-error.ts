/**
 * Every refusal of the mock: an HTTP status, a stable error code and a message naming the field or
 * rule, sent as a ValidationErrorResponse (4xx) or ServerErrorResponse (500) body. Statuses are in
 * docs/assumptions.md A-21.
 */
export type MockErrorCode =
  | 'METHOD_NOT_ALLOWED' | 'NOT_FOUND' | 'NOT_ACCEPTABLE' | 'UNSUPPORTED_MEDIA_TYPE' | 'BODY_TOO_LARGE' | 'BODY_MALFORMED'
  | 'ENDPOINT_UNKNOWN' | 'ENDPOINT_GROUP_NOT_ALLOWED'
  | 'CONTROL_MISSING' | 'CONTROL_MALFORMED' | 'CONTROL_INVALID'
  | 'AUTH_HEADER_MISSING' | 'AUTH_HEADER_MALFORMED' | 'CONSUMER_KEY_UNKNOWN' | 'SIGNATURE_METHOD_WRONG'
  | 'OAUTH_VERSION_WRONG' | 'TIMESTAMP_OUT_OF_WINDOW' | 'NONCE_REPLAYED' | 'SIGNATURE_INVALID' | 'OAUTH_PARAM_CONFLICT'
  | 'FIELD_MISSING' | 'FIELD_INVALID' | 'FIELD_DUPLICATE'
  | 'ORDER_UNKNOWN' | 'ORDER_STATE' | 'AMOUNT_EXCEEDS' | 'CARD_REF_UNKNOWN' | 'RECURRING_PAYMENT_UNKNOWN' | 'SERVER_ERROR';

export class MockError extends Error {
  constructor(
    readonly status: number,
    readonly code: MockErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'MockError';
  }
}
