/**
 * A second order for one payment while the first one's outcome is unknown: after a
 * time-out, a lost answer or a 5xx, an integration that starts the same payment again under a new
 * client_orderid charges the card twice whenever the first order went through. Only inspect judges it.
 */
import { habitSubject, startsOrder } from './habits.ts';
import { outcomeWords } from './history.ts';
import { paymentOf } from './payment.ts';
import { requestRule } from './request-rule.ts';
import { fail, PASS, skip } from './rule.ts';

export const noNewOrderWhileUnknown = requestRule({
  id: 'no-new-order-while-unknown',
  title: 'no new order for a payment whose first order ended unknown',
  clause:
    'Time-outs and retries "not shown": A-58, A-60 (the same payment under a new client_orderid: a double charge)',
  basis: 'assumption',
  assumptions: ['A-58', 'A-60'],
  refusals: [],
  hint:
    "After a time-out, a lost answer or a 5xx, ask status for that order's client_orderid and act on what it says; " +
    'never start the same payment again under a new client_orderid while the first order may have gone through.',
  needs: ['endpoint', 'form', 'merchant'],
  check(req) {
    const subject = habitSubject(req);
    if (typeof subject === 'string') return skip(subject);
    const { history, id } = subject;
    if (!startsOrder(req.match.endpoint.operation)) return skip('the operation acts on an existing order');
    const payment = paymentOf(req);
    if (payment === undefined) return skip('no card in the request to tell one payment from another');
    const earlier = history.unresolvedStart(payment);
    // The same id again is a resend, no-blind-retry's to judge.
    if (earlier === undefined || earlier.clientOrderId === id) return PASS;
    return fail(
      `the same payment (amount, currency, card) was started as ${JSON.stringify(earlier.clientOrderId.slice(0, 40))}` +
        `, and ${outcomeWords(earlier.outcome)} with no status request for it since: a likely double charge`,
      { field: 'client_orderid' },
    );
  },
});
