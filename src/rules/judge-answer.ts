/**
 * The one runner of the answer rules: every rule of ANSWER_RULES on one answer, its failures in book
 * order. The suite's client judges each answer with it; a step adds what only it knows (that a refusal
 * was expected, the order status read) and asks again, so no step restates a rule.
 */
import { ANSWER_RULES } from './book.ts';
import type { AnswerSeen } from './answers.ts';
import type { Evidence } from './rule.ts';

export type AnswerRule = (typeof ANSWER_RULES)[number];

export interface AnswerFinding {
  readonly rule: AnswerRule;
  readonly evidence: Evidence;
}

export function judgeAnswer(seen: AnswerSeen): AnswerFinding[] {
  return ANSWER_RULES.flatMap((rule) => {
    const outcome = rule.check(seen);
    return outcome.outcome === 'fail' ? [{ rule, evidence: outcome.evidence }] : [];
  });
}

/** The failure of one rule on this answer, if it fails (a step's expectation that names it). */
export function answerFailure(seen: AnswerSeen, id: AnswerRule['id']): Evidence | undefined {
  return judgeAnswer(seen).find((f) => f.rule.id === id)?.evidence;
}
