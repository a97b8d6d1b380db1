/**
 * Habits of a merchant's integration that span requests: a client order id starts one
 * order, and a request is not sent again without asking the order's status first. A gateway cannot
 * refuse what it cannot tell from a lost answer, so only inspect judges these.
 */
import { OP, PREREQUISITES, type Operation } from '../catalogue/index.ts';
import { hasFacts, type RequestUnderTest, type With } from './request.ts';
import { requestRule } from './request-rule.ts';
import { fail, PASS, skip } from './rule.ts';
import type { AnswerOutcome } from './history.ts';

/** An operation that starts a new order rather than acting on an existing one (capture, void, …). */
export const startsOrder = (operation: Operation): boolean => PREREQUISITES[operation]?.field !== 'orderid';

/** The earlier start of this request's client order id (null: none), or why the habit does not apply. */
function earlierStart(
  req: With<'endpoint' | 'merchant'>,
): { readonly id: string; readonly earlier: { statusSince: boolean } | null } | string {
  const history = req.context.history;
  const id = req.clientOrderId;
  if (history === undefined) return 'no request history is kept here';
  if (id === undefined) return 'no client order id';
  if (!startsOrder(req.match.endpoint.operation)) return 'the operation acts on an existing order';
  return { id, earlier: history.earlier(req.merchant.login, id) ?? null };
}

export const orderIdUnique = requestRule({
  id: 'order-id-unique',
  title: 'client_orderid unique per merchant',
  clause: 'Identifiers: client_orderid "merchant-side order identifier"; A-30',
  basis: 'assumption',
  assumptions: ['A-30'],
  refusals: [],
  hint: 'Give every new order its own client_orderid.',
  needs: ['endpoint', 'form', 'merchant'],
  check(req) {
    const start = earlierStart(req);
    if (typeof start === 'string') return skip(start);
    return start.earlier === null
      ? PASS
      : fail(`client order id ${JSON.stringify(start.id.slice(0, 40))} was already used by this merchant`, {
          field: 'client_orderid',
        });
  },
});

export const noBlindRetry = requestRule({
  id: 'no-blind-retry',
  title: 'no retry without a status check',
  clause: 'Time-outs and retries "not shown": A-20, A-30 (a timed-out POST may have moved money)',
  basis: 'assumption',
  assumptions: ['A-20', 'A-30'],
  refusals: [],
  hint:
    'After a time-out, ask status for the order before sending it again; never resend a money-moving request ' +
    'blindly.',
  needs: ['endpoint', 'form', 'merchant'],
  check(req) {
    const start = earlierStart(req);
    if (typeof start === 'string') return skip(start);
    return start.earlier === null || start.earlier.statusSince
      ? PASS
      : fail('sent again with no status request for the order in between', { field: 'client_orderid' });
  },
});

/** Records what this request adds to the history, once every rule has judged it. */
export function recordHabits(req: RequestUnderTest): void {
  const { history } = req.context;
  const id = req.clientOrderId;
  // One narrowing of both: a merchant is found only through its endpoint, so a check of the row alone could never fail.
  if (history === undefined || id === undefined || !hasFacts(req, ['endpoint', 'merchant'])) return;
  const { operation } = req.match.endpoint;
  if (operation === OP.STATUS) history.statusAsked(req.merchant.login, id);
  else if (startsOrder(operation)) history.start(req.merchant.login, id);
}

/** Records how the request's exchange ended, once the listener knows (an answer relayed, or none). */
export function recordAnswer(req: RequestUnderTest, outcome: AnswerOutcome): void {
  const { history } = req.context;
  const id = req.clientOrderId;
  if (history === undefined || id === undefined || !hasFacts(req, ['endpoint', 'merchant'])) return;
  if (startsOrder(req.match.endpoint.operation)) history.answered(req.merchant.login, id, outcome);
}
