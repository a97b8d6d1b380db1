/**
 * The mock's callbacks (docs/callbacks.md, A-31): when an order that carried `notify_url` or
 * `server_callback_url` reaches its final status, the signed callback goes out at once (within a
 * second) as an HTTP GET with the fields in the URL's query (a POST where `method` says so); any
 * answer but 200, or a time-out, is retried on the public gateways' progressive timeline
 * (callbackWaitMinutes), compressed by `timeScale`, `attempts` times in all; every attempt is
 * recorded: in `deliveries`, where tests read it, and as a request-log line, which also says when a
 * real gateway would refuse the URL's port. The waits are read on the mock's clock (clock.ts): a retry
 * whose due time an advanced clock has passed goes at once. Events on demand (events.ts) go through
 * the same attempts, at once, and say what the first attempt got.
 */
import {
  CALLBACK_ATTEMPTS,
  callbackWaitMinutes,
  DEFAULT_CALLBACK_METHOD,
  endpointByOperation,
  gatewayRefusesPort,
  merchantUrl,
  RETURN_FIELDS,
  transactionType,
  type CallbackMethod,
} from '../catalogue/index.ts';
import type { CallbackFacts } from '../signing/callback.ts';
import type { Pair } from '../signing/form-body.ts';
import { PLAIN_SIGNER, type CallbackSigner } from './seams.ts';
import type { FinalOrder } from '../gateway/final-order.ts';
import { callbackHostAllowed, callbackTarget, NO_CALLBACK_TARGET, sendCallback } from '../gateway/callback-delivery.ts';
import { settledWithin } from '../gateway/settled.ts';
import type { Order } from './orders.ts';
import { MockClock } from './clock.ts';

/** A minute of the gateway's timeline lasts a millisecond here unless told otherwise: 30 attempts in about 20 s. */
export const DEFAULT_CALLBACK_TIME_SCALE = 60_000;

export interface CallbackSettings {
  /** Hosts besides loopback the mock may call (default none). */
  readonly allowedHosts?: readonly string[];
  /** Attempts in all (default 30, the public gateways' number). */
  readonly attempts?: number;
  /** How many times faster than the gateway's timeline the retries come (default 60,000; 1 is real time). */
  readonly timeScale?: number;
  /** GET with the fields in the query (default, as the public gateways), or a form-encoded POST. */
  readonly method?: CallbackMethod;
  /** The wait before the first attempt, so the merchant has the order's answer first (default 200 ms). */
  readonly delayMs?: number;
  /** How long one attempt waits for the handler's answer (default 5000 ms). */
  readonly timeoutMs?: number;
  /**
   * Told of every order that reaches a final status with a callback URL, instead of the mock
   * posting it: inspect --callback-checks plays the gateway itself.
   */
  readonly onFinal?: (order: FinalOrder) => void;
}

export interface CallbackDelivery {
  readonly orderid: string;
  readonly clientOrderId: string;
  /** The order status the callback carried. */
  readonly status: string;
  /** Origin and path of the handler (no query). */
  readonly target: string;
  readonly attempt: number;
  readonly method: CallbackMethod;
  readonly at: string;
  /** The handler's HTTP status, if it answered. */
  readonly answered?: number;
  readonly error?: string;
  /**
   * delivered: 200; retrying: another attempt follows; failed: the last attempt failed; refused: the host is not
   * allowed, nothing sent.
   */
  readonly outcome: 'delivered' | 'retrying' | 'failed' | 'refused';
  /** The event on demand that sent it (payconform trigger), if any. */
  readonly event?: string;
}

/** How one delivery starts: its first wait, the event behind it, who hears of its first attempt. */
interface DeliveryStart {
  readonly delayMs: number;
  readonly event?: string;
  readonly onFirst?: (delivery: CallbackDelivery) => void;
}

/** A retry waiting for its due time on the mock's clock. */
interface Sleeper {
  readonly due: number;
  readonly wake: () => void;
  timer?: NodeJS.Timeout;
}

