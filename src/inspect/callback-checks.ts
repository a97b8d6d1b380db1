/**
 * inspect --callback-checks (docs/callbacks.md): for every order of the integration that reaches a
 * final status and carried server_callback_url, inspect plays the gateway against the merchant's
 * handler, hostile callbacks first, so a handler that marks an order paid on any callback is caught:
 * a forged control, a valid control with another amount, a correctly signed callback for an order
 * the merchant never made (none may be answered 2xx). Then the world as it misbehaves (callback-world.ts):
 * two identical genuine callbacks at the same moment as the first delivery, the genuine one twice more,
 * a late callback with another final status, a chargeback of an approved order, and the genuine one
 * after the retry window. With --callback-state the shop's paid amount judges what each did
 * (callback-state.ts); without it only the answers are, and each check says what was not judged. Each goes as
 * the public gateways send it, an HTTP GET with the fields added to the URL's own query (a POST where asked).
 */
import { createHash, randomInt } from 'node:crypto';
import { callbackPairs, type CallbackFacts } from '../signing/callback.ts';
import type { Pair } from '../signing/form-body.ts';
import { toCents } from '../signing/cents.ts';
import { DEFAULT_CALLBACK_METHOD, merchantUrl, type CallbackMethod } from '../catalogue/index.ts';
import { CALLBACK_HANDLER_RULES } from '../rules/book.ts';
import {
  handlerRefusesForgedControl,
  handlerRefusesOtherAmount,
  handlerRefusesUnknownOrder,
  handlerTakesGenuine,
  handlerTakesGenuineAgain,
  type HandlerAnswer,
} from '../rules/callbacks.ts';
import {
  amountOf,
  handlerAfterWindow,
  handlerChargebackBooked,
  handlerChargebackNotPayment,
  handlerDuplicateTogether,
  handlerHostileChangesNothing,
  handlerLateStatusChangesNothing,
  NO_STATE,
  type PaidSeen,
  type WorldRule,
} from '../rules/callback-world.ts';
import type { Outcome, Rule } from '../rules/rule.ts';
import {
  callbackHostAllowed,
  callbackTarget,
  NO_CALLBACK_TARGET,
  sendCallback,
  type SendOutcome,
} from '../gateway/callback-delivery.ts';
import { eventDelivery } from '../gateway/callback-events.ts';
import type { FinalOrder } from '../gateway/final-order.ts';
import { readPaid, type PaidState } from './callback-state.ts';
import { OrderPlayer } from './order-player.ts';

export type CallbackCheckId = (typeof CALLBACK_HANDLER_RULES)[number]['id'];

/** Another amount than the order's: a cent where the order is larger, a unit more where it is not. */
export function otherAmount(amount: string): string {
  let cents: bigint;
  try {
    cents = BigInt(toCents(amount));
  } catch {
    return '0.01';
  }
  return cents > 1n ? '0.01' : '1.00';
}

/** The callback's pairs with its control replaced by a digest under a key that is not the merchant's. */
function forged(facts: CallbackFacts, key: string): Pair[] {
  const fake = createHash('sha1')
    .update(`${facts.status}${facts.orderid}${facts.clientOrderId}payconform-forged-${key.length}`)
    .digest('hex');
  return callbackPairs(facts, key).map(([n, v]): Pair => [n, n === 'control' ? fake : v]);
}

/** The hostile callbacks, judged by their answers alone (callbacks.ts); the world's are played in OrderPlay. */
const HOSTILE = {
  'callback-forged-control': forged,
  'callback-other-amount': (facts: CallbackFacts, key: string) =>
    callbackPairs({ ...facts, amount: otherAmount(facts.amount) }, key),
  'callback-unknown-order': (facts: CallbackFacts, key: string) => {
    const id = String(randomInt(100_000_000, 999_999_999));
    return callbackPairs({ ...facts, orderid: `9${id}`, clientOrderId: `payconform-unknown-${id}` }, key);
  },
} as const;

/** A handler rule's outcome for one order; its title and fix are the book's (RULE_BY_ID). */
export interface CallbackCheckResult {
  readonly id: CallbackCheckId;
  /** `skip`: not played (no such event for this order), or judged by another rule; `message` says which. */
  readonly outcome: 'pass' | 'fail' | 'skip';
  /** The handler's HTTP status (of two callbacks at once: the first that was not 200, else 200). */
  readonly answered?: number;
  readonly error?: string;
  /** Why it failed or was skipped, with what was expected; absent on a pass. */
  readonly message?: string;
  /** The part of the rule that could not be judged and why ("booked once: not judged, no --callback-state"). */
  readonly notJudged?: string;
  /** What the shop held as paid before and after the check's callbacks (--callback-state). */
  readonly paid?: { readonly before: string; readonly after: string };
}

export interface CallbackRecord {
  readonly orderid: string;
  readonly clientOrderId: string;
  readonly status: string;
  /** Origin and path of the handler (no query). */
  readonly target: string;
  readonly at: string;
  readonly checks: readonly CallbackCheckResult[];
  readonly passed: boolean;
}

