/**
 * Running request rules: in order, each rule whose facts are there (an earlier failure can leave
 * none), stopping at the first failure (the mock) or judging every rule (inspect). A broken gateway
 * replaces or switches off rules by id (src/mock/defects.ts); the rules themselves never know.
 */
import type { Endpoint } from '../catalogue/index.ts';
import type { RefusalCode, RequestRuleId } from './book.ts';
import { hasFact, hasFacts, type RequestUnderTest, type With } from './request.ts';
import type { Applicability } from './request-rule.ts';
import { skip, type Evidence, type Fact, type Outcome, type Rule } from './rule.ts';

export type RequestRule = Rule<RequestUnderTest, RequestRuleId, RefusalCode> & {
  readonly only?: Applicability;
  /** A rule written with `needs` (request-rule.ts): its check once the runner has found them. */
  readonly checkFound?: (req: With<Fact>) => Outcome;
};

/** What a broken gateway does instead of a rule's check: its own check, or nothing ('off'). */
export type Bent = ReadonlyMap<string, ((req: RequestUnderTest) => Outcome) | 'off'>;

export interface Judgement {
  readonly rule: RequestRule;
  readonly outcome: Outcome;
}

const NOT_REACHED: Record<Fact, Outcome> = {
  endpoint: skip('not reached: the path names no catalogue endpoint'),
  form: skip('not reached: the body is not a well-formed form'),
  merchant: skip("not reached: the endpoint id is no merchant's"),
};
const NO_NEEDS: readonly Fact[] = [];

/** The first fact of `needs` the request lacks (the rule is not reached for want of it). */
function firstMissing(req: RequestUnderTest, needs: readonly Fact[]): Fact {
  for (const fact of needs) if (!hasFact(req, fact)) return fact;
  throw new Error('internal: no fact is missing');
}

/**
 * A rule as the runner calls it, in one shape for every rule: read off a dozen rules of as many shapes per request (the
 * mock's), a rule's `needs` and its check were megamorphic reads.
 */
interface Runnable {
  readonly rule: RequestRule;
  readonly needs: readonly Fact[];
  /** The facts were found by the runner: a rule's own look-up of them would be the same work again. */
  readonly check: (req: With<Fact>) => Outcome;
}

const runnable = (rule: RequestRule): Runnable => ({
  rule,
  needs: rule.needs ?? NO_NEEDS,
  check: rule.checkFound ?? ((req) => rule.check(req)),
});

const runnables = new WeakMap<readonly RequestRule[], readonly Runnable[]>();

/** The rules as the runner calls them, made once per list. */
function runnablesOf(rules: readonly RequestRule[]): readonly Runnable[] {
  let found = runnables.get(rules);
  if (found === undefined) runnables.set(rules, (found = rules.map(runnable)));
  return found;
}

function judge({ rule, needs, check }: Runnable, req: RequestUnderTest, bent: Bent | undefined): Outcome {
  if (!hasFacts(req, needs)) return NOT_REACHED[firstMissing(req, needs)];
  const replacement = bent?.get(rule.id);
  if (replacement === 'off') return skip('switched off (a deliberately broken gateway)');
  if (replacement !== undefined) return replacement(req);
  return check(req);
}

/** Every rule's outcome, in order (inspect). */
export function judgeRequest(rules: readonly RequestRule[], req: RequestUnderTest, bent?: Bent): Judgement[] {
  return runnablesOf(rules).map((r) => ({ rule: r.rule, outcome: judge(r, req, bent) }));
}

const byRow = new WeakMap<readonly RequestRule[], Map<Endpoint, readonly RequestRule[]>>();

/** The rules that can judge a request to this catalogue row, worked out once per row: the others skip there. */
export function rulesFor(rules: readonly RequestRule[], endpoint: Endpoint): readonly RequestRule[] {
  let rows = byRow.get(rules);
  if (rows === undefined) byRow.set(rules, (rows = new Map<Endpoint, readonly RequestRule[]>()));
  let judging = rows.get(endpoint);
  if (judging === undefined) rows.set(endpoint, (judging = rules.filter((r) => r.only?.to(endpoint) ?? true)));
  return judging;
}

/**
 * The first rule that fails and its evidence, or undefined (the mock, which refuses with it). A rule that cannot
 * apply to the request's row is not run (it would skip); a broken gateway's bent rules run as they are.
 */
export function firstFailure(
  rules: readonly RequestRule[],
  req: RequestUnderTest,
  bent?: Bent,
): { readonly rule: RequestRule; readonly evidence: Evidence } | undefined {
  const match = req.match;
  for (const r of runnablesOf(bent === undefined && match !== undefined ? rulesFor(rules, match.endpoint) : rules)) {
    const outcome = judge(r, req, bent);
    if (outcome.outcome === 'fail') return { rule: r.rule, evidence: outcome.evidence };
  }
  return undefined;
}
