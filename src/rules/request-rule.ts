/**
 * A request rule declares the facts it needs and its check receives them typed (`With<F>`): the
 * runner (run.ts) skips a rule whose facts are missing, so a check never asserts that they are there.
 * Called directly (a broken gateway's replacement check calls the real one), the rule checks its facts
 * itself and throws an internal error, never a refusal, where a caller forgot one.
 */
import { hasFacts, type RequestUnderTest, type With } from './request.ts';
import type { Fact, Outcome, Rule } from './rule.ts';

/** A request rule as written: its `needs` and the facts its check reads are one list. */
export type RequestRuleSpec<F extends Fact, Id extends string, C extends string> = Omit<
  Rule<With<F>, Id, C>,
  'needs' | 'check'
> & {
  readonly needs: readonly F[];
  check(req: With<F>): Outcome;
};

/** A request rule as the book holds it: any request in, its facts checked before its check runs. */
export type CheckedRequestRule<Id extends string, C extends string> = Rule<RequestUnderTest, Id, C> & {
  readonly needs: readonly Fact[];
};

export function requestRule<F extends Fact, Id extends string, C extends string = never>(
  spec: RequestRuleSpec<F, Id, C>,
): CheckedRequestRule<Id, C> {
  return {
    ...spec,
    check(req: RequestUnderTest): Outcome {
      if (!hasFacts(req, spec.needs))
        throw new Error(`internal: rule ${spec.id} was run without ${spec.needs.join(', ')}`);
      return spec.check(req);
    },
  };
}
