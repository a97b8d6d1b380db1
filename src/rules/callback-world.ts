/**
 * Rules of the merchant's callback handler against the world (docs/callbacks.md, A-54..A-57): what inspect
 * --callback-checks plays after the hostile callbacks. Each is judged in two parts: the handler's answers,
 * and, where the shop told what it holds as paid (--callback-state), what the callbacks did to it. Where the
 * state was not asked, the rule says what of it could not be judged (`stateNotJudged`) instead of passing it.
 */
import { CALLBACK_ATTEMPTS, callbackWaitMinutes } from '../catalogue/index.ts';
import type { AssumptionId } from './assumption-ids.ts';
import type { HandlerAnswer } from './callbacks.ts';
import { fail, PASS, skip, type Outcome, type Rule } from './rule.ts';

/** What the shop held as paid for the order, in cents, before and after the check's callbacks; or why not known. */
export type PaidSeen =
  | { readonly before: bigint; readonly after: bigint }
  /** The state URL could not be read (its answer, a time-out): a finding, never a pass. */
  | { readonly unreadable: string }
  /** No --callback-state: only the answers are judged. */
  | undefined;

export interface WorldSeen {
  /** The handler's answer to each callback of the check (two for callbacks sent at the same moment). */
  readonly answers: readonly HandlerAnswer[];
  readonly paid: PaidSeen;
  /** The order's amount (and a chargeback's), in cents. */
  readonly amountCents: bigint;
  /** The order's final status. */
  readonly status: string;
}

/** A rule of the world, with the words for the part of it only the shop's state can judge. */
export interface WorldRule<Id extends string> extends Rule<WorldSeen, Id, never> {
  /** "booked once", …: said with "not judged, no --callback-state" when no state URL was given. */
  readonly statePart: string;
}

