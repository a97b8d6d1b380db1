/**
 * Faults of the network and of a proxy in front of the gateway, so a merchant can see how its integration copes
 * (docs/mock.md, "Faults"): chosen per request by a magic client_orderid, or for a whole run by a seeded plan
 * (`--faults FILE`, a profile's `faults`). The mock and inspect's embedded mock both deliver a faulted answer
 * through deliverWithFault, the one place faults are made on the wire.
 */
import type { ServerResponse } from 'node:http';
import { PayconformError } from '../errors.ts';
import { readUserFile } from '../read-file.ts';
import type { Operation } from '../catalogue/index.ts';
import { startsOrder } from '../rules/habits.ts';
import type { AnswerOutcome } from '../rules/history.ts';

/** What happens to an answer on its way back (server-error is the gateway's own 500, answered by the mock). */
export type FaultKind = 'timeout' | 'slow' | 'reset' | 'lost-answer' | '502' | '503';

export interface Fault {
  readonly kind: FaultKind;
  /** Milliseconds before anything happens (SLOW's, or a run's latency); a time-out waits for ever. */
  readonly delayMs: number;
  /** Who asked for it, for the request log (never the id's own text: the log carries no field value). */
  readonly by: 'client_orderid' | 'faults file';
}

/** The longest wait SLOW or a run's latency may ask for: a larger value waits this long. */
export const MAX_DELAY_MS = 60_000;

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

// ---- Faults for a whole run -------------------------------------------------------------------------------------

/** The faults a run's rates may draw, in the order their rates are laid end to end. */
export const RATE_KINDS = ['timeout', 'reset', 'lost-answer', '502', '503'] as const;
export type RateKind = (typeof RATE_KINDS)[number];

export interface FaultSettings {
  /** The PRNG's seed: the same seed and the same requests give the same faults. */
  readonly seed: number;
  /** Each answer's wait: a fixed number of milliseconds, or drawn uniformly from min to max. */
  readonly latencyMs: { readonly min: number; readonly max: number };
  /** The share of requests each fault gets, 0..1, summing to at most 1. */
  readonly rates: Readonly<Record<RateKind, number>>;
}

const MAX_SEED = 0xffff_ffff;

/** Makes the one-line error of a bad faults setting from its JSON pointer and the rule it breaks. */
export type BadSetting = (pointer: string, rule: string) => Error;

const wholeIn = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

function latencyOf(value: unknown, badFaults: BadSetting): FaultSettings['latencyMs'] {
  const rule = `must be whole milliseconds 0..${MAX_DELAY_MS}, or {"min": A, "max": B} with A <= B`;
  if (value === undefined) return { min: 0, max: 0 };
  if (wholeIn(value, 0, MAX_DELAY_MS)) return { min: value, max: value };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badFaults('/latencyMs', rule);
  const { min, max, ...rest } = value as Record<string, unknown>;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined) throw badFaults(`/latencyMs/${extra}`, 'is not a latency setting (min, max)');
  if (!wholeIn(min, 0, MAX_DELAY_MS)) throw badFaults('/latencyMs/min', rule);
  if (!wholeIn(max, min, MAX_DELAY_MS)) throw badFaults('/latencyMs/max', rule);
  return { min, max };
}

/**
 * A faults file's JSON, validated (`{"seed"?, "latencyMs"?, "rates"?}`; docs/mock.md, "Faults for a whole run").
 * Without a seed, `randomSeed` gives one, which the commands print so the run can be replayed.
 */
export function faultSettingsOf(data: unknown, randomSeed: () => number, badFaults: BadSetting): FaultSettings {
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw badFaults('', 'must be a JSON object with seed, latencyMs and rates');
  const { seed, latencyMs, rates, ...rest } = data as Record<string, unknown>;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined) throw badFaults(`/${extra}`, 'is not a faults setting (seed, latencyMs, rates)');
  if (seed !== undefined && !wholeIn(seed, 0, MAX_SEED))
    throw badFaults('/seed', `must be a whole number 0..${MAX_SEED}`);
  if (rates !== undefined && (typeof rates !== 'object' || rates === null || Array.isArray(rates)))
    throw badFaults('/rates', `must be an object of rates by fault (${RATE_KINDS.join(', ')})`);
  const given = (rates ?? {}) as Record<string, unknown>;
  const out = {} as Record<RateKind, number>;
  for (const name of Object.keys(given))
    if (!(RATE_KINDS as readonly string[]).includes(name))
      throw badFaults(`/rates/${name}`, `is not a fault (${RATE_KINDS.join(', ')})`);
  let sum = 0;
  for (const kind of RATE_KINDS) {
    const rate = given[kind] ?? 0;
    if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1))
      throw badFaults(`/rates/${kind}`, 'must be a number 0..1');
    out[kind] = rate;
    sum += rate;
  }
  // A little slack for decimal fractions that add up to 1 (0.1 + 0.2 + 0.7).
  if (sum > 1 + 1e-9) throw badFaults('/rates', `must add up to at most 1 (they add up to ${sum})`);
  return { seed: seed ?? randomSeed(), latencyMs: latencyOf(latencyMs, badFaults), rates: out };
}

