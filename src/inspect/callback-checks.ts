/**
 * inspect --callback-checks (docs/callbacks.md): for every order of the integration that reaches a
 * final status and carried server_callback_url, inspect plays the gateway against the merchant's
 * handler, hostile callbacks first, so a handler that marks an order paid on any callback is caught:
 * a forged control, a valid control with another amount, a correctly signed callback for an order
 * the merchant never made (none may be answered 2xx), then the genuine callback and the same again
 * (both must be answered 200: the gateway retries anything else). Each goes as the public gateways
 * send it, an HTTP GET with the fields added to the URL's own query (a POST where asked).
 */
import { createHash, randomInt } from 'node:crypto';
import { callbackPairs, type CallbackFacts } from '../signing/callback.ts';
import type { Pair } from '../signing/form-body.ts';
import { toCents } from '../signing/cents.ts';
import { DEFAULT_CALLBACK_METHOD, merchantUrl, type CallbackMethod } from '../catalogue/index.ts';
import { CALLBACK_HANDLER_RULES } from '../rules/book.ts';
import { callbackHostAllowed, callbackTarget, NO_CALLBACK_TARGET, sendCallback } from '../gateway/callback-delivery.ts';
import type { FinalOrder } from '../gateway/final-order.ts';
import { OrderPlayer } from './order-player.ts';

export type CallbackCheckId = (typeof CALLBACK_HANDLER_RULES)[number]['id'];

/** One callback inspect plays: the rule that judges the handler's answer, and the callback's fields. */
interface CallbackCheck {
  readonly rule: (typeof CALLBACK_HANDLER_RULES)[number];
  readonly pairs: (facts: CallbackFacts, key: string) => Pair[];
}

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

/** The callback each handler rule is played with; the book's order is the order they are played in. */
const PAIRS: Readonly<Record<CallbackCheckId, CallbackCheck['pairs']>> = {
  'callback-forged-control': forged,
  'callback-other-amount': (facts, key) => callbackPairs({ ...facts, amount: otherAmount(facts.amount) }, key),
  'callback-unknown-order': (facts, key) => {
    const id = String(randomInt(100_000_000, 999_999_999));
    return callbackPairs({ ...facts, orderid: `9${id}`, clientOrderId: `payconform-unknown-${id}` }, key);
  },
  'callback-genuine': (facts, key) => callbackPairs(facts, key),
  'callback-genuine-again': (facts, key) => callbackPairs(facts, key),
};

export const CALLBACK_CHECKS: readonly CallbackCheck[] = CALLBACK_HANDLER_RULES.map((rule) => ({
  rule,
  pairs: PAIRS[rule.id],
}));

/** A handler rule's outcome for one callback; its title and fix are the book's (RULE_BY_ID). */
export interface CallbackCheckResult {
  readonly id: CallbackCheckId;
  readonly outcome: 'pass' | 'fail';
  /** The handler's HTTP status, when it answered. */
  readonly answered?: number;
  readonly error?: string;
  /** Why it failed, with what was expected; absent on a pass. */
  readonly message?: string;
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
  readonly onRecord?: (record: CallbackRecord) => void;
}

export class CallbackChecker extends OrderPlayer<CallbackRecord> {
  constructor(private readonly settings: CallbackCheckerSettings = {}) {
    super(settings.onRecord);
  }

  protected async play(order: FinalOrder): Promise<void> {
    const { facts, callbackUrl, merchant } = order;
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
    const checks: CallbackCheckResult[] = [];
    if (!callbackHostAllowed(url, this.settings.allowedHosts ?? [])) {
      for (const { rule } of CALLBACK_CHECKS)
        checks.push({
          id: rule.id,
          outcome: 'fail',
          error: 'host not allowed',
          message:
            `not sent: ${base.target} is not a loopback host; run the handler on this machine, or allow its ` +
            'host with --callback-hosts',
        });
    } else {
      const method = this.settings.method ?? DEFAULT_CALLBACK_METHOD;
      await new Promise((resolve) => setTimeout(resolve, this.settings.delayMs ?? 300));
      for (const { rule, pairs } of CALLBACK_CHECKS) {
        const answer = await sendCallback(url, pairs(facts, merchant.merchantControlKey), {
          method,
          timeoutMs: this.settings.timeoutMs ?? 5000,
          maxAnswerBytes: this.settings.maxAnswerBytes,
          signal: this.closing.signal,
        });
        const outcome = rule.check({ method, ...answer });
        checks.push({
          id: rule.id,
          outcome: outcome.outcome === 'fail' ? 'fail' : 'pass',
          ...(answer.status === undefined ? {} : { answered: answer.status }),
          ...(answer.error === undefined ? {} : { error: answer.error }),
          ...(outcome.outcome === 'fail' ? { message: outcome.evidence.message } : {}),
        });
      }
    }
    this.keep({ ...base, at: new Date().toISOString(), checks, passed: checks.every((c) => c.outcome === 'pass') });
  }

  protected notPlayed({ facts }: FinalOrder, target: string, error: string, message: string): void {
    const { orderid, clientOrderId, status } = facts;
    const checks = CALLBACK_CHECKS.map(({ rule }): CallbackCheckResult => ({
      id: rule.id,
      outcome: 'fail',
      error,
      message,
    }));
    this.keep({ orderid, clientOrderId, status, target, at: new Date().toISOString(), checks, passed: false });
  }
}
