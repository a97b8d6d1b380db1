/**
 * Steps about the gateway's callbacks and the customer's return (A-31, docs/callbacks.md): a handler
 * of this run receives the callback, by the method the gateway profile names (GET with the fields
 * after the URL's own query, as the public gateways send it, unless the profile says POST), which
 * must carry the order's ids, amount and final status, signed with SHA-1(status + orderid +
 * client_orderid + key); a failing handler is called again; the hosted page sends the customer back
 * to redirect_url with the signed return fields.
 */
import { After } from '@cucumber/cucumber';
import { CALLBACK_FIELDS, CALLBACK_STATUSES, RETURN_FIELDS } from '../src/catalogue/index.ts';
import { callbackMethod, callbackRetried, callbackSigned } from '../src/rules/callbacks.ts';
import { callbackDelivered, callbackFields, customerReturn } from '../src/rules/expectations.ts';
import type { Pair } from '../src/signing/form-body.ts';
import { onLoopback } from '../src/suite/live-safety.ts';
import { CallbackHandler, type ReceivedCallback } from './support/callback-handler.ts';
import { Given, notApplicable, Then, When } from './support/verdict.ts';
import type { PayWorld } from './support/world.ts';

const handlers = new WeakMap<PayWorld, CallbackHandler>();
const handlerOf = (world: PayWorld): CallbackHandler => handlers.get(world)!;

After(async function (this: PayWorld) {
  await handlers.get(this)?.close();
});

Given('a callback handler of this run', async function (this: PayWorld) {
  const remote = this.target.callbackHandler;
  // The embedded mock, or a gateway on loopback, reaches the handler on a free loopback port; one elsewhere cannot.
  const { baseUrl } = this.target;
  if (baseUrl !== undefined && !onLoopback(baseUrl) && remote === undefined) {
    notApplicable(
      this,
      `a gateway off this machine (${new URL(baseUrl).origin}) cannot reach the run's callback handler: set ` +
        'PAYCONFORM_CALLBACK_URL (a public URL forwarded here) and PAYCONFORM_CALLBACK_PORT',
    );
  }
  const handler = new CallbackHandler();
  handlers.set(this, handler);
  await handler.start(remote?.port ?? 0, remote?.url);
});

Given('the handler answers 503 to the first callback', function (this: PayWorld) {
  handlerOf(this).failNext(1);
});

When(
  'I send a signed {string} request with the handler as server_callback_url',
  async function (this: PayWorld, operation: string) {
    await this.sendSigned(operation, await this.requestFor(operation, [['server_callback_url', handlerOf(this).url]]));
  },
);

const value = (pairs: readonly Pair[], name: string): string | undefined => pairs.find(([n]) => n === name)?.[1];

/** The callbacks of the last request's order: waited for up to the poll deadline (A-23: how long a gateway takes is not shown). */
async function callbacksOf(world: PayWorld, count: number): Promise<ReceivedCallback[]> {
  const orderid = world.answer(
    'paynet-order-id',
    world.exchanges.find((x) => x.request.params.some(([n]) => n === 'server_callback_url')),
  );
  if (orderid === undefined)
    throw new Error('the order id of the request with server_callback_url is missing in its answer');
  const got = await handlerOf(world).forOrder(orderid, count, world.target.pollDeadlineMs);
  world.expect(got.length >= count, {
    check: `callbacks of order ${orderid}`,
    expected: `${count} within ${world.target.pollDeadlineMs} ms (PAYCONFORM_POLL_DEADLINE_MS)`,
    actual: String(got.length),
    rule: callbackDelivered.id,
  });
  for (const callback of got) arrivedAsSent(world, callback);
  return got;
}

/** How a callback came: the profile's method, and the handler URL's own query kept as it was. */
function arrivedAsSent(world: PayWorld, callback: ReceivedCallback): void {
  const expected = world.target.profile.callbacks.method;
  const method = callbackMethod.check({ method: callback.method, expected });
  world.expect(method.outcome !== 'fail', {
    check: 'callback method',
    expected,
    actual: method.outcome === 'fail' ? method.evidence.message : callback.method,
    rule: callbackMethod.id,
  });
  const own = handlerOf(world).ownQuery;
  const kept =
    own.length === callback.own.length &&
    own.every(([n, v], i) => callback.own[i]![0] === n && callback.own[i]![1] === v);
  world.expect(kept, {
    check: "callback URL's own query",
    expected: own.map(([n, v]) => `${n}=${v}`).join('&') || '(none)',
    actual: callback.own.map(([n, v]) => `${n}=${v}`).join('&') || '(none)',
    rule: callbackDelivered.id,
  });
}

Then('the handler receives the callback of the order', async function (this: PayWorld) {
  await callbacksOf(this, 1);
});

