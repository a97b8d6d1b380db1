/**
 * A scenario that failed before its own request was sent: the gateway refused the set-up request
 * (the SALE before a STATUS) that makes the id it acts on. The client writes the message, the
 * certification page reads it back, so that its "Fix:" points at the prerequisite, not the request.
 */
import { withArticle } from '../article.ts';

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

/** The prerequisite operation and its status when `message` says one was refused; undefined otherwise. */
export function refusedPrerequisiteOf(
  message: string,
): { readonly operation: string; readonly status: number } | undefined {
  const [, operation, status] = /needs an? \S+ from ([A-Z][A-Z0-9_]*), which answered (\d{3})\b/.exec(message) ?? [];
  return operation === undefined ? undefined : { operation, status: Number(status) };
}

/** The fix the certification page gives such a failure. */
export const prerequisiteFix = (p: { operation: string; status: number }): string =>
  `the prerequisite ${p.operation} was refused (it answered ${p.status}): fix that first; this scenario's own ` +
  `request was never sent, and its ${p.operation} scenarios say why`;
