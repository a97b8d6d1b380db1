/**
 * Faults of the network and of a proxy in front of the gateway, so a merchant can see how its integration copes
 * (docs/mock.md, "Faults"): chosen per request by a magic client_orderid, or for a whole run by a seeded plan
 * (fault-settings.ts). The mock and inspect's embedded mock both pick a request's fault here (pickFault) and put it
 * on the wire through fault-delivery.ts, the one place faults are made.
 */
import type { Operation } from '../catalogue/index.ts';
import { startsOrder } from '../rules/habits.ts';
import { MAX_DELAY_MS, RATE_KINDS, type FaultSettings } from './fault-settings.ts';
import { seededRandom } from '../seeded-random.ts';

/** What happens to an answer on its way back (server-error is the gateway's own 500, answered by the mock). */
export type FaultKind = 'timeout' | 'slow' | 'reset' | 'lost-answer' | '502' | '503';

export interface Fault {
  readonly kind: FaultKind;
  /** Milliseconds before anything happens (SLOW's, or a run's latency); a time-out waits for ever. */
  readonly delayMs: number;
  /** Who asked for it, for the request log (never the id's own text: the log carries no field value). */
  readonly by: 'client_orderid' | 'faults file';
}

export interface MagicFault {
  /** The client_orderid, or its start: the value itself or followed by `-…` (MOCK-TIMEOUT-7). */
  readonly id: string;
  readonly kind: FaultKind | 'server-error';
  /** What the client sees. */
  readonly clientSees: string;
  /** Whether the order exists afterwards (a status for it finds it). */
  readonly orderMade: boolean;
  /** Which requests the id faults: those that start an order, or any operation (MOCK-SERVER-ERROR, as before). */
  readonly requests: 'starting an order' | 'any';
}

/** The gateway's own 500 on any operation (src/mock/operations.ts answers it). */
export const SERVER_ERROR_ORDER_ID = 'MOCK-SERVER-ERROR';

/** Every magic client_orderid of a fault, in one table (docs/mock.md shows it). */
export const MAGIC_FAULTS: readonly MagicFault[] = [
  {
    id: SERVER_ERROR_ORDER_ID,
    kind: 'server-error',
    clientSees: 'HTTP 500 ServerErrorResponse from the gateway',
    orderMade: false,
    requests: 'any',
  },
  {
    id: 'MOCK-TIMEOUT',
    kind: 'timeout',
    clientSees: 'no answer at all, until it gives up (its own time-out) or the mock stops',
    orderMade: true,
    requests: 'starting an order',
  },
  {
    id: 'MOCK-SLOW-<ms>',
    kind: 'slow',
    clientSees: `the normal answer, after <ms> milliseconds (at most ${MAX_DELAY_MS})`,
    orderMade: true,
    requests: 'starting an order',
  },
  {
    id: 'MOCK-RESET',
    kind: 'reset',
    clientSees: 'the connection reset (ECONNRESET) before any answer',
    orderMade: false,
    requests: 'starting an order',
  },
  {
    id: 'MOCK-LOST-ANSWER',
    kind: 'lost-answer',
    clientSees: 'the status line, the headers (with Content-Length) and half the body, then the connection closed',
    orderMade: true,
    requests: 'starting an order',
  },
  {
    id: 'MOCK-502',
    kind: '502',
    clientSees: "HTTP 502 Bad Gateway, a proxy's text/html page",
    orderMade: false,
    requests: 'starting an order',
  },
  {
    id: 'MOCK-503',
    kind: '503',
    clientSees: "HTTP 503 Service Unavailable with Retry-After: 1, a proxy's text/html page",
    orderMade: false,
    requests: 'starting an order',
  },
];

const SLOW = /^MOCK-SLOW-(\d{1,9})(?:-|$)/;

/** The magic fault a client_orderid names, if any (`MOCK-SLOW-250-3` waits 250 ms). */
export function magicFault(
  clientOrderId: string,
): { readonly fault: MagicFault; readonly delayMs: number } | undefined {
  if (!clientOrderId.startsWith('MOCK-')) return undefined;
  const slow = SLOW.exec(clientOrderId);
  if (slow !== null) return { fault: MAGIC_FAULTS[2] as MagicFault, delayMs: Math.min(Number(slow[1]), MAX_DELAY_MS) };
  const fault = MAGIC_FAULTS.find(
    (f) =>
      clientOrderId.startsWith(f.id) && (clientOrderId.length === f.id.length || clientOrderId[f.id.length] === '-'),
  );
  return fault === undefined ? undefined : { fault, delayMs: 0 };
}

/** Whether a client_orderid makes the gateway answer its 500 (MOCK-SERVER-ERROR, any operation). */
export const isServerErrorId = (clientOrderId: string): boolean =>
  clientOrderId.startsWith('MOCK-') && magicFault(clientOrderId)?.fault.kind === 'server-error';

/**
 * Whether the gateway gets the request at all: a reset or a proxy's 502/503 comes before it, so no order is made;
 * a time-out, a slow or a lost answer comes after it has processed the request.
 */
export const reachesGateway = (kind: FaultKind): boolean =>
  kind === 'timeout' || kind === 'slow' || kind === 'lost-answer';

/** A run's faults: each request it is asked about draws its fault and latency, in the order requests come. */
export class FaultPlan {
  private readonly random: () => number;
  constructor(readonly settings: FaultSettings) {
    this.random = seededRandom(settings.seed);
  }

  /** The next request's fault (a run's latency alone is a slow answer), or undefined. */
  draw(): Fault | undefined {
    const { rates, latencyMs } = this.settings;
    const r = this.random();
    let kind: FaultKind | undefined;
    let upTo = 0;
    for (const k of RATE_KINDS) {
      upTo += rates[k];
      if (r < upTo) {
        kind = k;
        break;
      }
    }
    const { min, max } = latencyMs;
    const delayMs = max === min ? min : min + Math.floor(this.random() * (max - min + 1));
    if (kind === undefined) return delayMs > 0 ? { kind: 'slow', delayMs, by: 'faults file' } : undefined;
    return { kind, delayMs, by: 'faults file' };
  }
}

/**
 * The fault of a request the gateway accepted: its magic client_orderid's (only on an operation that starts an
 * order, so a status for the same id answers and the merchant can recover), else the run's draw. Cheap when there
 * is neither: one `startsWith`.
 */
export function pickFault(
  plan: FaultPlan | undefined,
  clientOrderId: string | undefined,
  operation: Operation,
): Fault | undefined {
  if (clientOrderId !== undefined && clientOrderId.startsWith('MOCK-') && startsOrder(operation)) {
    const magic = magicFault(clientOrderId);
    if (magic !== undefined && magic.fault.kind !== 'server-error')
      return { kind: magic.fault.kind, delayMs: magic.delayMs, by: 'client_orderid' };
  }
  return plan?.draw();
}

/** The request log's words for a fault: its kind and who asked for it (no field value). */
export const faultWords = (fault: Fault): string =>
  `fault=${fault.kind}${fault.kind === 'slow' ? `-${fault.delayMs}ms` : ''} (${fault.by})`;
