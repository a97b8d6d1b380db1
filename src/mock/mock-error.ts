/**
 * A refusal of the mock: an HTTP status, a stable error code and a message naming the field or
 * rule, sent as a ValidationErrorResponse (4xx) or ServerErrorResponse (500) body. Every code is a
 * rule's refusal in the rule book (src/rules/book.ts), except SERVER_ERROR, the mock's own fault.
 * Statuses are in docs/assumptions.md A-21.
 */
import type { RefusalCode } from '../rules/book.ts';
import { refusalOf, type Evidence, type Rule } from '../rules/rule.ts';

export type MockErrorCode = RefusalCode | 'SERVER_ERROR';

export class MockError extends Error {
  constructor(
    readonly status: number,
    readonly code: MockErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'MockError';
  }
}

/** The refusal of a rule whose check failed with this evidence. */
export function refusal(rule: Rule<never, string, RefusalCode>, evidence: Evidence): MockError {
  const { status, code } = refusalOf(rule, evidence)!;
  return new MockError(status, code, evidence.message, evidence.field);
}
