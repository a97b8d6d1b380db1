/**
 * `payconform trigger EVENT`: tells a running mock, or inspect's embedded mock, to deliver an event for an order
 * (docs/callbacks.md, "Events on demand"), or moves its clock on (`trigger clock --advance 2h`, docs/mock.md).
 * It speaks to the admin route on loopback with the run's token, and prints what was delivered: the order, each
 * callback's status, type and amount, and the handler's answer; never the control.
 */
import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { CALLBACK_EVENTS } from '../../gateway/callback-events.ts';
import { fieldError, PayconformError } from '../../errors.ts';
import { parseDuration } from '../../gateway/duration.ts';
import { wholeNumber } from '../../whole-number.ts';
import { oneOf, onePositional, str } from '../args.ts';
import type { Command, ExitCode } from '../command.ts';

const EVENTS = [...CALLBACK_EVENTS, 'clock'] as const;

/** What the admin route answers: an event's report, the clock, or a refusal. */
interface AdminBody {
  readonly error?: string;
  readonly orderid?: string;
  readonly client_orderid?: string;
  readonly callbacks?: ReadonlyArray<{
    status: string;
    type: string;
    amount: string;
    target: string;
    outcome: string;
    answered?: number;
    error?: string;
  }>;
  readonly now?: string;
  readonly offsetMs?: number;
}

/** The token: --token, --token-file or $PAYCONFORM_ADMIN_TOKEN, exactly one. */
function tokenOf(values: Record<string, unknown>, env: Record<string, string | undefined>): string {
  oneOf(values as never, 'token', ['token-file']);
  const file = str(values['token-file'] as string | undefined);
  let token = str(values.token as string | undefined) ?? env.PAYCONFORM_ADMIN_TOKEN;
  if (file !== undefined) {
    try {
      token = readFileSync(file, 'utf8').trim();
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'error';
      throw fieldError('ERR_USAGE', '--token-file', `cannot read ${file} (${code})`, err);
    }
  }
  if (token === undefined || !/^\S{1,256}$/.test(token))
    throw fieldError(
      'ERR_USAGE',
      '--token',
      'give the admin token the mock or inspect printed at start (--token, --token-file or PAYCONFORM_ADMIN_TOKEN)',
    );
  return token;
}

/** The gateway's origin: an http URL of the running mock or inspect (the admin route is on loopback only). */
function gatewayOf(text: string | undefined): URL {
  const url = text === undefined ? undefined : URL.canParse(text) ? new URL(text) : undefined;
  if (url === undefined || url.protocol !== 'http:')
    throw fieldError('ERR_USAGE', '--gateway', 'must be the http URL the mock or inspect printed (listening on …)');
  return url;
}

