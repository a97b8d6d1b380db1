/**
 * A scenario that failed before its own request was sent: the gateway refused the set-up request
 * (the SALE before a STATUS) that makes the id it acts on. The client throws PrerequisiteRefused with
 * the refusal as data; the step records it as its finding, and the certification page's "Fix:" points
 * at the prerequisite, not the request.
 */
import { withArticle } from '../article.ts';
import { PayconformError } from '../errors.ts';
import type { FindingExchange } from './findings.ts';

/** The failure's message: the operation, the field it needed, and what the prerequisite answered. */
export function prerequisiteRefusalMessage(
  operation: string,
  field: string,
  prerequisite: string,
  status: number,
  answer: string,
): string {
  return `${operation} needs ${withArticle(field)} from ${prerequisite}, which answered ${status}: ${answer}`;
}

/** The set-up request was refused: its exchange (operation, status, error code), for the step's finding. */
export class PrerequisiteRefused extends PayconformError {
  constructor(
    readonly operation: string,
    readonly needed: string,
    readonly prerequisite: FindingExchange,
    answer: string,
  ) {
    super('ERR_IO', prerequisiteRefusalMessage(operation, needed, prerequisite.operation, prerequisite.status, answer));
  }
}

/** The fix the certification page gives such a failure. */
export const prerequisiteFix = (p: { operation: string; status: number }): string =>
  `the prerequisite ${p.operation} was refused (it answered ${p.status}): fix that first; this scenario's own ` +
  `request was never sent, and its ${p.operation} scenarios say why`;
