/**
 * What a rule is: one check of the spec (or of an assumption where the spec is silent), with its
 * stable id, the clause it rests on, its basis, what a gateway answers when it refuses, the fix a
 * developer needs, and a `check` that passes or returns evidence. The OpenID conformance suite's
 * conditions are the model: the check knows nothing of who runs it. The mock runs the rules to the
 * first failure and answers with its refusal; inspect runs them all and reports each.
 */

import type { AssumptionId } from './assumption-ids.ts';

/** `spec`: the spec states the rule. `assumption`: the spec is silent and docs/assumptions.md decides (A-n). */
export type Basis = 'spec' | 'assumption';

/** The HTTP status and error code the mock answers with when the rule fails (docs/assumptions.md A-21). */
export interface Refusal<C extends string = string> {
  readonly status: number;
  readonly code: C;
}

/** What a failed check saw: one line for people, and where it helps, what was expected and what came. */
export interface Evidence {
  /** One line naming the field and the rule; never a secret. */
  readonly message: string;
  /** The field the failure is about (a form field, a header, oauth_* parameter). */
  readonly field?: string | undefined;
  readonly expected?: string | undefined;
  readonly actual?: string | undefined;
  /** Which of the rule's refusal codes applies, where a rule has more than one (the first by default). */
  readonly code?: string | undefined;
  /** Anything more a report can show (a signature diagnosis, …). */
  readonly detail?: unknown;
}

/** `endpoint`: the catalogue row; `form`: the decoded form fields; `merchant`: the owner of the endpoint id. */
export type Fact = 'endpoint' | 'form' | 'merchant';

export type Outcome =
  | { readonly outcome: 'pass' }
  | { readonly outcome: 'fail'; readonly evidence: Evidence }
  /** The rule does not apply to this request, or what it needs was not there (an earlier rule failed). */
  | { readonly outcome: 'skip'; readonly reason: string };

export interface Rule<In, Id extends string = string, C extends string = string> {
  readonly id: Id;
  /** A few words for reports. */
  readonly title: string;
  /** Where the rule comes from: a part of docs/spec/api-spec.md, and the assumption ids it relies on. */
  readonly clause: string;
  readonly basis: Basis;
  /**
   * The assumptions of docs/assumptions.md it rests on. With basis 'assumption' a miss is a warning under
   * these ids against a gateway (a failure against the mock or with --strict); with 'spec' a failure.
   */
  readonly assumptions: readonly AssumptionId[];
  /** What the mock answers when the rule fails; empty for rules only inspect judges (merchant habits). */
  readonly refusals: readonly Refusal<C>[];
  /** What to change when the check fails. */
  readonly hint: string;
  /**
   * Where a sender that misses the rule fixes it: its configuration (the credentials, endpoint ids and base URL
   * it was given) rather than its code, the default. Decides who must act on a failure's cause (report/causes.ts).
   */
  readonly fixedIn?: 'configuration';
  /**
   * `critical`: a miss leaks a secret (the control key sent): reports list it before every other finding and mark
   * it so. A rule without it is judged by its basis alone (severity.ts).
   */
  readonly severity?: 'critical';
  /** Facts of the request the check reads; where one is missing (an earlier rule failed) the rule is not reached. */
  readonly needs?: readonly Fact[];
  check(input: In): Outcome;
}

export const PASS: Outcome = Object.freeze({ outcome: 'pass' });

export function fail(message: string, extra: Omit<Evidence, 'message'> = {}): Outcome {
  return { outcome: 'fail', evidence: { message, ...extra } };
}

const skips = new Map<string, Outcome>();

/** A skip; the same reason gives the same frozen object (the mock judges many requests a second). */
export function skip(reason: string): Outcome {
  let outcome = skips.get(reason);
  if (outcome === undefined && skips.size < 1000)
    skips.set(reason, (outcome = Object.freeze({ outcome: 'skip', reason })));
  return outcome ?? { outcome: 'skip', reason };
}

/** The refusal a failure maps to: the code the evidence names, else the rule's first. */
export function refusalOf<C extends string>(rule: Rule<never, string, C>, evidence: Evidence): Refusal<C> | undefined {
  return rule.refusals.find((r) => r.code === evidence.code) ?? rule.refusals[0];
}