/** The customer's return to redirect_url: the callback's signed fields without amount and type. */
export function signedReturn(facts: CallbackFacts, controlKey: string, sign: CallbackSigner): Pair[] {
  const pairs = sign(facts, controlKey);
  return RETURN_FIELDS.flatMap((name) => pairs.filter(([n]) => n === name));
}

/** The callback's facts of an order (amount 0.00 where the order has none, A-31). */
export function callbackFacts(order: Order): CallbackFacts {
  return {
    orderid: order.paynetOrderId,
    clientOrderId: order.merchantOrderId,
    amount: order.amount ?? '0.00',
    status: order.finalStatus,
    type: transactionType(endpointByOperation(order.operation).path),
  };
}

export class CallbackSender {
  readonly deliveries: CallbackDelivery[] = [];
  private readonly pending = new Set<Promise<void>>();
  /** Waiting retries: close ends their waits, an advanced clock those now due. */
  private readonly sleepers = new Set<Sleeper>();
  private closed = false;
  private readonly closing = new AbortController();
  private readonly stopWatchingClock: () => void;

  constructor(
    private readonly settings: CallbackSettings,
    private readonly log?: (line: string) => void,
    private readonly sign: CallbackSigner = PLAIN_SIGNER,
    private readonly clock: MockClock = new MockClock(),
  ) {
    this.stopWatchingClock = clock.onAdvance(() => {
      for (const sleeper of this.sleepers) this.arm(sleeper);
    });
  }

  /** An order reached its final status: its callback goes out now (or to onFinal). */
  final(order: FinalOrder): void {
    if (this.settings.onFinal) return this.settings.onFinal(order);
    this.start(order, { delayMs: this.settings.delayMs ?? 200 });
  }

  /**
   * An event's callbacks (events.ts), never handed to onFinal: each goes at once, retried as any callback; all
   * `together` (started in the same tick, so both are in flight at once) or one after another's first attempt.
   * Resolves with each one's first attempt.
   */
  async event(orders: readonly FinalOrder[], together: boolean, event: string): Promise<CallbackDelivery[]> {
    const first = (order: FinalOrder): Promise<CallbackDelivery> =>
      new Promise((onFirst) => this.start(order, { delayMs: 0, event, onFirst }));
    if (together) return Promise.all(orders.map(first));
    const firsts: CallbackDelivery[] = [];
    for (const order of orders) firsts.push(await first(order));
    return firsts;
  }

  private start(order: FinalOrder, how: DeliveryStart): void {
    // A delivery that fails in a way no attempt records is recorded here: a callback never stops the mock.
    const done = this.deliver(order, how)
      .catch((err: unknown) => this.undelivered(order, `internal: ${String(err)}`, how))
      .finally(() => this.pending.delete(done));
    this.pending.add(done);
  }

  /** A callback not sent at all: one delivery record, outcome failed. */
  private undelivered({ facts }: FinalOrder, error: string, how: DeliveryStart): void {
    const at = new Date().toISOString();
    const { orderid, clientOrderId, status } = facts;
    const method = this.settings.method ?? DEFAULT_CALLBACK_METHOD;
    const delivery: CallbackDelivery = {
      orderid,
      clientOrderId,
      status,
      target: NO_CALLBACK_TARGET,
      attempt: 0,
      method,
      at,
      error,
      outcome: 'failed',
      ...(how.event === undefined ? {} : { event: how.event }),
    };
    this.deliveries.push(delivery);
    how.onFirst?.(delivery);
    this.log?.(`${at} CALLBACK ${method} ${NO_CALLBACK_TARGET} order ${orderid}: not sent (${error})`);
  }

