/**
 * What a scenario records beside cucumber's pass and fail (docs/certify.md, "Verdicts"): a warning,
 * where a gateway differs from an assumption of ours (A-n) and the run does not fail for it, and
 * "not applicable", where a scenario cannot apply to this gateway. Cucumber has no such statuses, so
 * a step attaches them as JSON with these media types and the bundle counts them from the messages.
 */

export const WARNING_MEDIA_TYPE = 'application/vnd.payconform.warning+json';
export const NOT_APPLICABLE_MEDIA_TYPE = 'application/vnd.payconform.not-applicable+json';

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
