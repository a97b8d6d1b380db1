/**
 * Habits of a merchant's integration that span requests: a client order id
 * starts one order, and after an answer that says nothing (lost, or a 5xx) the next request about the
 * order asks its status. A gateway cannot refuse what it cannot tell from a lost answer, so only
 * inspect judges these.
 */
import { OP, PREREQUISITES, type Operation } from '../catalogue/index.ts';
import { hasFacts, type RequestUnderTest, type With } from './request.ts';
import { requestRule } from './request-rule.ts';
import { fail, PASS, skip } from './rule.ts';
import {
  outcomeUnknown,
  outcomeWords,
  refused,
  type AnswerOutcome,
  type OrderHistory,
  type RequestKind,
} from './history.ts';
import { paymentOf } from './payment.ts';

/** An operation that starts a new order rather than acting on an existing one (capture, void, …). */
export const startsOrder = (operation: Operation): boolean => PREREQUISITES[operation]?.field !== 'orderid';

/** What a request does to its order: asks its status, starts it, or acts on it. */
export const kindOf = (operation: Operation): RequestKind =>
  operation === OP.STATUS ? 'status' : startsOrder(operation) ? 'start' : 'acts';

/** The history a habit judges by and the request's client order id, or why no habit applies to it. */
export function habitSubject(req: RequestUnderTest): { readonly history: OrderHistory; readonly id: string } | string {
  const history = req.context.history;
  const id = req.clientOrderId;
  if (history === undefined) return 'no request history is kept here';
  if (id === undefined) return 'no client order id';
  return { history, id };
}

/** The earlier start of this request's client order id (null: none), or why the habit does not apply. */
function earlierStart(req: With<'endpoint' | 'merchant'>) {
  const subject = habitSubject(req);
  if (typeof subject === 'string') return subject;
  if (!startsOrder(req.match.endpoint.operation)) return 'the operation acts on an existing order';
  return { id: subject.id, earlier: subject.history.earlier(req.merchant.login, subject.id) ?? null };
}

export const orderIdUnique = requestRule({
  id: 'order-id-unique',
  title: 'client_orderid unique per merchant',
  clause: 'Identifiers: client_orderid "merchant-side order identifier"; A-30, A-59',
  basis: 'assumption',
  assumptions: ['A-30', 'A-59'],
  refusals: [],
  hint: 'Give every new order its own client_orderid.',
  needs: ['endpoint', 'form', 'merchant'],
  check(req) {
    const start = earlierStart(req);
    if (typeof start === 'string') return skip(start);
    const { earlier } = start;
    // Every start of it refused (4xx: no order made, A-59) or ended unknown with nothing showing the order was made:
    // the id was not used up. A resend without asking status is no-blind-retry's finding.
    if (earlier === null || (earlier.told && !earlier.made)) return PASS;
    return fail(`client order id ${JSON.stringify(start.id.slice(0, 40))} was already used by this merchant`, {
      field: 'client_orderid',
    });
  },
});

export const noBlindRetry = requestRule({
  id: 'no-blind-retry',
  title: 'no retry without a status check',
  clause:
    'Time-outs and retries "not shown": A-20, A-30, A-58, A-59 (a timed-out or 5xx-answered POST may have moved money)',
  basis: 'assumption',
  assumptions: ['A-20', 'A-30', 'A-58', 'A-59'],
  refusals: [],
  hint:
    'After a time-out, a lost or cut answer or a 5xx, ask status for the order (its client_orderid) before sending ' +
    'anything else about it, and send it again only if status says the gateway has no such order; never resend a ' +
    'money-moving request blindly. A 4xx made no order: correct the request and send it again.',
  needs: ['endpoint', 'form', 'merchant'],
  check(req) {
    const subject = habitSubject(req);
    if (typeof subject === 'string') return skip(subject);
    const { history, id } = subject;
    const kind = kindOf(req.match.endpoint.operation);
    if (kind === 'status') return skip('a status request only reads the order: it may be sent again at any time');
    if (kind === 'acts') {
      const unknown = history.unknownOutcome(req.merchant.login, id);
      return unknown === undefined
        ? PASS
        : fail(
            `sent after the order's ${unknown.operation} request ended unknown (${outcomeWords(unknown.outcome)}), ` +
              'with no status request for the order in between',
            { field: 'client_orderid' },
          );
    }
    const earlier = history.earlier(req.merchant.login, id);
    const last = earlier?.lastAnswer;
    // A refusal made no order: the corrected request may be sent again under the same id.
    if (earlier === undefined || earlier.statusSince || (last !== undefined && refused(last))) return PASS;
    return fail(
      last !== undefined && outcomeUnknown(last)
        ? `sent again after ${outcomeWords(last)}, with no status request for the order in between`
        : 'sent again with no status request for the order in between',
      { field: 'client_orderid' },
    );
  },
});

/** Records what this request adds to the history, once every rule has judged it. */
export function recordHabits(req: RequestUnderTest): void {
  const { history } = req.context;
  const id = req.clientOrderId;
  // One narrowing of both: a merchant is found only through its endpoint, so a check of the row alone could never fail.
  if (history === undefined || id === undefined || !hasFacts(req, ['endpoint', 'merchant'])) return;
  const kind = kindOf(req.match.endpoint.operation);
  if (kind === 'status') history.statusAsked(req.merchant.login, id);
  else if (kind === 'start') history.start(req.merchant.login, id, paymentOf(req));
}

/** Records how the request's exchange ended, once the listener knows (an answer relayed, or none). */
export function recordAnswer(req: RequestUnderTest, outcome: AnswerOutcome): void {
  const { history } = req.context;
  const id = req.clientOrderId;
  if (history === undefined || id === undefined || !hasFacts(req, ['endpoint', 'merchant'])) return;
  const { operation } = req.match.endpoint;
  history.answered(req.merchant.login, id, operation, kindOf(operation), outcome);
}
