/**
 * Running request rules: in order, each rule whose facts are there (an earlier failure can leave
 * none), stopping at the first failure (the mock) or judging every rule (inspect). A broken gateway
 * replaces or switches off rules by id (src/mock/defects.ts); the rules themselves never know.
 */
import type { RefusalCode, RequestRuleId } from './book.ts';
import type { RequestUnderTest } from './request.ts';
import { skip, type Fact, type Outcome, type Rule } from './rule.ts';

export type RequestRule = Rule<RequestUnderTest, RequestRuleId, RefusalCode>;

/** What a broken gateway does instead of a rule's check: its own check, or nothing ('off'). */
export type Bent = ReadonlyMap<string, ((req: RequestUnderTest) => Outcome) | 'off'>;

export interface Judgement {
  readonly rule: RequestRule;
  readonly outcome: Outcome;
}

const NOT_REACHED: Record<Fact, string> = {
  endpoint: 'not reached: the path names no catalogue endpoint',
  form: 'not reached: the body is not a well-formed form',
  merchant: 'not reached: the endpoint id is no merchant\'s',
};

function has(req: RequestUnderTest, fact: Fact): boolean {
  if (fact === 'endpoint') return req.match !== undefined;
  if (fact === 'form') return req.params !== undefined;
  return req.merchant !== undefined;
}

export function judgeRequest(rules: readonly RequestRule[], req: RequestUnderTest, options: { readonly firstFailure: boolean; readonly bent?: Bent | undefined }): Judgement[] {
  const judgements: Judgement[] = [];
  for (const rule of rules) {
    const missing = rule.needs?.find((fact) => !has(req, fact));
    const replacement = options.bent?.get(rule.id);
    const outcome = missing !== undefined ? skip(NOT_REACHED[missing])
      : replacement === 'off' ? skip('switched off (a deliberately broken gateway)')
        : (replacement ?? rule.check)(req);
    judgements.push({ rule, outcome });
    if (options.firstFailure && outcome.outcome === 'fail') break;
  }
  return judgements;
}

/** The first failure of a judgement, if any. */
export function firstFailure(judgements: readonly Judgement[]): (Judgement & { readonly outcome: { outcome: 'fail' } }) | undefined {
  return judgements.find((j) => j.outcome.outcome === 'fail') as (Judgement & { readonly outcome: { outcome: 'fail' } }) | undefined;
}
