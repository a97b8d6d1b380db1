/**
 * The severity of a rule's miss, from the book alone: a rule the spec states fails; one that rests
 * on assumptions is a warning under their ids against a gateway (a failure against the embedded mock
 * or with --strict, steps/support/verdict.ts). Call sites name the rule, never the assumption.
 */
import { RULE_BY_ID, type RuleId } from './book.ts';

/** The assumption ids a miss of rule `id` is a warning under ("A-17, A-18"), or undefined: the spec's, a failure. */
export function warnedUnder(id: RuleId): string | undefined {
  const rule = RULE_BY_ID.get(id);
  return rule?.basis === 'assumption' ? rule.assumptions.join(', ') : undefined;
}

/** Whether a miss of rule `id` leaks a secret: listed first and marked critical wherever it is reported. */
export function isCritical(id: RuleId): boolean {
  return RULE_BY_ID.get(id)?.severity === 'critical';
}