export interface CallbackCheckerSettings {
  /** Hosts besides loopback inspect may call. */
  readonly allowedHosts?: readonly string[];
  /** GET with the fields in the query (default, as the public gateways send callbacks), or POST. */
  readonly method?: CallbackMethod;
  /** Per callback, from connecting to the answer's last byte (default 5000 ms). */
  readonly timeoutMs?: number;
  /** The handler's answer bytes read (default 1 MiB); past them the connection is closed. */
  readonly maxAnswerBytes?: number;
  /** Before the first callback of an order, so the integration has stored the order's answer (default 300 ms). */
  readonly delayMs?: number;
  /** The shop's state (--callback-state): `GET URL?client_orderid=ID` answers `{"paid": "10.00"}`. */
  readonly stateUrl?: URL;
  /** Per state request (default 2000 ms). */
  readonly stateTimeoutMs?: number;
  readonly onRecord?: (record: CallbackRecord) => void;
}

const answeredOf = (answers: readonly SendOutcome[]): Pick<CallbackCheckResult, 'answered' | 'error'> => {
  const shown = answers.find((a) => a.status !== 200) ?? answers[0];
  return {
    ...(shown?.status === undefined ? {} : { answered: shown.status }),
    ...(shown?.error === undefined ? {} : { error: shown.error }),
  };
};

const resultOf = (id: CallbackCheckId, outcome: Outcome): Pick<CallbackCheckResult, 'id' | 'outcome' | 'message'> =>
  outcome.outcome === 'pass'
    ? { id, outcome: 'pass' }
    : { id, outcome: outcome.outcome, message: outcome.outcome === 'fail' ? outcome.evidence.message : outcome.reason };

export class CallbackChecker extends OrderPlayer<CallbackRecord> {
  constructor(private readonly settings: CallbackCheckerSettings = {}) {
    super(settings.onRecord);
  }

  protected async play(order: FinalOrder): Promise<void> {
    const { facts, callbackUrl } = order;
    const url = merchantUrl(callbackUrl);
    // Behind --upstream a sandbox may take what the mock refuses (merchant-urls, A-33): no callback can go there.
    if (!(url instanceof URL))
      return this.notPlayed(
        order,
        NO_CALLBACK_TARGET,
        'no http(s) URL',
        'not sent: the callback URL is no absolute http(s) URL',
      );
    const base = {
      orderid: facts.orderid,
      clientOrderId: facts.clientOrderId,
      status: facts.status,
      target: callbackTarget(url),
    };
    if (!callbackHostAllowed(url, this.settings.allowedHosts ?? []))
      return this.notPlayed(
        order,
        base.target,
        'host not allowed',
        `not sent: ${base.target} is not a loopback host; run the handler on this machine, or allow its ` +
          'host with --callback-hosts',
      );
    await new Promise((resolve) => setTimeout(resolve, this.settings.delayMs ?? 300));
    const checks = await new OrderPlay(url, order, this.settings, this.closing.signal).run();
    const ordered = CALLBACK_HANDLER_RULES.map(({ id }) => checks.get(id)).filter((c) => c !== undefined);
    this.keep({
      ...base,
      at: new Date().toISOString(),
      checks: ordered,
      passed: ordered.every((c) => c.outcome !== 'fail'),
    });
  }

  protected notPlayed({ facts }: FinalOrder, target: string, error: string, message: string): void {
    const { orderid, clientOrderId, status } = facts;
    const checks = CALLBACK_HANDLER_RULES.map(({ id }): CallbackCheckResult => ({
      id,
      outcome: 'fail',
      error,
      message,
    }));
    this.keep({ orderid, clientOrderId, status, target, at: new Date().toISOString(), checks, passed: false });
  }
}

/**
 * One order's callbacks, in the book's order: the hostile ones, then the world's. With a state URL, what the shop
 * holds as paid is read before the first callback and after each of the world's checks.
 */
class OrderPlay {
  private readonly checks = new Map<CallbackCheckId, CallbackCheckResult>();
  private readonly method: CallbackMethod;
  private readonly amountCents: bigint;

  constructor(
    private readonly url: URL,
    private readonly order: FinalOrder,
    private readonly settings: CallbackCheckerSettings,
    private readonly signal: AbortSignal,
  ) {
    this.method = settings.method ?? DEFAULT_CALLBACK_METHOD;
    this.amountCents = centsOf(order.facts.amount);
  }

