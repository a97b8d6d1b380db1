/**
 * Rules of the merchant's customer-return handler (A-45, docs/callbacks.md): the page at redirect_url the payer's
 * browser posts the final redirect to (status, orderid, merchant_order, client_orderid, control). The family's Final
 * Redirect page signs it "to ensure that it is the gateway (and not a fraudster) that initiates the request" with the
 * callback's formula, and says it is not "the main source of information about transaction's final status": the
 * payer's own browser carries it, so the payer can edit it. A handler verifies control, shows the genuine return its
 * page, and refuses the others. inspect --return-checks plays them (src/inspect/return-checks.ts).
 */
import { fail, PASS, type Outcome, type Rule } from './rule.ts';

/** The public page of the final redirect: its fields, its control, and what the merchant may not rely on. */
export const FINAL_REDIRECT_PAGE = 'https://doc2.payneteasy.com/integration/API_commands/final_redirect.html';

/** What the handler answered to one return: its HTTP status and, for a 3xx, where it sent the browser. */
export interface ReturnAnswer {
  readonly status?: number | undefined;
  readonly location?: string | undefined;
  /** Why there is no status (a time-out, a socket error). */
  readonly error?: string | undefined;
}

/** A return's answer, judged beside the genuine return's (a hostile one may not be sent where the genuine one is). */
export interface ReturnSeen {
  readonly answer: ReturnAnswer;
  readonly genuine?: ReturnAnswer | undefined;
}

type ReturnRule<Id extends string> = Rule<ReturnSeen, Id, never>;

const CLAUSE =
  'Events, callbacks, notifications and their payloads: "not shown"; A-45 (the family\'s Final Redirect page, ' +
  `${FINAL_REDIRECT_PAGE})`;

const got = ({ status, location, error }: ReturnAnswer): string =>
  status === undefined
    ? `no answer (${error ?? 'none'})`
    : `answered ${status}${location === undefined ? '' : ` to ${location.slice(0, 100)}`}`;

const isRedirect = (status: number): boolean => status >= 300 && status < 400;

/** The page a redirect sends the browser to: its origin and path, the query aside (it names the order). */
function pageOf(location: string | undefined): string | undefined {
  if (location === undefined) return undefined;
  try {
    const url = new URL(location, 'http://the-shop.invalid/');
    return `${url.origin}${url.pathname}`;
  } catch {
    return location;
  }
}

function returnRule<Id extends string>(
  id: Id,
  title: string,
  hint: string,
  check: (seen: ReturnSeen) => Outcome,
): ReturnRule<Id> {
  return { id, title, basis: 'assumption', assumptions: ['A-45'], refusals: [], clause: CLAUSE, hint, check };
}

/**
 * A hostile return: a refusal (4xx, 5xx), or a redirect to another page than the genuine return's, passes; a 2xx
 * page, or a redirect to the genuine return's page (whatever order its query names), is how the handler answers a
 * return it took, and no answer proves nothing.
 */
function refusesHostile<Id extends string>(id: Id, title: string, why: string, hint: string): ReturnRule<Id> {
  return returnRule(id, title, hint, ({ answer, genuine }) => {
    const { status } = answer;
    if (status !== undefined && status >= 400) return PASS;
    const sameAsGenuine =
      status !== undefined &&
      isRedirect(status) &&
      genuine?.status !== undefined &&
      isRedirect(genuine.status) &&
      pageOf(genuine.location) === pageOf(answer.location);
    if (status !== undefined && isRedirect(status) && !sameAsGenuine) return PASS;
    const taken = sameAsGenuine ? ", the genuine return's page" : '';
    return fail(`${got(answer)}${taken}; expected a refusal (4xx) or another page than the genuine return's: ${why}`, {
      expected: "a refusal (4xx), or a redirect elsewhere than the genuine return's",
      actual: got(answer),
    });
  });
}

/** A genuine return: the payer is shown a page (2xx) or sent on to one (3xx). */
function takesGenuine<Id extends string>(id: Id, title: string, why: string, hint: string): ReturnRule<Id> {
  return returnRule(id, title, hint, ({ answer }) =>
    answer.status !== undefined && answer.status >= 200 && answer.status < 400
      ? PASS
      : fail(`${got(answer)}; expected a page (2xx) or a redirect (3xx): ${why}`, {
          expected: '2xx or 3xx',
          actual: got(answer),
        }),
  );
}

export const returnRefusesForgedControl = refusesHostile(
  'return-forged-control',
  'a customer return with a forged control is not taken',
  'the return comes through the payer\'s browser: anyone can post "approved" to redirect_url, and only the ' +
    'control proves the gateway wrote it',
  'Compute SHA-1(status + orderid + client_orderid + merchant control key), compare it with control in constant ' +
    'time, and answer 403 (change nothing, show no "paid" page) when it differs; then ask status for the order ' +
    'before you book it (the return is not the main source of the final status).',
);

export const returnRefusesOtherStatus = refusesHostile(
  'return-other-status',
  'a customer return whose status was changed is not taken',
  'the payer holds the return form and can turn "declined" into "approved" before it is posted; the control ' +
    'covers the status, so the changed return no longer matches it',
  'Verify control over the status as received (status + orderid + client_orderid + key), never over the status ' +
    'you expect; refuse with 403 when it differs, and take the final status from status (or the callback).',
);

export const returnRefusesUnknownOrder = refusesHostile(
  'return-unknown-order',
  'a correctly signed customer return for an order you never made is not taken',
  'a handler that shows "paid" for (or books) whatever order a return names confirms payments that do not exist',
  'Look the order up by client_orderid (and orderid); answer 404, changing nothing, when it is not yours.',
);

export const returnTakesGenuine = takesGenuine(
  'return-genuine',
  'the genuine customer return is taken (a page or a redirect)',
  'the payer who paid lands on an error page, and an order the gateway approved may look failed to them',
  'Answer the verified return with your result page (200) or a redirect to it (303); read the fields from the ' +
    'POST body (the final redirect is a form POST), not the query.',
);

export const returnTakesGenuineAgain = takesGenuine(
  'return-genuine-again',
  'the same genuine customer return again is taken',
  'a browser posts the return again when the payer reloads or goes back: a handler that fails then shows an ' +
    'error for a paid order, or books it twice',
  'Make the handler idempotent: a return for an order already in that status shows the same page and changes ' +
    'nothing.',
);
