/**
 * Every error payconform raises on purpose carries a stable code, the field it is about and the
 * rule that was broken, so the CLI can print one line and exit 2, and callers can `switch (err.code)`.
 * Messages name the type or shape of a bad value, never a secret value itself.
 */
export type PayconformErrorCode =
  | 'ERR_AMOUNT_FORMAT'
  | 'ERR_ENCODING'
  | 'ERR_URL'
  | 'ERR_FORM_BODY'
  | 'ERR_UNKNOWN_OPERATION'
  | 'ERR_UNKNOWN_ENDPOINT'
  | 'ERR_ENDPOINT_ID'
  | 'ERR_MISSING_FIELD'
  | 'ERR_SCHEME'
  | 'ERR_CREDENTIALS'
  | 'ERR_KEY'
  | 'ERR_AUTH_HEADER'
  | 'ERR_USAGE'
  | 'ERR_IO'
  | 'ERR_VECTOR_INVALID'
  | 'ERR_WHOLE_NUMBER'
  | 'ERR_LIVE_RUN'
  | 'ERR_TARGET';

export class PayconformError extends Error {
  readonly code: PayconformErrorCode;
  /** The input the error is about: a form field, a CLI option, an environment variable, a file. */
  readonly field: string | undefined;
  /** The rule that was broken, in a few words. */
  readonly rule: string | undefined;

  constructor(
    code: PayconformErrorCode,
    message: string,
    details: { field?: string; rule?: string; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'PayconformError';
    this.code = code;
    this.field = details.field;
    this.rule = details.rule;
  }
}

/** Shorthand for the most common shape: "<field>: <rule>". */
export function fieldError(
  code: PayconformErrorCode,
  field: string,
  rule: string,
  cause?: unknown,
): PayconformError {
  return new PayconformError(code, `${field}: ${rule}`, { field, rule, cause });
}

export function isPayconformError(err: unknown): err is PayconformError {
  return err instanceof PayconformError;
}
