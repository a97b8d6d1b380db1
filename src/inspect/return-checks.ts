/**
 * inspect --return-checks (docs/callbacks.md, A-45): for every order of the integration that carried redirect_url
 * and reaches a final status, inspect plays the payer's browser against the merchant's return page, as the family's
 * Final Redirect is sent (a form-encoded POST of status, orderid, merchant_order, client_orderid and control),
 * hostile returns first: a forged control, the status changed under the genuine control, a correctly signed return
 * for an order the merchant never made (none may be taken: no 2xx, nor the genuine return's own redirect), then the
 * genuine return twice (each must get a page or a redirect). Redirects are never followed.
 */
import { createHash, randomInt } from 'node:crypto';
import { merchantUrl, RETURN_FIELDS } from '../catalogue/index.ts';
import { callbackHostAllowed, callbackTarget, NO_CALLBACK_TARGET, sendCallback } from '../gateway/callback-delivery.ts';
import type { FinalOrder } from '../gateway/final-order.ts';
import { RETURN_HANDLER_RULES } from '../rules/book.ts';
import type { ReturnAnswer } from '../rules/return-handler.ts';
import { callbackPairs, type CallbackFacts } from '../signing/callback.ts';
import type { Pair } from '../signing/form-body.ts';
import type { CallbackRecord } from './callback-checks.ts';
import { OrderPlayer } from './order-player.ts';

export type ReturnCheckId = (typeof RETURN_HANDLER_RULES)[number]['id'];

/** An order's checks as played: the callback record's shape, so both report alike (callback-report.ts). */
export type ReturnRecord = Omit<CallbackRecord, 'checks'> & {
  readonly checks: readonly (Omit<CallbackRecord['checks'][number], 'id'> & { readonly id: ReturnCheckId })[];
};

/** The return's fields, signed, in RETURN_FIELDS order (the callback's without amount and type). */
export function returnPairs(facts: CallbackFacts, key: string): Pair[] {
  const pairs = callbackPairs(facts, key);
  return RETURN_FIELDS.flatMap((name) => pairs.filter(([n]) => n === name));
}

/** The status the payer would rather see: approved, or for an approved order declined. */
export const otherStatus = (status: string): string => (status === 'approved' ? 'declined' : 'approved');

const replaced = (pairs: Pair[], name: string, value: string): Pair[] =>
  pairs.map(([n, v]): Pair => [n, n === name ? value : v]);

/** The return each rule is played with; the book's order is the order they are played in. */
const PAIRS: Readonly<Record<ReturnCheckId, (facts: CallbackFacts, key: string) => Pair[]>> = {
  'return-forged-control': (facts, key) => {
    const fake = createHash('sha1')
      .update(`${facts.status}${facts.orderid}${facts.clientOrderId}payconform-forged-${key.length}`)
      .digest('hex');
    return replaced(returnPairs(facts, key), 'control', fake);
  },
  // The payer edits the status in the form; the control stays the gateway's, over the status it sent.
  'return-other-status': (facts, key) => replaced(returnPairs(facts, key), 'status', otherStatus(facts.status)),
  'return-unknown-order': (facts, key) => {
    const id = String(randomInt(100_000_000, 999_999_999));
    return returnPairs({ ...facts, orderid: `9${id}`, clientOrderId: `payconform-unknown-${id}` }, key);
  },
  'return-genuine': returnPairs,
  'return-genuine-again': returnPairs,
};

export interface ReturnCheckerSettings {
  /** Hosts besides loopback inspect may post to. */
  readonly allowedHosts?: readonly string[];
  /** Per return, from connecting to the answer's last byte (default 5000 ms). */
  readonly timeoutMs?: number;
  readonly maxAnswerBytes?: number;
  /** Before the first return of an order (default 300 ms). */
  readonly delayMs?: number;
  readonly onRecord?: (record: ReturnRecord) => void;
}

export class ReturnChecker extends OrderPlayer<ReturnRecord> {
  constructor(private readonly settings: ReturnCheckerSettings = {}) {
    super(settings.onRecord);
  }

  protected async play(order: FinalOrder): Promise<void> {
    const { facts, merchant } = order;
    const url = merchantUrl(order.callbackUrl);
    if (!(url instanceof URL))
      return this.notPlayed(order, NO_CALLBACK_TARGET, 'no http(s) URL', 'not sent: redirect_url is no http(s) URL');
    const target = callbackTarget(url);
    if (!callbackHostAllowed(url, this.settings.allowedHosts ?? []))
      return this.notPlayed(
        order,
        target,
        'host not allowed',
        `not sent: ${target} is not a loopback host; run the shop on this machine, or allow its host with ` +
          '--callback-hosts',
      );
    await new Promise((resolve) => setTimeout(resolve, this.settings.delayMs ?? 300));
    const answers: ReturnAnswer[] = [];
    for (const rule of RETURN_HANDLER_RULES)
      answers.push(
        await sendCallback(url, PAIRS[rule.id](facts, merchant.merchantControlKey), {
          method: 'POST',
          timeoutMs: this.settings.timeoutMs ?? 5000,
          maxAnswerBytes: this.settings.maxAnswerBytes,
          signal: this.closing.signal,
        }),
      );
    // Judged once all are played: a hostile return may not be sent where the genuine one is.
    const genuine = answers[RETURN_HANDLER_RULES.findIndex((r) => r.id === 'return-genuine')];
    const checks = RETURN_HANDLER_RULES.map((rule, i) => {
      const answer = answers[i] ?? {};
      const outcome = rule.check({ answer, genuine });
      return {
        id: rule.id,
        outcome: outcome.outcome === 'fail' ? ('fail' as const) : ('pass' as const),
        ...(answer.status === undefined ? {} : { answered: answer.status }),
        ...(answer.error === undefined ? {} : { error: answer.error }),
        ...(outcome.outcome === 'fail' ? { message: outcome.evidence.message } : {}),
      };
    });
    this.keepChecks(order, target, checks);
  }

  protected notPlayed(order: FinalOrder, target: string, error: string, message: string): void {
    const checks = RETURN_HANDLER_RULES.map((rule) => ({ id: rule.id, outcome: 'fail' as const, error, message }));
    this.keepChecks(order, target, checks);
  }

  private keepChecks({ facts }: FinalOrder, target: string, checks: ReturnRecord['checks']): void {
    const { orderid, clientOrderId, status } = facts;
    const passed = checks.every((c) => c.outcome === 'pass');
    const record: ReturnRecord = {
      orderid,
      clientOrderId,
      status,
      target,
      at: new Date().toISOString(),
      checks,
      passed,
    };
    this.keep(record);
  }
}
