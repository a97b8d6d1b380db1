/**
 * How a step's expectation becomes a verdict (docs/certify.md, "Verdicts"). An expectation the spec
 * states fails the scenario when it is not met. One that rests on an assumption (A-n, from the rule of
 * the book the check names, or the scenario's own @A-n tags when its whole premise is an assumption) fails only
 * against the embedded mock or with --strict; against any other gateway the step attaches a warning
 * and goes on. In an @assumption scenario the spec's checks are the premise's: a missed one ends the
 * scenario there (warning attached, later steps skipped), because they would only test what came of
 * an expectation that did not hold.
 *
 * A failure is recorded as data before it is thrown: a finding (src/report/findings.ts) with the
 * check's rule, kind, expected, actual and exchange, from which the report makes its cause; a step that
 * throws anything else records what it threw (a refused prerequisite, or an untraced error).
 *
 * The step keywords below wrap cucumber's own so that an ended or not-applicable scenario skips
 * cleanly; every step file takes Given/When/Then from here.
 */
import { AssertionError } from 'node:assert';
import { Given as CucumberGiven, Then as CucumberThen, When as CucumberWhen } from '@cucumber/cucumber';
import {
  DEVIATION_PREFIX,
  FINDING_MEDIA_TYPE,
  NOT_APPLICABLE_MEDIA_TYPE,
  WARNING_MEDIA_TYPE,
  warningLine,
  type Finding,
  type FindingExchange,
  type Warning,
} from '../../src/report/findings.ts';
import { PrerequisiteRefused } from '../../src/report/prerequisite-refusal.ts';
import type { RuleId } from '../../src/rules/book.ts';
import { warnedUnder } from '../../src/rules/severity.ts';

/**
 * An expectation: what was checked, what was expected and what came, and the rule of the book it is
 * (none: the spec, as the step says). The rule's basis and assumptions decide a miss's severity.
 */
export interface Expectation {
  readonly check: string;
  readonly expected: string;
  readonly actual: string;
  readonly rule?: RuleId | undefined;
  /** Shown with a failure: the (redacted) answer, the clause. */
  readonly detail?: string | undefined;
  /**
   * The gateway profile's key that declares this departure from the spec (src/suite/profile.ts,
   * profileDeviations): a warning under "profile <key>", even with --strict, never a silent pass.
   */
  readonly deviation?: string | undefined;
  /**
   * What a miss means, for its cause (src/report/causes.ts): `refused-met` for a check of how the gateway
   * refused (a status, the error code, the field it named), `accepted-wrong` for a refusal expected and a 2xx
   * answered; `answered-wrong` (the default) for any other.
   */
  readonly kind?: 'refused-met' | 'accepted-wrong' | undefined;
  /** The error code the check expected, where it expected one. */
  readonly expectedCode?: string | undefined;
  /** The exchange the check judged: its operation, status and error code. */
  readonly exchange?: FindingExchange | undefined;
}

/** What a step needs of its World to judge. */
export interface Judge {
  /** The scenario's premise assumptions (its @A-n tags); empty for a scenario the spec states. */
  readonly premise: readonly string[];
  /** Assumption misses fail: the embedded mock or --strict. */
  readonly strict: boolean;
  attach(data: string, mediaType: string): void | Promise<void>;
  /** Text with the run's secrets and card data redacted (report/redact.ts): a failure's message is shown too. */
  redact?(text: string): string;
  /** Set once the scenario is over (premise missed, or not applicable): later steps are skipped. */
  ended: boolean;
  /** The exchange a finding shows when a step throws: the scenario's last. */
  lastSeen?(): FindingExchange | undefined;
}

/** Thrown to end a scenario without failing it; the step wrapper turns it into cucumber's 'skipped'. */
class ScenarioEnded extends Error {}

/** Failures whose finding is attached already: the step wrapper records any other error it sees. */
const recorded = new WeakSet<Error>();

/** Attaches the finding, then gives back the failure to throw. */
function failed(judge: Judge, finding: Finding, failure: Error): Error {
  void judge.attach(JSON.stringify(finding), FINDING_MEDIA_TYPE);
  recorded.add(failure);
  return failure;
}

const findingOf = (e: Expectation): Finding => ({
  kind: e.kind ?? 'answered-wrong',
  rule: e.rule,
  check: e.check,
  expected: e.expected,
  actual: e.actual,
  expectedCode: e.expectedCode,
  exchange: e.exchange,
});

/** Records what a step threw as its finding, unless the failure recorded its own (a missed expectation). */
export function recordThrown(judge: Judge, err: unknown): void {
  if (err instanceof Error && recorded.has(err)) return;
  void judge.attach(JSON.stringify(thrownFinding(err, judge.lastSeen?.())), FINDING_MEDIA_TYPE);
}

/**
 * What a step threw, as a finding: a refused prerequisite with its exchange; else untraced, under the
 * error's first line (its numbers as N, so that one check's failures group as one cause) and the last exchange.
 */
