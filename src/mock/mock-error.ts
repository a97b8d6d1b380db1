/**
 * A refusal of the mock: an HTTP status, a stable error code and a message naming the field or
 * rule, sent as a ValidationErrorResponse (4xx) or ServerErrorResponse (500) body. Every code is a
 * rule's refusal in the rule book (src/rules/book.ts), except SERVER_ERROR, the mock's own fault.
 * Statuses are in docs/assumptions.md A-21.
 */
import { PayconformError } from '../errors.ts';
import type { RefusalCode } from '../rules/book.ts';
import { refusalOf, type Evidence, type Rule } from '../rules/rule.ts';
import type { MockAnswer } from './seams.ts';

export type MockErrorCode = RefusalCode | 'SERVER_ERROR';

/** A refusal is an error of the one root (src/errors.ts), with the HTTP status the mock answers. */
export class MockError extends PayconformError<MockErrorCode> {
  constructor(
    readonly status: number,
    code: MockErrorCode,
    message: string,
    field?: string,
  ) {
    super(code, message, field === undefined ? {} : { field });
    this.name = 'MockError';
  }
}

/** The refusal of a rule whose check failed with this evidence; a rule without one is the mock's own fault. */
export function refusal(rule: Rule<never, string, RefusalCode>, evidence: Evidence): MockError {
  const refused = refusalOf(rule, evidence);
  if (refused === undefined) return new MockError(500, 'SERVER_ERROR', `rule ${rule.id} has no refusal to answer`);
  return new MockError(refused.status, refused.code, evidence.message, evidence.field);
}

/** The answer to the mock's own fault: never a client's mistake. */
export const internalErrorAnswer = (serialNumber: string): MockAnswer => ({
  status: 500,
  body: {
    type: 'error',
    'error-code': 'SERVER_ERROR',
    'error-message': 'internal error of the mock gateway',
    'serial-number': serialNumber,
  },
});
