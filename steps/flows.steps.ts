/**
 * Steps of business flows: orders followed through `status` to a final state (polling with back-off
 * up to a deadline; against the mock its fixed schedule means no waiting), earlier results reused
 * ("the order", "the card reference"), the hosted payment page, and 3-D Secure.
 */
import assert from 'node:assert/strict';
import { request } from 'undici';
import { PREREQUISITES } from '../src/catalogue/index.ts';
import { orderKept } from '../src/rules/answers.ts';
import { answerFieldPresent, orderMoves } from '../src/rules/expectations.ts';
import { answerFailure } from '../src/rules/judge-answer.ts';
import { statusTransactionType } from '../src/rules/status-transaction-type.ts';
import { overCaptureAmounts } from '../src/suite/live-safety.ts';
import type { AnswerField } from '../src/suite/profile.ts';
import { Given, notApplicable, Then, When } from './support/verdict.ts';
import { shown, type PayWorld } from './support/world.ts';

/**
 * Polls status for an order until a final state (the profile's, A-28) or the deadline (A-23: how long
 * a gateway takes is not shown); the delay grows 1.5× up to 5 s. The status request's own 200 is the
 * spec's; undefined when the order did not end in time (a warning against a gateway, not the mock).
 */
async function finalStatus(world: PayWorld, orderid: string): Promise<string | undefined> {
  const deadline = Date.now() + world.target.pollDeadlineMs;
  const final = new Set(world.profile.finalStatuses.map((status) => status.toLowerCase()));
  let delay = world.target.pollIntervalMs;
  for (;;) {
    const x = await world.sendSigned('STATUS', await world.requestFor('STATUS', [['orderid', orderid]]));
    world.expect(x.status === 200, {
      check: 'STATUS status',
      expected: '200',
      actual: String(x.status),
      kind: 'refused-met',
      detail: `status of ${orderid}: ${shown(x)}`,
    });
    const status = needed(world, 'status', x);
    // unknown is a final status, but no outcome for an order the gateway itself accepted: it lost it.
    const lost = answerFailure({ ...x.seen, orderStatus: status }, orderKept.id);
    world.expect(lost === undefined, {
      check: `status of ${orderid}`,
      expected: lost?.expected ?? 'processing or a final status',
      actual: status,
      rule: orderKept.id,
    });
    if (final.has(status)) return status;
    if (Date.now() + delay > deadline) {
      world.expect(false, {
        check: `status of ${orderid}`,
        expected: `a final status (${[...final].join(', ')}) within ${world.target.pollDeadlineMs} ms (PAYCONFORM_POLL_DEADLINE_MS)`,
        actual: status,
        rule: orderMoves.id,
      });
      return undefined;
    }
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(Math.max(delay * 1.5, 50), 5_000);
  }
}

/**
 * An answer field the suite cannot go on without (an order id to poll, a status to read). Its name is
 * an assumption, which a gateway profile renames, but a missing one fails: nothing after it can run.
 */
function needed(world: PayWorld, name: AnswerField, x = world.last): string {
  const value = world.answer(name, x);
  assert.ok(
    value !== undefined,
    `${x.operation} answered ${x.status} with no "${world.answerName(name)}": the suite needs it to go on (name it in a gateway profile's answerFields.${name}, docs/certify.md): ${shown(x)}`,
  );
  return value;
}

/** Expects a final status: that a given card ends so is the mock's, a gateway profile names its own cards. */
function expectStatus(world: PayWorld, orderid: string, actual: string | undefined, expected: string): void {
  if (actual === undefined) return;
  world.expect(actual === expected, { check: `final status of ${orderid}`, expected, actual, rule: orderMoves.id });
}

Then('the order ends {string}', async function (this: PayWorld, expected: string) {
  const orderid = needed(this, 'paynet-order-id');
  expectStatus(this, orderid, await finalStatus(this, orderid), expected);
});

Then('the order reaches a final status', async function (this: PayWorld) {
  await finalStatus(this, needed(this, 'paynet-order-id'));
});

/** After "the order ends": the last status answer names what shop plugins book the order by. */
Then('its status names the transaction type {string}', function (this: PayWorld, expected: string) {
  const seen = {
    what: this.answerName('transaction-type'),
    expected: [expected],
    actual: this.answer('transaction-type')?.toLowerCase(),
  };
  const outcome = statusTransactionType.check(seen);
  this.expect(outcome.outcome === 'pass', {
    check: `${this.last.operation} answer field`,
    expected: `${seen.what} ${expected}`,
    actual: seen.actual ?? 'none',
    rule: statusTransactionType.id,
    detail: shown(this.last),
  });
});

