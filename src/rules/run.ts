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

function judge(rule: RequestRule, req: RequestUnderTest, bent: Bent | undefined): Outcome {
  const needs = rule.needs ?? NO_NEEDS;
  if (!hasFacts(req, needs)) return NOT_REACHED[firstMissing(req, needs)];
  const replacement = bent?.get(rule.id);
  if (replacement === 'off') return skip('switched off (a deliberately broken gateway)');
  if (replacement !== undefined) return replacement(req);
  // The facts were found here: the rule's own look-up of them would be the same work again.
  return rule.checkFound === undefined ? rule.check(req) : rule.checkFound(req);
}

/** Every rule's outcome, in order (inspect). */
export function judgeRequest(rules: readonly RequestRule[], req: RequestUnderTest, bent?: Bent): Judgement[] {
  return rules.map((rule) => ({ rule, outcome: judge(rule, req, bent) }));
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
  for (const rule of bent === undefined && match !== undefined ? rulesFor(rules, match.endpoint) : rules) {
    const outcome = judge(rule, req, bent);
    if (outcome.outcome === 'fail') return { rule, evidence: outcome.evidence };
  }
  return undefined;
}
