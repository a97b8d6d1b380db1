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
import { DEFAULT_CALLBACK_METHOD, type CallbackMethod } from '../catalogue/index.ts';
import { callbackHostAllowed, callbackTarget, sendCallback } from '../gateway/callback-delivery.ts';
import type { FinalOrder } from '../gateway/final-order.ts';

export type CallbackCheckId = 'forged-control' | 'other-amount' | 'unknown-order' | 'genuine' | 'genuine-again';

interface CallbackCheck {
  readonly id: CallbackCheckId;
  readonly title: string;
  /** A genuine callback must be answered 200; a hostile one must not be answered 2xx. */
  readonly genuine: boolean;
  /** Why it matters, said when it fails. */
  readonly why: string;
  readonly fix: string;
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

/** In the order they are played: the hostile ones first. */
export const CALLBACK_CHECKS: readonly CallbackCheck[] = [
  {
    id: 'forged-control',
    title: 'a callback with a forged control is not accepted',
    genuine: false,
    why:
      'anyone who learns the callback URL can post "approved" for an unpaid order; only the control proves the ' +
      'gateway sent it',
    fix:
      'Compute SHA-1(status + orderid + client_orderid + merchant control key), compare it with control in ' +
      'constant time, and answer 403 when it differs.',
    pairs: forged,
  },
  {
    id: 'other-amount',
    title: 'a correctly signed callback with another amount is not accepted',
    genuine: false,
    why:
      'the amount is not in the control formula, so a valid control does not vouch for it: an order can be ' +
      'marked paid for a cent',
    fix:
      "After the control, compare orderid, client_orderid and amount with your own order (as the vendor's " +
      'library does), and refuse the callback when one differs.',
    pairs: (facts, key) => callbackPairs({ ...facts, amount: otherAmount(facts.amount) }, key),
  },
  {
    id: 'unknown-order',
    title: 'a correctly signed callback for an order you never made is not accepted',
    genuine: false,
    why: 'a handler that creates or approves whatever order a callback names books payments that do not exist',
    fix: 'Look the order up by client_orderid; answer 404 (and change nothing) when it is not yours.',
    pairs: (facts, key) => {
      const id = String(randomInt(100_000_000, 999_999_999));
      return callbackPairs({ ...facts, orderid: `9${id}`, clientOrderId: `payconform-unknown-${id}` }, key);
    },
  },
  {
    id: 'genuine',
    title: 'the genuine callback is accepted (200)',
    genuine: true,
    why: 'the gateway retries anything but 200, and the order stays unsettled on your side',
    fix:
      'Answer 200 once the status is recorded; verify with the control formula of docs/callbacks.md ' +
      '(payconform verify --callback shows the right value).',
    pairs: (facts, key) => callbackPairs(facts, key),
  },
  {
    id: 'genuine-again',
    title: 'the same genuine callback again is accepted (200)',
    genuine: true,
    why:
      'gateways retry callbacks (a time-out, a lost answer): a handler that fails on the second one is retried ' +
      'again and again, or double-books',
    fix:
      'Make the handler idempotent: a callback for an order already in that status is answered 200 and changes ' +
      'nothing.',
    pairs: (facts, key) => callbackPairs(facts, key),
  },
];

export interface CallbackCheckResult {
  readonly id: CallbackCheckId;
  readonly title: string;
  readonly outcome: 'pass' | 'fail';
  /** The handler's HTTP status, when it answered. */
  readonly answered?: number;
  readonly error?: string;
  /** Why it failed, with what was expected; absent on a pass. */
  readonly message?: string;
  readonly fix?: string;
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
  /** Per callback (default 5000 ms). */
  readonly timeoutMs?: number;
  /** Before the first callback of an order, so the integration has stored the order's answer (default 300 ms). */
  readonly delayMs?: number;
  readonly onRecord?: (record: CallbackRecord) => void;
}

const is2xx = (status: number | undefined): boolean => status !== undefined && status >= 200 && status < 300;

/** Said with a failed genuine callback sent by GET: the usual cause is a handler that reads only a POST body. */
const GET_NOTE =
  'the public API sends callbacks as HTTP GET with the fields in the query string (A-31): read them from the ' +
  'query, not from a POST body';

export class CallbackChecker {
  readonly records: CallbackRecord[] = [];
  private readonly pending = new Set<Promise<void>>();
  private readonly started = new Set<string>();

  constructor(private readonly settings: CallbackCheckerSettings = {}) {}

  /** An order of the integration is final: its callbacks are played once, in the background. */
  check(order: FinalOrder): void {
    const key = `${order.merchant.login}\u0000${order.facts.orderid}`;
    if (this.started.has(key)) return;
    this.started.add(key);
    const run = this.play(order).finally(() => this.pending.delete(run));
    this.pending.add(run);
  }

  private async play({ facts, callbackUrl, merchant }: FinalOrder): Promise<void> {
    const url = new URL(callbackUrl);
    const base = {
      orderid: facts.orderid,
      clientOrderId: facts.clientOrderId,
      status: facts.status,
      target: callbackTarget(url),
    };
    const checks: CallbackCheckResult[] = [];
    if (!callbackHostAllowed(url, this.settings.allowedHosts ?? [])) {
      for (const c of CALLBACK_CHECKS)
        checks.push({
          id: c.id,
          title: c.title,
          outcome: 'fail',
          error: 'host not allowed',
          message: `not sent: ${base.target} is not a loopback host`,
          fix: 'Run the handler on this machine, or allow its host with --callback-hosts.',
        });
    } else {
      const method = this.settings.method ?? DEFAULT_CALLBACK_METHOD;
      await new Promise((resolve) => setTimeout(resolve, this.settings.delayMs ?? 300));
      for (const c of CALLBACK_CHECKS) {
        const answer = await sendCallback(url, c.pairs(facts, merchant.merchantControlKey), {
          method,
          timeoutMs: this.settings.timeoutMs ?? 5000,
        });
        const ok = c.genuine ? answer.status === 200 : answer.status !== undefined && !is2xx(answer.status);
        const got = answer.status !== undefined ? `answered ${answer.status}` : `no answer (${answer.error})`;
        const note =
          c.genuine && method === 'GET' && answer.status !== undefined && !is2xx(answer.status) ? `; ${GET_NOTE}` : '';
        checks.push({
          id: c.id,
          title: c.title,
          outcome: ok ? 'pass' : 'fail',
          ...(answer.status === undefined ? {} : { answered: answer.status }),
          ...(answer.error === undefined ? {} : { error: answer.error }),
          ...(ok
            ? {}
            : {
                message:
                  `${got} to the ${method}; ` +
                  `expected ${c.genuine ? '200' : 'a refusal (4xx or 5xx)'}: ${c.why}${note}`,
                fix: c.fix,
              }),
        });
      }
    }
    const record: CallbackRecord = {
      ...base,
      at: new Date().toISOString(),
      checks,
      passed: checks.every((c) => c.outcome === 'pass'),
    };
    this.records.push(record);
    this.settings.onRecord?.(record);
  }

  /** Resolves when every order's callbacks are played, or after `timeoutMs`; returns how many are still under way. */
  async idle(timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (this.pending.size > 0 && Date.now() < deadline) {
      await Promise.race([
        Promise.allSettled([...this.pending]),
        new Promise((r) => setTimeout(r, Math.max(1, deadline - Date.now())).unref()),
      ]);
    }
    return this.pending.size;
  }
}