  async run(): Promise<ReadonlyMap<CallbackCheckId, CallbackCheckResult>> {
    const { facts, merchant } = this.order;
    const key = merchant.merchantControlKey;
    const start = await this.paid();
    for (const rule of [handlerRefusesForgedControl, handlerRefusesOtherAmount, handlerRefusesUnknownOrder]) {
      const [answer] = await this.send([HOSTILE[rule.id](facts, key)]);
      this.judgeAnswer(rule, answer);
    }
    this.judgeWorld(handlerHostileChangesNothing, [], start, await this.paid());
    await this.world([handlerDuplicateTogether], [facts, facts], true);
    for (const rule of [handlerTakesGenuine, handlerTakesGenuineAgain]) {
      const [answer] = await this.send([callbackPairs(facts, key)]);
      this.judgeAnswer(rule, answer);
    }
    const late = eventDelivery('late', facts);
    if (typeof late !== 'string') await this.world([handlerLateStatusChangesNothing], late.callbacks, late.together);
    const chargeback = eventDelivery('chargeback', facts);
    if (typeof chargeback === 'string')
      for (const rule of [handlerChargebackNotPayment, handlerChargebackBooked])
        this.checks.set(rule.id, { id: rule.id, outcome: 'skip', message: `not played: ${chargeback}` });
    else await this.world([handlerChargebackNotPayment, handlerChargebackBooked], chargeback.callbacks, false);
    await this.world([handlerAfterWindow], [facts], false);
    return this.checks;
  }

  /** Sends the callbacks one after another, or all at the same moment. */
  private send(callbacks: readonly Pair[][], together = false): Promise<SendOutcome[]> {
    const one = (pairs: readonly Pair[]): Promise<SendOutcome> =>
      sendCallback(this.url, pairs, {
        method: this.method,
        timeoutMs: this.settings.timeoutMs ?? 5000,
        maxAnswerBytes: this.settings.maxAnswerBytes,
        signal: this.signal,
      });
    if (together) return Promise.all(callbacks.map(one));
    return callbacks.reduce<Promise<SendOutcome[]>>(
      async (earlier, pairs) => [...(await earlier), await one(pairs)],
      Promise.resolve([]),
    );
  }

  private judgeAnswer(
    rule: (typeof CALLBACK_HANDLER_RULES)[number] & HandlerRule,
    answer: SendOutcome | undefined,
  ): void {
    const sent = { method: this.method, ...answer };
    this.checks.set(rule.id, { ...resultOf(rule.id, rule.check(sent)), ...answeredOf(answer ? [answer] : []) });
  }

  /** Plays one of the world's events and judges it by its rules, with the state before and after. */
  private async world(
    rules: readonly AnyWorldRule[],
    callbacks: readonly CallbackFacts[],
    together: boolean,
  ): Promise<void> {
    const key = this.order.merchant.merchantControlKey;
    const before = await this.paid();
    const answers = await this.send(
      callbacks.map((c) => callbackPairs(c, key)),
      together,
    );
    const after = await this.paid();
    for (const rule of rules) this.judgeWorld(rule, answers, before, after);
  }

  private judgeWorld(
    rule: AnyWorldRule,
    answers: readonly SendOutcome[],
    before: PaidState | undefined,
    after: PaidState | undefined,
  ): void {
    const paid = paidSeen(before, after);
    const seen = {
      answers: answers.map((a) => ({ method: this.method, ...a })),
      paid,
      amountCents: this.amountCents,
      status: this.order.facts.status,
    };
    const outcome = rule.check(seen);
    const notJudged = paid === undefined && outcome.outcome !== 'skip' ? `${rule.statePart}: ${NO_STATE}` : undefined;
    this.checks.set(rule.id, {
      ...resultOf(rule.id, outcome),
      ...(answers.length === 0 ? {} : answeredOf(answers)),
      ...(notJudged === undefined ? {} : { notJudged }),
      ...(paid !== undefined && 'before' in paid
        ? { paid: { before: amountOf(paid.before), after: amountOf(paid.after) } }
        : {}),
    });
  }

  /** What the shop holds as paid now; undefined without --callback-state. */
  private async paid(): Promise<PaidState | undefined> {
    const { stateUrl, allowedHosts, stateTimeoutMs } = this.settings;
    if (stateUrl === undefined) return undefined;
    return readPaid(stateUrl, this.order.facts.clientOrderId, {
      ...(allowedHosts === undefined ? {} : { allowedHosts }),
      ...(stateTimeoutMs === undefined ? {} : { timeoutMs: stateTimeoutMs }),
      signal: this.signal,
    });
  }
}

type AnyWorldRule = Extract<(typeof CALLBACK_HANDLER_RULES)[number], WorldRule<string>>;
type HandlerRule = Rule<HandlerAnswer, string, never>;

function paidSeen(before: PaidState | undefined, after: PaidState | undefined): PaidSeen {
  if (before === undefined || after === undefined) return undefined;
  if ('unreadable' in before) return { unreadable: before.unreadable };
  if ('unreadable' in after) return { unreadable: after.unreadable };
  return { before: before.cents, after: after.cents };
}

/** The order's amount in cents (0 where it is none the signer knows: a check is then judged against 0). */
function centsOf(amount: string): bigint {
  try {
    return BigInt(toCents(amount));
  } catch {
    return 0n;
  }
}