  private async deliver(order: FinalOrder, how: DeliveryStart): Promise<void> {
    const { facts, callbackUrl, merchant } = order;
    // The mock's rules refuse such a URL (merchant-urls, A-33); a defect or a caller may not have.
    const url = merchantUrl(callbackUrl);
    if (!(url instanceof URL)) return this.undelivered(order, 'not an absolute http(s) URL (A-33)', how);
    const attempts = this.settings.attempts ?? CALLBACK_ATTEMPTS;
    const method = this.settings.method ?? DEFAULT_CALLBACK_METHOD;
    const record = (
      attempt: number,
      outcome: CallbackDelivery['outcome'],
      answer: { status?: number; error?: string },
      ms: number,
    ): void => {
      const delivery: CallbackDelivery = {
        orderid: facts.orderid,
        clientOrderId: facts.clientOrderId,
        status: facts.status,
        target: callbackTarget(url),
        attempt,
        method,
        at: new Date().toISOString(),
        ...(answer.status === undefined ? {} : { answered: answer.status }),
        ...(answer.error === undefined ? {} : { error: answer.error }),
        outcome,
        ...(how.event === undefined ? {} : { event: how.event }),
      };
      this.deliveries.push(delivery);
      if (attempt <= 1) how.onFirst?.(delivery);
      this.log?.(
        `${delivery.at} CALLBACK ${method} ${delivery.target} ${answer.status ?? answer.error} ` +
          `order ${facts.orderid} attempt ${attempt}/${attempts} ${outcome} ${ms.toFixed(1)}ms` +
          (how.event === undefined ? '' : ` event ${how.event}`),
      );
    };
    if (!callbackHostAllowed(url, this.settings.allowedHosts ?? [])) {
      return record(0, 'refused', { error: 'host not allowed: loopback only, or payconform mock --callback-hosts' }, 0);
    }
    const refusedPort = gatewayRefusesPort(url);
    if (refusedPort !== undefined)
      this.log?.(
        `${new Date().toISOString()} CALLBACK ${callbackTarget(url)} order ${facts.orderid}: sent anyway, though ` +
          `a real gateway would refuse ${refusedPort}, A-31`,
      );
    const pairs = this.sign(facts, merchant.merchantControlKey);
    const scale = this.settings.timeScale ?? DEFAULT_CALLBACK_TIME_SCALE;
    await this.sleep(how.delayMs);
    // An event's caller waits for the first attempt: closed before it, it hears so rather than never.
    if (this.closed && how.onFirst !== undefined) return this.undelivered(order, 'the mock closed first', how);
    for (let attempt = 1; attempt <= attempts && !this.closed; attempt++) {
      const started = performance.now();
      const answer = await sendCallback(url, pairs, {
        method,
        timeoutMs: this.settings.timeoutMs ?? 5000,
        signal: this.closing.signal,
      });
      // The public gateways take 200 only: anything else is sent again.
      const ok = answer.status === 200;
      record(
        attempt,
        ok ? 'delivered' : attempt < attempts ? 'retrying' : 'failed',
        answer,
        performance.now() - started,
      );
      if (ok) return;
      if (attempt < attempts) await this.sleep((callbackWaitMinutes(attempt) * 60_000) / scale);
    }
  }

  /** Waits until `ms` from now on the mock's clock. */
  private sleep(ms: number): Promise<void> {
    // Once closed, no wait may begin: a retry timer would keep the process alive after close.
    if (this.closed) return Promise.resolve();
    return new Promise((wake) => this.arm({ due: this.clock.now() + ms, wake }));
  }

  /** Wakes the sleeper if the clock has passed its due time, else (re)sets its timer for the time left. */
  private arm(sleeper: Sleeper): void {
    clearTimeout(sleeper.timer);
    const left = sleeper.due - this.clock.now();
    if (left <= 0) {
      this.sleepers.delete(sleeper);
      return sleeper.wake();
    }
    this.sleepers.add(sleeper);
    sleeper.timer = setTimeout(() => this.arm(sleeper), left);
  }

  /** Resolves when no delivery is under way, or after `timeoutMs`, whichever comes first. */
  async idle(timeoutMs: number): Promise<void> {
    await settledWithin(this.pending, timeoutMs);
  }

  /** Stops retrying: waiting retries and callbacks under way end at once. */
  close(): void {
    this.closed = true;
    this.closing.abort();
    this.stopWatchingClock();
    for (const { timer, wake } of this.sleepers) {
      clearTimeout(timer);
      wake();
    }
    this.sleepers.clear();
  }
}
