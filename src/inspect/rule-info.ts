/** The book's description of a rule inspect reports on: title, clause, basis and fix come from there alone. */
import { RULE_BY_ID, type RuleId, type RuleInfo } from '../rules/book.ts';

export function ruleOf(id: RuleId): RuleInfo {
  const rule = RULE_BY_ID.get(id);
  if (rule === undefined) throw new Error(`the rule book has no rule ${id}`);
  return rule;
}
