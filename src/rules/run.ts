/**
 * Running request rules: in order, each rule whose facts are there (an earlier failure can leave
 * none), stopping at the first failure (the mock) or judging every rule (inspect). A broken gateway
 * replaces or switches off rules by id (src/mock/defects.ts); the rules themselves never know.
 */
import type { Endpoint } from '../catalogue/index.ts';
import type { RefusalCode, RequestRuleId } from './book.ts';
import { hasFact, type RequestUnderTest } from './request.ts';
import type { Applicability } from './request-rule.ts';
import { skip, type Evidence, type Fact, type Outcome, type Rule } from './rule.ts';

export type RequestRule = Rule<RequestUnderTest, RequestRuleId, RefusalCode> & { readonly only?: Applicability };

/** What a broken gateway does instead of a rule's check: its own check, or nothing ('off'). */
export type Bent = ReadonlyMap<string, ((req: RequestUnderTest) => Outcome) | 'off'>;

export interface Judgement {
  readonly rule: RequestRule;
  readonly outcome: Outcome;
}

const NOT_REACHED: Record<Fact, string> = {
  endpoint: 'not reached: the path names no catalogue endpoint',
  form: 'not reached: the body is not a well-formed form',
  merchant: "not reached: the endpoint id is no merchant's",
};

function judge(rule: RequestRule, req: RequestUnderTest, bent: Bent | undefined): Outcome {
  const missing = rule.needs?.find((fact) => !hasFact(req, fact));
  if (missing !== undefined) return skip(NOT_REACHED[missing]);
  const replacement = bent?.get(rule.id);
  if (replacement === 'off') return skip('switched off (a deliberately broken gateway)');
  return (replacement ?? rule.check)(req);
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