function thrownFinding(err: unknown, last: FindingExchange | undefined): Finding {
  if (err instanceof PrerequisiteRefused)
    return {
      kind: 'refused-met',
      check: `${err.operation} needs ${err.needed} from ${err.prerequisite.operation}`,
      expected: `${err.prerequisite.operation} accepted`,
      actual: String(err.prerequisite.status),
      exchange: err.prerequisite,
      prerequisite: { operation: err.prerequisite.operation, status: err.prerequisite.status },
    };
  const words = err instanceof Error ? err.message : String(err);
  const check = (words.split('\n')[0] ?? '').replace(/\d+/g, 'N').slice(0, 120);
  return { kind: 'untraced', check, expected: '', actual: '', exchange: last };
}

/**
 * Judges one expectation: nothing when `met`; otherwise a failure (spec, or strict) or a warning.
 * Returns whether it was met, so a step can stop looking at an answer that already differs.
 */
export function expectThat(judge: Judge, met: boolean, e: Expectation): boolean {
  if (met) return true;
  if (e.deviation !== undefined) {
    void judge.attach(
      JSON.stringify({
        assumption: `${DEVIATION_PREFIX}${e.deviation}`,
        check: e.check,
        expected: e.expected,
        actual: e.actual,
        rule: e.rule,
      } satisfies Warning),
      WARNING_MEDIA_TYPE,
    );
    return false;
  }
  // The rule's own assumptions (the book's), else the scenario's premise; neither: the spec's.
  const own = e.rule === undefined ? undefined : warnedUnder(e.rule);
  const assumption = own ?? (judge.premise.length ? judge.premise.join(', ') : undefined);
  if (assumption === undefined)
    throw failed(
      judge,
      findingOf(e),
      new AssertionError({
        message:
          `${e.check}: expected ${e.expected}, got ${e.actual}${e.rule ? ` (rule ${e.rule})` : ''} (the spec)` +
          (e.detail ? `\n${e.detail}` : ''),
      }),
    );
  const warning: Warning = { assumption, check: e.check, expected: e.expected, actual: e.actual, rule: e.rule };
  if (judge.strict)
    throw failed(
      judge,
      findingOf(e),
      new AssertionError({
        message: `${warningLine(warning)} (an assumption: docs/assumptions.md; a failure against the embedded mock or with --strict)${e.detail ? `\n${e.detail}` : ''}`,
      }),
    );
  void judge.attach(JSON.stringify(warning), WARNING_MEDIA_TYPE);
  // Only the premise ends a scenario: a check with an assumption of its own (an error code, an
  // answer's fields) is a warning wherever it is, and the scenario goes on.
  if (own === undefined) {
    judge.ended = true;
    throw new ScenarioEnded(warningLine(warning));
  }
  return false;
}

/** Records that the scenario does not apply to this gateway, with the reason the report shows; its steps are skipped. */
export function recordNotApplicable(judge: Judge, reason: string): void {
  void judge.attach(JSON.stringify({ reason }), NOT_APPLICABLE_MEDIA_TYPE);
  judge.ended = true;
}

/** Ends the scenario, from inside a step, as not applicable to this gateway. */
export function notApplicable(judge: Judge, reason: string): never {
  recordNotApplicable(judge, reason);
  throw new ScenarioEnded(reason);
}

/**
 * A step's code: its World and its arguments are cucumber's to give (a World of the steps' own type,
 * the pattern's parameters), so the type takes any step function and the wrapper only passes them on.
 */
type StepBody = (this: never, ...args: never[]) => unknown;

/** A step's error with what cucumber shows of it (message, stack, an assertion's values) redacted. */
function redactedError(judge: Judge, err: unknown): unknown {
  const redact = (text: string): string => judge.redact?.(text) ?? text;
  if (!(err instanceof Error)) return typeof err === 'string' ? redact(err) : err;
  const shown = err as Error & { actual?: unknown; expected?: unknown };
  shown.message = redact(shown.message);
  if (shown.stack !== undefined) shown.stack = redact(shown.stack);
  if (typeof shown.actual === 'string') shown.actual = redact(shown.actual);
  if (typeof shown.expected === 'string') shown.expected = redact(shown.expected);
  return err;
}

/** The step, skipped once its scenario has ended; cucumber reads the step's arity, so the wrapper keeps it. */
function guarded(body: StepBody): (this: Judge, ...args: unknown[]) => Promise<unknown> {
  const step = async function (this: Judge, ...args: unknown[]): Promise<unknown> {
    if (this.ended) return 'skipped';
    try {
      const result: unknown = Reflect.apply(body, this, args);
      return await result;
    } catch (err) {
      if (err instanceof ScenarioEnded) return 'skipped';
      recordThrown(this, err);
      throw redactedError(this, err);
    }
  };
  Object.defineProperty(step, 'length', { value: body.length });
  return step;
}

export const Given = (pattern: string, body: StepBody): void => CucumberGiven(pattern, guarded(body));
export const When = (pattern: string, body: StepBody): void => CucumberWhen(pattern, guarded(body));
export const Then = (pattern: string, body: StepBody): void => CucumberThen(pattern, guarded(body));