export const triggerCommand: Command = {
  spec: {
    name: 'trigger',
    summary:
      'Tells a running mock or inspect to deliver an event for an order (chargeback, reversal, repeat, late, ' +
      'duplicate), or moves its clock on (clock --advance 2h).',
    usage:
      'payconform trigger EVENT --gateway URL --order CLIENT_ORDERID [--merchant LOGIN] ' +
      '[--token T | --token-file F] [--timeout-ms MS]\n' +
      '       payconform trigger clock --gateway URL --advance DURATION [--token T | --token-file F]',
    positionals: true,
    options: {
      gateway: {
        type: 'string',
        valueName: 'URL',
        description: 'the URL the mock or inspect printed (listening on …)',
      },
      order: { type: 'string', valueName: 'CLIENT_ORDERID', description: "the order's client_orderid" },
      merchant: {
        type: 'string',
        valueName: 'LOGIN',
        description: 'the merchant who made the order (default: whoever made the newest order with that id)',
      },
      token: {
        type: 'string',
        valueName: 'T',
        description: "the run's admin token, printed at start (or $PAYCONFORM_ADMIN_TOKEN)",
      },
      'token-file': { type: 'string', valueName: 'F', description: 'read the token from F (mock --admin-token-file)' },
      advance: {
        type: 'string',
        valueName: 'DURATION',
        description: "clock only: how far to move the mock's clock on, such as 2h, 90m, 30s, 1d",
      },
      'timeout-ms': {
        type: 'string',
        valueName: 'MS',
        description: "how long to wait for the gateway's answer, the handler's first answers included (default 30000)",
      },
    },
    epilog:
      `EVENT: ${CALLBACK_EVENTS.join(', ')} (docs/callbacks.md, "Events on demand"), or clock (docs/mock.md).\n` +
      'Exit 0: every callback was answered 200 (or the clock moved); 1: the gateway refused the event (unknown ' +
      'order, impossible event) or a handler did not answer 200 (the gateway retries it); 2: bad input, a wrong ' +
      'token or no gateway there.\n\nExample:\n  payconform trigger chargeback --gateway http://127.0.0.1:18130 ' +
      '--order ORD-1 --token-file token.txt',
  },
  async run({ values, positionals }, io): Promise<ExitCode> {
    const event = onePositional(positionals, 'EVENT', `give one event: ${EVENTS.join(', ')}`);
    if (!(EVENTS as readonly string[]).includes(event))
      throw fieldError('ERR_USAGE', 'EVENT', `must be one of ${EVENTS.join(', ')} (got "${event.slice(0, 20)}")`);
    const gateway = gatewayOf(str(values.gateway));
    const timeoutMs = wholeNumber(str(values['timeout-ms']), '--timeout-ms', 1, 600_000) ?? 30_000;
    let route: string;
    let body: object;
    if (event === 'clock') {
      const advance = str(values.advance);
      const ms = advance === undefined ? undefined : parseDuration(advance);
      if (ms === undefined || ms < 0)
        throw fieldError('ERR_USAGE', '--advance', 'must be a duration forward such as 2h, 90m, 30s, 1d');
      route = 'clock';
      body = { advance: advance?.replace(/^\+/, '') };
    } else {
      const order = str(values.order);
      if (order === undefined || order === '' || order.length > 128)
        throw fieldError('ERR_USAGE', '--order', "must be the order's client_orderid (1 to 128 characters)");
      if (values.advance !== undefined) throw fieldError('ERR_USAGE', '--advance', 'goes with clock only');
      const merchant = str(values.merchant);
      route = 'events';
      body = { event, order, ...(merchant === undefined ? {} : { merchant }) };
    }
    const token = tokenOf(values, io.env);
    const target = new URL(`/_payconform/${route}`, gateway.origin);
    let status: number;
    let answer: AdminBody;
    try {
      const res = await request(target, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      status = res.statusCode;
      const text = (await res.body.text()).slice(0, 65_536);
      try {
        answer = JSON.parse(text) as AdminBody;
      } catch {
        answer = { error: `not the admin route's answer (HTTP ${status}): is ${gateway.origin} a payconform mock?` };
      }
    } catch (err) {
      const why = (err as { name?: string }).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : '';
      const code = why || `no answer (${(err as { code?: string }).code ?? 'error'})`;
      throw new PayconformError('ERR_IO', `--gateway: ${code} from ${gateway.origin}`, {
        field: '--gateway',
        rule: 'reachable',
        cause: err,
      });
    }
    if (status === 401 || status === 403)
      throw fieldError('ERR_USAGE', '--token', `the gateway refused it (${status}): ${answer.error ?? ''}`);
    if (status !== 200) {
      io.stderr(`payconform trigger: ${event} refused (${status}): ${answer.error ?? '-'}`);
      return 1;
    }
    if (event === 'clock') {
      io.stdout(`clock: now ${answer.now} (${Math.round((answer.offsetMs ?? 0) / 1000)} s ahead of real time)`);
      return 0;
    }
    io.stdout(`${event}: order ${answer.orderid} (client_orderid ${answer.client_orderid})`);
    let allTaken = true;
    for (const cb of answer.callbacks ?? []) {
      const got = cb.answered === undefined ? `no answer (${cb.error ?? '-'})` : `answered ${cb.answered}`;
      allTaken &&= cb.answered === 200;
      io.stdout(
        `  callback status=${cb.status} type=${cb.type} amount=${cb.amount} to ${cb.target}: ${got}, ${cb.outcome}`,
      );
    }
    return allTaken ? 0 : 1;
  },
};