/** The faults file of `--faults FILE` (mock, inspect): one line naming the option, the file, the field and the rule. */
export function readFaults(file: string): FaultSettings {
  const bad = (pointer: string, rule: string): PayconformError =>
    new PayconformError('ERR_FAULTS', `--faults ${file}: ${pointer === '' ? '' : `${pointer}: `}${rule}`, {
      field: '--faults',
      rule,
    });
  const text = readUserFile(file, '--faults');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw bad('', `is not JSON (${(err as Error).message})`);
  }
  return faultSettingsOf(data, randomSeed, bad);
}

/** What a run's faults are, printed at its start with the seed that replays them. */
export function faultsLine({ seed, latencyMs, rates }: FaultSettings): string {
  const drawn = RATE_KINDS.filter((k) => rates[k] > 0).map((k) => `${k} ${+(rates[k] * 100).toFixed(4)}%`);
  const { min, max } = latencyMs;
  const latency = max === 0 ? 'no latency' : min === max ? `latency ${min} ms` : `latency ${min}-${max} ms`;
  return (
    `faults for the whole run: seed ${seed} (the same seed and requests replay them), ` +
    `${drawn.length === 0 ? 'no faults' : drawn.join(', ')}, ${latency}`
  );
}

/** A seed for a run that named none. */
export const randomSeed = (): number => Math.floor(Math.random() * (MAX_SEED + 1));

/** mulberry32: a tiny seeded PRNG, uniform in [0, 1); plenty for drawing faults, never for secrets. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A run's faults: each request it is asked about draws its fault and latency, in the order requests come. */
export class FaultPlan {
  private readonly random: () => number;
  constructor(readonly settings: FaultSettings) {
    this.random = seeded(settings.seed);
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

// ---- On the wire ------------------------------------------------------------------------------------------------

/** An answer as written for the wire (the mock's WrittenAnswer is one). */
export interface WireAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | number>>;
  readonly text: string;
}

/**
 * A proxy's own error page, as a reverse proxy in front of a gateway answers when the gateway is down or overloaded
 * (A-46): text/html, not the gateway's answer format; a 503 says when to come back (Retry-After, RFC 9110 §10.2.3).
 */
export function proxyPage(kind: '502' | '503'): WireAnswer {
  const title = kind === '502' ? '502 Bad Gateway' : '503 Service Unavailable';
  const text =
    `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n` +
    `<hr><center>payconform mock (a proxy's page)</center>\r\n</body>\r\n</html>\r\n`;
  return {
    status: Number(kind),
    headers: {
      'content-type': 'text/html',
      'content-length': Buffer.byteLength(text),
      ...(kind === '503' ? { 'retry-after': '1' } : {}),
    },
    text,
  };
}

const lost = (fault: 'timeout' | 'reset' | 'lost-answer' | 'client-gave-up'): AnswerOutcome => ({
  kind: 'lost',
  fault,
});

/** Does what the fault says, at once; `written` is the gateway's answer (none where it never got the request). */
function act(res: ServerResponse, written: WireAnswer | undefined, kind: FaultKind): AnswerOutcome {
  if (kind === '502' || kind === '503') {
    const page = proxyPage(kind);
    res.writeHead(page.status, page.headers);
    res.end(page.text);
    return { kind: 'answered', status: page.status };
  }
  if (kind === 'reset' || written === undefined) {
    // An RST, not a FIN: the client reads ECONNRESET, not an empty answer.
    res.socket?.resetAndDestroy();
    return lost('reset');
  }
  res.writeHead(written.status, written.headers);
  if (kind === 'slow') {
    res.end(written.text);
    return { kind: 'answered', status: written.status };
  }
  // lost-answer: the headers promise the whole body; half of it goes, then the connection closes.
  const bytes = Buffer.from(written.text);
  res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => res.destroy());
  return lost('lost-answer');
}

/**
 * Delivers an answer with its fault and says how the exchange ended (contract C2): a time-out holds the request
 * unanswered (the server's close ends it); any other fault waits its delay first, and a client that closes during
 * the wait gave up.
 */
export function deliverWithFault(
  res: ServerResponse,
  written: WireAnswer | undefined,
  fault: Fault,
): Promise<AnswerOutcome> {
  if (fault.kind === 'timeout') return Promise.resolve(lost('timeout'));
  if (fault.delayMs === 0) return Promise.resolve(act(res, written, fault.kind));
  return new Promise((resolve) => {
    const gaveUp = (): void => {
      clearTimeout(timer);
      resolve(lost('client-gave-up'));
    };
    const timer = setTimeout(() => {
      res.off('close', gaveUp);
      resolve(act(res, written, fault.kind));
    }, fault.delayMs);
    res.once('close', gaveUp);
  });
}

/** The request log's words for a fault: its kind and who asked for it (no field value). */
export const faultWords = (fault: Fault): string =>
  `fault=${fault.kind}${fault.kind === 'slow' ? `-${fault.delayMs}ms` : ''} (${fault.by})`;