Then('the order is still {string}', async function (this: PayWorld, expected: string) {
  const orderid = this.known.get('orderid') ?? needed(this, 'paynet-order-id');
  await this.sendSigned('STATUS', await this.requestFor('STATUS', [['orderid', orderid]]));
  this.expect(this.answer('status') === expected, {
    check: `status of ${orderid}`,
    expected,
    actual: this.answer('status') ?? 'none',
    rule: orderMoves.id,
  });
});

async function approvedOrder(world: PayWorld, operation: string, amount: string): Promise<void> {
  await world.sendSigned(operation, await world.requestFor(operation, [['amount', amount]]));
  world.expect(world.last.status === 200, {
    check: `${operation} status`,
    expected: '200 (accepted)',
    actual: String(world.last.status),
    kind: 'refused-met',
    detail: shown(world.last),
  });
  const orderid = needed(world, 'paynet-order-id');
  expectStatus(world, orderid, await finalStatus(world, orderid), 'approved');
  world.known.set('orderid', orderid);
}

Given('an approved {string} order of {string}', async function (this: PayWorld, operation: string, amount: string) {
  await approvedOrder(this, operation, amount);
});

/** Amounts taken from the run's cap (PAYCONFORM_MAX_AMOUNT), so a live run sends them: nothing above the cap leaves. */
function overCapture(world: PayWorld): { authorised: string; capture: string } {
  const amounts = overCaptureAmounts(world.target.maxAmountCents);
  return amounts ?? notApplicable(world, 'PAYCONFORM_MAX_AMOUNT is below 0.02: no amount and a cent more fit under it');
}

Given('an approved {string} order of half the amount cap', async function (this: PayWorld, operation: string) {
  await approvedOrder(this, operation, overCapture(this).authorised);
});

When(
  'I send a signed {string} request for a cent more than that order',
  async function (this: PayWorld, operation: string) {
    await this.sendSigned(operation, await this.requestFor(operation, [['amount', overCapture(this).capture]]));
  },
);

Given(
  'a {string} order paid with the {string} test card',
  async function (this: PayWorld, operation: string, card: string) {
    await this.sendSigned(operation, await this.requestFor(operation, [['credit_card_number', this.card(card)]]));
    this.expect(this.last.status === 200, {
      check: `${operation} status`,
      expected: '200 (accepted)',
      actual: String(this.last.status),
      kind: 'refused-met',
      detail: shown(this.last),
    });
    this.known.set('orderid', needed(this, 'paynet-order-id'));
  },
);

/** Remembers an id the last answer made, for the requests that act on it (catalogue PREREQUISITES). */
When('I keep the {string} of the answer', function (this: PayWorld, answerField: AnswerField) {
  const prerequisite = Object.values(PREREQUISITES).find((p) => p?.answer === answerField);
  assert.ok(prerequisite, `no operation takes a ${answerField}`);
  this.known.set(prerequisite.field, needed(this, answerField));
});

/** The mock's 3-D Secure step: status answers processing with the form in html. */
Then('status shows a 3-D Secure form', async function (this: PayWorld) {
  const orderid = this.known.get('orderid')!;
  await this.sendSigned('STATUS', await this.requestFor('STATUS', [['orderid', orderid]]));
  await this.sendSigned('STATUS', await this.requestFor('STATUS', [['orderid', orderid]]));
  this.expect(this.answer('status') === 'processing', {
    check: `status of ${orderid}`,
    expected: 'processing (waiting for 3-D Secure)',
    actual: this.answer('status') ?? 'none',
    rule: orderMoves.id,
  });
  this.expect(/<form/.test(this.answer('html') ?? ''), {
    check: `status of ${orderid}`,
    expected: 'a 3-D Secure form in html',
    actual: 'none',
    rule: answerFieldPresent.id,
  });
});

Then('the kept order ends {string}', async function (this: PayWorld, expected: string) {
  const orderid = this.known.get('orderid')!;
  expectStatus(this, orderid, await finalStatus(this, orderid), expected);
});

/** The customer's part of a hosted form: open the page from redirect-url and pay with a test card. */
When('the customer pays on the hosted page with the {string} test card', async function (this: PayWorld, card: string) {
  const redirect = needed(this, 'redirect-url');
  const page = await request(redirect);
  const html = await page.body.text();
  assert.equal(page.statusCode, 200);
  assert.match(html, /name="credit_card_number"/, 'the page asks for a card number');
  const body = new URLSearchParams({
    credit_card_number: this.card(card),
    card_printed_name: 'JANE DOE',
    expire_month: '12',
    expire_year: '30',
    cvv2: '123',
  }).toString();
  const paid = await request(redirect, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  this.paidPage = await paid.body.text();
  assert.equal(paid.statusCode, 200, 'the page accepts the payment');
});
