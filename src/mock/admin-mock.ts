/**
 * The mock's admin route (admin.ts) wired to its orders, callbacks and clock: events on demand (events.ts) and
 * the clock (clock.ts). Each request is a line of the mock's request log, naming the route, never the token.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Merchant } from '../rules/merchant.ts';
import { ADMIN_PREFIX, ADMIN_ROUTES, serveAdmin } from './admin.ts';
import type { CallbackSender } from './callbacks.ts';
import { clockAnswer, type MockClock } from './clock.ts';
import { deliverEvent, eventRequestOf } from './events.ts';
import type { OrderStore } from './orders.ts';

export interface MockAdminContext {
  readonly token: string;
  readonly orders: OrderStore;
  readonly merchants: readonly Merchant[];
  readonly clock: MockClock;
  readonly sender: Pick<CallbackSender, 'event'>;
  readonly log?: ((line: string) => void) | undefined;
}

/** The handler of requests under /_payconform/. */
export function mockAdmin(ctx: MockAdminContext): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    const started = performance.now();
    const done = await serveAdmin(req, res, ctx.token, {
      events: (body) => {
        const request = eventRequestOf(body);
        if (typeof request === 'string') return { status: 400, body: { error: request } };
        return deliverEvent(request, ctx);
      },
      clock: (body) => clockAnswer(body, ctx.clock),
    });
    if (ctx.log === undefined) return;
    const route = ADMIN_ROUTES.find((r) => (req.url ?? '').split('?')[0] === `${ADMIN_PREFIX}${r}`);
    const body = done.body as { event?: string; orderid?: string; now?: string };
    const what = body.event !== undefined ? `${body.event} order ${body.orderid}` : (body.now ?? '-');
    ctx.log(
      `${new Date().toISOString()} ${String(req.method).slice(0, 10)} ${ADMIN_PREFIX}${route ?? '?'} ` +
        `${done.status} admin ${what} ${(performance.now() - started).toFixed(1)}ms`,
    );
  };
}
