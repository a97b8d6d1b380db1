/**
 * One error root: every error payconform raises on purpose descends from PayconformError — the
 * library's (the codes below, VectorFileError) and the mock's refusals (MockError, with its own codes).
 * Each carries a stable code, the field it is about and the rule that was broken, so the CLI can
 * print one line and exit 2, and callers can `switch (err.code)`.
 * Messages name the type or shape of a bad value, never a secret value itself.
 * `ERR_USAGE` is for command-line mistakes and is raised only in src/cli/; library code raises a
 * specific code (test/errors.test.ts holds both rules).
 */
export type PayconformErrorCode =
  /** An amount that is not a decimal with at most two fraction digits, or is negative. */
  | 'ERR_AMOUNT_FORMAT'
  /** Text that has no UTF-8 form (a lone surrogate) or a percent-escape that does not decode. */
  | 'ERR_ENCODING'
  /** A request URL that is not an absolute http(s) URL without credentials. */
  | 'ERR_URL'
  /** A form parameter not written name=value. */
  | 'ERR_FORM_BODY'
  /** An operation name that is not in the catalogue. */
  | 'ERR_UNKNOWN_OPERATION'
  /** A request path that matches no catalogue endpoint. */
  | 'ERR_UNKNOWN_ENDPOINT'
  /** An endpointId that is missing or not a positive int64 in decimal. */
  | 'ERR_ENDPOINT_ID'
  /** A form field a signature formula needs that is missing or appears more than once. */
  | 'ERR_MISSING_FIELD'
  /** An operation whose authentication scheme the spec does not state, so it cannot be signed. */
  | 'ERR_SCHEME'
  /** A credential the request needs (login, control key, key) that was not given. */
  | 'ERR_CREDENTIALS'
  /** A key that is not PEM, not RSA, too short, or public where a private key is needed. */
  | 'ERR_KEY'
  /** An Authorization header that is not a well-formed OAuth header. */
  | 'ERR_AUTH_HEADER'
  /** A pasted request (raw HTTP as logged, or a curl command) that cannot be read back into a request. */
  | 'ERR_REQUEST_TEXT'
  /** An oauth_timestamp that is not whole seconds since 1970. */
  | 'ERR_TIMESTAMP'
  /** A command-line mistake (an option missing, unknown or badly written): raised only in src/cli/. */
  | 'ERR_USAGE'
  /** A file that cannot be read or written, or a gateway that cannot be reached. */
  | 'ERR_IO'
  /** A vector file that breaks its JSON Schema or the rules a schema cannot say. */
  | 'ERR_VECTOR_INVALID'
  /** A vector pack asked for with no operation. */
  | 'ERR_NO_OPERATION'
  /** An output folder that is a file, or is not empty and replacing it was not asked for. */
  | 'ERR_OUT_DIR'
  /** A merchants file that is not a non-empty JSON array of well-formed merchants. */
  | 'ERR_MERCHANTS'
  /** An expected-failure ledger that is missing, is not JSON or breaks its schema. */
  | 'ERR_LEDGER'
  /** A deliberately broken mock asked for by a name that is no defect (payconform mock --list-defects). */
  | 'ERR_UNKNOWN_DEFECT'
  /** A setting that must be a whole number in a range (a port, a window, a PAYCONFORM_* time). */
  | 'ERR_WHOLE_NUMBER'
  /** A run against a real gateway that its safety rules do not allow (not loopback without --live, not confirmed). */
  | 'ERR_LIVE_RUN'
  /** A PAYCONFORM_* setting of the suite's target that is missing or malformed. */
  | 'ERR_TARGET'
  /** A gateway profile (certify --profile) that is not JSON or breaks its schema. */
  | 'ERR_PROFILE'
  /** A faults file (mock or inspect --faults, a profile's faults) that is not JSON or breaks its rules. */
  | 'ERR_FAULTS'
  /** A HAR file (payconform replay) that is too large, not JSON, or not HAR 1.2 where replay reads it. */
  | 'ERR_HAR'
  /**
   * A tag expression that does not parse, a selection (tags, shard) of no scenario, or an unknown capability
   * required (--require, a profile's `require`).
   */
  | 'ERR_SELECTION'
  /**
   * An evidence bundle that cannot be signed, verified or merged as asked (a weak key, not a bundle, shards of two
   * runs).
   */
  | 'ERR_BUNDLE';

export interface ErrorDetails {
  field?: string;
  rule?: string;
  cause?: unknown;
}

/**
 * The root class. `C` is the code set: payconform's own by default; a subclass with its own codes
 * (the mock's `MockError extends PayconformError<MockErrorCode>`) names its set. `NoInfer` keeps
 * `new PayconformError('ERR_TYPO', …)` a compile error instead of inferring a new code from it.
 */
export class PayconformError<C extends string = PayconformErrorCode> extends Error {
  readonly code: C;
  /** The input the error is about: a form field, a CLI option, an environment variable, a file. */
  readonly field: string | undefined;
  /** The rule that was broken, in a few words. */
  readonly rule: string | undefined;

  constructor(code: NoInfer<C>, message: string, details: ErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'PayconformError';
    this.code = code;
    this.field = details.field;
    this.rule = details.rule;
  }
}

/** Shorthand for the most common shape: "<field>: <rule>". */
export function fieldError(code: PayconformErrorCode, field: string, rule: string, cause?: unknown): PayconformError {
  return new PayconformError(code, `${field}: ${rule}`, { field, rule, cause });
}

/**
 * Any deliberate payconform error, a subclass's included, so its `code` is typed as a string:
 * compare it with a code, or narrow with `instanceof` to a class whose codes are known.
 */
export function isPayconformError(err: unknown): err is PayconformError<string> {
  return err instanceof PayconformError;
}
