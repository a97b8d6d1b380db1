/**
 * What a scenario records beside cucumber's pass and fail (docs/certify.md, "Verdicts"): a warning,
 * where a gateway differs from an assumption of ours (A-n) and the run does not fail for it,
 * "not applicable", where a scenario cannot apply to this gateway, and a finding, the data of a
 * failure (its rule, kind, expected and actual, the exchange). Cucumber has no such statuses, so a step
 * attaches them as JSON with these media types and the bundle reads them from the messages: a failure's
 * cause is made from its finding, never from the words of its message, which quote the gateway.
 */

export const WARNING_MEDIA_TYPE = 'application/vnd.payconform.warning+json';
export const NOT_APPLICABLE_MEDIA_TYPE = 'application/vnd.payconform.not-applicable+json';
export const FINDING_MEDIA_TYPE = 'application/vnd.payconform.finding+json';

/**
 * How a rule was missed (docs/certify.md, "Causes"). `refused-met`: the gateway refused, citing the rule, a
 * request that meets it (the suite's requests are made by the reference signer). `accepted-wrong`: it accepted
 * a request that breaks it. `answered-wrong`: its answer or behaviour broke it. `sent-wrong`: the merchant's
 * request broke it (inspect). `untraced`: no rule could be named; the cause is the failed check.
 */
export type CauseKind = 'refused-met' | 'accepted-wrong' | 'answered-wrong' | 'sent-wrong' | 'untraced';

export const CAUSE_KINDS: readonly CauseKind[] = [
  'refused-met',
  'accepted-wrong',
  'answered-wrong',
  'sent-wrong',
  'untraced',
];

/** The exchange a finding shows: the operation, the status it answered and its answer's error code. */
export interface FindingExchange {
  readonly operation: string;
  readonly status: number;
  readonly errorCode?: string | undefined;
}

/**
 * A failure as data: what a step expected and saw when the scenario failed. `kind` is what the step saw:
 * `refused-met` for a check of a refusal (its status, code or field: the answer's code names the rule it
 * was refused under), `accepted-wrong` for a refusal expected and a 2xx answered, `answered-wrong` for any
 * other check, `untraced` for a step that failed without one (its error's first line is the check).
 */
export interface Finding {
  readonly kind: CauseKind;
  /** The rule of the book the check is, where it names one. */
  readonly rule?: string | undefined;
  readonly check: string;
  readonly expected: string;
  readonly actual: string;
  /** The error code the check expected (the refusal's own), where it expected one. */
  readonly expectedCode?: string | undefined;
  readonly exchange?: FindingExchange | undefined;
  /** The set-up request the gateway refused (the SALE before a STATUS): the scenario's own was never sent. */
  readonly prerequisite?: { readonly operation: string; readonly status: number } | undefined;
}

/** "SALE answered 400 CONTROL_INVALID": the exchange in a few words, without its body. */
export const exchangeWords = (x: FindingExchange): string =>
  `${x.operation} answered ${x.status}${x.errorCode ? ` ${x.errorCode}` : ''}`;

/**
 * A warning's `assumption` under this prefix names a gateway profile's key: a departure from the spec it declares, not
 * an assumption.
 */
export const DEVIATION_PREFIX = 'profile ';

/** One expectation a gateway did not meet, where the spec is silent. */
export interface Warning {
  /** The assumption it rests on: A-n of docs/assumptions.md (several joined by ", "). */
  readonly assumption: string;
  /** What was checked, e.g. "error code". */
  readonly check: string;
  readonly expected: string;
  readonly actual: string;
  /** The rule of docs/rules.md behind the expectation, where one is. */
  readonly rule?: string | undefined;
}

export interface NotApplicable {
  readonly reason: string;
}

/** The one line a warning is shown as (console, JUnit, failure messages under --strict). */
export function warningLine(w: Warning): string {
  return `${w.assumption}: ${w.check}: expected ${w.expected}, got ${w.actual}${w.rule ? ` (rule ${w.rule})` : ''}`;
}
