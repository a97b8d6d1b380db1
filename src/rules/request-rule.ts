/**
 * A request rule declares the facts it needs and its check receives them typed (`With<F>`): the
 * runner (run.ts) skips a rule whose facts are missing, so a check never asserts that they are there.
 * Called directly (a broken gateway's replacement check calls the real one), the rule checks its facts
 * itself and throws an internal error, never a refusal, where a caller forgot one.
 */
import type { Endpoint } from '../catalogue/index.ts';
import { hasFacts, type RequestUnderTest, type With } from './request.ts';
import { skip, type Fact, type Outcome, type Rule } from './rule.ts';

/**
 * The catalogue rows a rule judges (a signature scheme's rules, its scheme's endpoints); elsewhere it skips
 * with `otherwise`, whatever is sent, so the mock leaves it out of a row's rules once (run.ts, rulesFor).
 */
export interface Applicability {
  readonly to: (endpoint: Endpoint) => boolean;
  readonly otherwise: string;
}

/** A request rule as written: its `needs` and the facts its check reads are one list. */
export type RequestRuleSpec<F extends Fact, Id extends string, C extends string> = Omit<
  Rule<With<F>, Id, C>,
  'needs' | 'check'
> & {
  readonly needs: readonly F[];
  readonly only?: Applicability;
  check(req: With<F>): Outcome;
};

/** A request rule as the book holds it: any request in, its facts checked before its check runs. */
export type CheckedRequestRule<Id extends string, C extends string> = Rule<RequestUnderTest, Id, C> & {
  readonly needs: readonly Fact[];
  readonly only?: Applicability;
  /** The check for a runner that has found the rule's `needs` there itself (run.ts): they are not looked up twice. */
  readonly checkFound: (req: With<Fact>) => Outcome;
};

export function requestRule<F extends Fact, Id extends string, C extends string = never>(
  spec: RequestRuleSpec<F, Id, C>,
): CheckedRequestRule<Id, C> {
  const { only } = spec;
  const checkFound = (req: With<F>): Outcome => {
    const match = only === undefined ? undefined : req.match;
    return only !== undefined && match !== undefined && !only.to(match.endpoint)
      ? skip(only.otherwise)
      : spec.check(req);
  };
  return {
    ...spec,
    checkFound,
    check(req: RequestUnderTest): Outcome {
      if (!hasFacts(req, spec.needs))
        throw new Error(`internal: rule ${spec.id} was run without ${spec.needs.join(', ')}`);
      return checkFound(req);
    },
  };
}