Then(
  "the callback carries the order's ids, amount and final status, signed with the callback formula",
  async function (this: PayWorld) {
    const [callback] = await callbacksOf(this, 1);
    if (callback === undefined) return;
    const sent = this.exchanges.find((x) => x.request.params.some(([n]) => n === 'server_callback_url'))!;
    const { pairs } = callback;
    const expect = (name: string, wanted: string | undefined): void => {
      this.expect(value(pairs, name) === wanted, {
        check: `callback field ${name}`,
        expected: wanted ?? '(absent)',
        actual: value(pairs, name) ?? '(absent)',
        rule: callbackFields.id,
      });
    };
    for (const name of CALLBACK_FIELDS)
      this.expect(value(pairs, name) !== undefined, {
        check: 'callback fields',
        expected: CALLBACK_FIELDS.join(', '),
        actual: `no ${name}`,
        rule: callbackFields.id,
      });
    expect('orderid', this.answer('paynet-order-id', sent));
    expect('client_orderid', value(sent.request.params, 'client_orderid'));
    expect('merchant_order', value(sent.request.params, 'client_orderid'));
    expect('amount', value(sent.request.params, 'amount'));
    this.expect((CALLBACK_STATUSES as readonly string[]).includes(value(pairs, 'status') ?? ''), {
      check: 'callback status',
      expected: CALLBACK_STATUSES.join(' or '),
      actual: value(pairs, 'status') ?? '(absent)',
      rule: callbackFields.id,
    });
    signed(this, 'callback control', pairs);
  },
);

/** The control of a callback or return, by the rule. */
function signed(world: PayWorld, check: string, pairs: readonly Pair[]): boolean {
  const outcome = callbackSigned.check({ pairs, controlKey: world.target.credentials.controlKey });
  return world.expect(outcome.outcome !== 'fail', {
    check,
    expected: 'SHA-1(status + orderid + client_orderid + merchant_control_key), lowercase hex',
    actual: outcome.outcome === 'fail' ? outcome.evidence.message : 'valid',
    rule: callbackSigned.id,
  });
}

Then('the gateway sends the callback again after the failed answer', async function (this: PayWorld) {
  const got = await callbacksOf(this, 2);
  const retried = callbackRetried.check({ answers: got.map((g) => g.answered) });
  this.expect(retried.outcome === 'pass', {
    check: 'callback retry',
    expected: 'a second callback after the handler answered 503',
    actual: got.map((g) => g.answered).join(', ') || 'none',
    rule: callbackRetried.id,
  });
  if (got.length < 2) return;
  signed(this, "the retried callback's control", got[1]!.pairs);
  this.expect(value(got[1]!.pairs, 'status') === value(got[0]!.pairs, 'status'), {
    check: 'callback retry',
    expected: 'the same callback again',
    actual: `status ${value(got[1]!.pairs, 'status')}`,
    rule: callbackDelivered.id,
  });
});

/** The customer's return: the paid hosted page's self-submitting form to redirect_url. */
Then('the customer is sent back to redirect_url with the signed return fields', function (this: PayWorld) {
  const form = /<form id="return" method="post" action="([^"]*)">(.*?)<\/form>/s.exec(this.paidPage ?? '');
  const redirectUrl = value(this.last.request.params, 'redirect_url');
  if (
    !this.expect(form !== null, {
      check: 'customer return',
      expected: `a POST form to ${redirectUrl}`,
      actual: 'none on the paid page',
      rule: customerReturn.id,
    })
  )
    return;
  const unescape = (s: string): string => s.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)));
  const pairs: Pair[] = [...form![2]!.matchAll(/name="([^"]*)" value="([^"]*)"/g)].map((m) => [
    unescape(m[1]!),
    unescape(m[2]!),
  ]);
  this.expect(unescape(form![1]!) === redirectUrl, {
    check: 'customer return',
    expected: redirectUrl ?? '',
    actual: unescape(form![1]!),
    rule: customerReturn.id,
  });
  this.expect(
    RETURN_FIELDS.every((name) => value(pairs, name) !== undefined),
    {
      check: 'customer return fields',
      expected: RETURN_FIELDS.join(', '),
      actual: pairs.map(([n]) => n).join(', '),
      rule: customerReturn.id,
    },
  );
  this.expect(
    value(pairs, 'orderid') === this.answer('paynet-order-id') &&
      value(pairs, 'client_orderid') === value(this.last.request.params, 'client_orderid'),
    {
      check: 'customer return ids',
      expected: "the order's orderid and client_orderid",
      actual: `${value(pairs, 'orderid')} ${value(pairs, 'client_orderid')}`,
      rule: customerReturn.id,
    },
  );
  signed(this, 'customer return control', pairs);
});