/** Cents as an amount: 2500n → "25.00", -2500n → "-25.00". */
export function amountOf(cents: bigint): string {
  const sign = cents < 0n ? '-' : '';
  const abs = cents < 0n ? -cents : cents;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

const CLAUSE =
  'Events, callbacks, notifications and their payloads: "not shown"; A-31 (the API family\'s callback) and ';

export const NO_STATE = 'not judged, no --callback-state';

const got = ({ status, error }: HandlerAnswer): string =>
  status !== undefined ? `answered ${status}` : `no answer (${error})`;

/** Every answer 200 (the gateway retries anything else), or the first that was not, said. */
function allTaken(answers: readonly HandlerAnswer[], what: string): Outcome {
  const bad = answers.find((a) => a.status !== 200);
  if (bad === undefined) return PASS;
  return fail(`${got(bad)} to ${what}; expected 200: the gateway sends it again and again until it gets 200`, {
    expected: '200',
    actual: got(bad),
  });
}

/** The state part: judged by `judge` when the shop's state was read, a finding when it could not be. */
function paidPart(paid: PaidSeen, judge: (before: bigint, after: bigint) => Outcome): Outcome {
  if (paid === undefined) return PASS;
  if ('unreadable' in paid)
    return fail(`paid: the shop's state could not be read (${paid.unreadable}), so this check cannot pass`, {
      field: 'paid',
      actual: paid.unreadable,
    });
  return judge(paid.before, paid.after);
}

const unchanged = (before: bigint, after: bigint, what: string): Outcome =>
  before === after
    ? PASS
    : fail(`paid: ${amountOf(before)} before ${what}, ${amountOf(after)} after; expected no change`, {
        field: 'paid',
        expected: amountOf(before),
        actual: amountOf(after),
      });

function worldRule<Id extends string>(
  id: Id,
  title: string,
  assumptions: readonly AssumptionId[],
  statePart: string,
  hint: string,
  check: (seen: WorldSeen) => Outcome,
): WorldRule<Id> {
  const clause = `${CLAUSE}${assumptions.join(', ')}`;
  return {
    id,
    title,
    basis: 'assumption',
    assumptions: ['A-31', ...assumptions],
    refusals: [],
    clause,
    hint,
    statePart,
    check,
  };
}

export const handlerHostileChangesNothing = worldRule(
  'callback-hostile-changes-nothing',
  'the hostile callbacks change nothing the shop holds as paid',
  ['A-57'],
  'nothing changed',
  'Refuse before you book: verify the control, then compare orderid, client_orderid and amount with your own ' +
    'order, and change nothing (answer 403, 404 or 409) when one differs.',
  ({ paid }) =>
    paid === undefined
      ? skip(`nothing changed: ${NO_STATE}`)
      : paidPart(paid, (before, after) => unchanged(before, after, 'the forged, other-amount and unknown callbacks')),
);

export const handlerDuplicateTogether = worldRule(
  'callback-duplicate-together',
  'two identical callbacks at the same moment, as the first delivery, are taken and booked once',
  ['A-54'],
  'booked once',
  'Make "already booked?" and "book" one atomic step keyed by (orderid, type): a unique key on the booking, ' +
    'an INSERT … ON CONFLICT DO NOTHING or SELECT … FOR UPDATE, never a check and then a later write; answer ' +
    '200 to both.',
  ({ answers, paid, amountCents, status }) => {
    const taken = allTaken(answers, 'one of two identical callbacks sent at the same moment');
    if (taken.outcome === 'fail') return taken;
    const expected = status === 'approved' ? amountCents : 0n;
    return paidPart(paid, (_, after) =>
      after === expected
        ? PASS
        : fail(
            `paid: ${amountOf(after)} after two identical ${status} callbacks at the same moment; expected ` +
              `${amountOf(expected)}${after === 2n * expected && expected !== 0n ? ': booked twice' : ''}`,
            { field: 'paid', expected: amountOf(expected), actual: amountOf(after) },
          ),
    );
  },
);

export const handlerLateStatusChangesNothing = worldRule(
  'callback-late-status',
  'a late callback with another final status is taken (200) and changes nothing',
  ['A-55'],
  'paid unchanged',
  'A final status is final: once an order is approved or declined, answer 200 to a later sale callback with ' +
    'another status and change nothing; a real change comes as its own transaction (reversal, chargeback).',
  ({ answers, paid, status }) => {
    const taken = allTaken(answers, `a late callback saying the ${status} order is otherwise`);
    if (taken.outcome === 'fail') return taken;
    return paidPart(paid, (before, after) => unchanged(before, after, 'the late callback'));
  },
);

export const handlerChargebackNotPayment = worldRule(
  'callback-chargeback-not-payment',
  'a chargeback is not booked as a new payment',
  ['A-56'],
  'paid not grown',
  'Read type before status: a callback with type=chargeback (or reversal) and status=approved means the ' +
    'money went back; book it against the order, never as a payment.',
  ({ paid }) => {
    if (paid === undefined) return skip(`paid not grown: ${NO_STATE}`);
    return paidPart(paid, (before, after) =>
      after <= before
        ? PASS
        : fail(
            `paid: ${amountOf(before)} before the chargeback, ${amountOf(after)} after: the chargeback was booked as ` +
              'a payment',
            { field: 'paid', expected: `at most ${amountOf(before)}`, actual: amountOf(after) },
          ),
    );
  },
);

export const handlerChargebackBooked = worldRule(
  'callback-chargeback-booked',
  'a chargeback is taken (200) and lowers what is paid by its amount',
  ['A-56'],
  'paid lowered by the chargeback',
  'Take the chargeback callback (200) and book it once, keyed by (orderid, type): what is paid for the order ' +
    'drops by its amount (stop the delivery, open the dispute).',
  ({ answers, paid, amountCents }) => {
    const taken = allTaken(answers, 'the chargeback callback');
    if (taken.outcome === 'fail') return taken;
    return paidPart(paid, (before, after) => {
      // Grown: the chargeback was booked as a payment, which callback-chargeback-not-payment fails; not twice.
      if (after > before) return skip('paid grew: judged by callback-chargeback-not-payment');
      return before - after === amountCents
        ? PASS
        : fail(
            `paid: ${amountOf(before)} before the chargeback of ${amountOf(amountCents)}, ${amountOf(after)} ` +
              `after; expected ${amountOf(before - amountCents)}` +
              (after === before ? ': the chargeback was ignored' : ''),
            { field: 'paid', expected: amountOf(before - amountCents), actual: amountOf(after) },
          );
    });
  },
);

/** The retry window: the waits between the gateway's attempts, in minutes (A-31: 20,479, about 14.2 days). */
export const RETRY_WINDOW_MINUTES = Array.from({ length: CALLBACK_ATTEMPTS - 1 }, (_, i) =>
  callbackWaitMinutes(i + 1),
).reduce((a, b) => a + b, 0);

export const handlerAfterWindow = worldRule(
  'callback-after-window',
  'the genuine callback after the retry window is taken (200) and changes nothing booked',
  ['A-57'],
  'nothing changed',
  'Never expire what a callback may still name: keep the order findable for the whole retry window (14 days) ' +
    'and beyond, answer 200 to its callback, and book nothing twice nor undo a later chargeback.',
  ({ answers, paid }) => {
    const taken = allTaken(
      answers,
      `the genuine callback as it comes after the retry window (${RETRY_WINDOW_MINUTES} min)`,
    );
    if (taken.outcome === 'fail') return taken;
    return paidPart(paid, (before, after) => unchanged(before, after, 'the callback after the retry window'));
  },
);
