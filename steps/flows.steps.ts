/**
 * Steps of business flows: orders followed through `status` to a final state (polling with back-off
 * up to a deadline; against the mock its fixed schedule means no waiting), earlier results reused
 * ("the order", "the card reference"), the hosted payment page, and 3-D Secure.
 */
import { Given, Then, When } from '@cucumber/cucumber';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { PREREQUISITES } from '../src/catalogue/index.ts';
import { testCard } from './support/cards.ts';
import { shown, type PayWorld } from './support/world.ts';

const FINAL = new Set(['approved', 'declined', 'filtered', 'error']);

/** Polls status for an order until a final state or the deadline; the delay grows 1.5× up to 5 s. */
async function finalStatus(world: PayWorld, orderid: string): Promise<string> {
  const deadline = Date.now() + world.target.pollDeadlineMs;
  let delay = world.target.pollIntervalMs;
  for (;;) {
    const x = await world.sendSigned('STATUS', await world.requestFor('STATUS', [['orderid', orderid]]));
    assert.equal(x.status, 200, `status of ${orderid}: ${shown(x)}`);
    assert.deepEqual(x.problems, []);
    const status = world.answer('status', x)!;
    // unknown is a final status, but no outcome for an order the gateway itself accepted: it lost it.
    assert.notEqual(status, 'unknown', `status of ${orderid} says unknown: the gateway lost an order it accepted`);
    if (FINAL.has(status)) return status;
    if (Date.now() + delay > deadline) assert.fail(`order ${orderid} still ${status} after ${world.target.pollDeadlineMs} ms (PAYCONFORM_POLL_DEADLINE_MS)`);
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(Math.max(delay * 1.5, 50), 5_000);
  }
}

/** The order the last answer started. */
function orderOf(world: PayWorld): string {
  const id = world.answer('paynet-order-id');
  assert.ok(id, 'the last answer names no paynet-order-id');
  return id;
}

Then('the order ends {string}', async function (this: PayWorld, expected: string) {
  assert.equal(await finalStatus(this, orderOf(this)), expected);
});

Then('the order reaches a final status', async function (this: PayWorld) {
  await finalStatus(this, orderOf(this));
});

Then('the order is still {string}', async function (this: PayWorld, expected: string) {
  const orderid = this.known.get('orderid') ?? orderOf(this);
  await this.sendSigned('STATUS', await this.requestFor('STATUS', [['orderid', orderid]]));
  assert.equal(this.answer('status'), expected);
});

Given('an approved {string} order of {string}', async function (this: PayWorld, operation: string, amount: string) {
  await this.sendSigned(operation, await this.requestFor(operation, [['amount', amount]]));
  assert.equal(this.last.status, 200, shown(this.last));
  const orderid = orderOf(this);
  assert.equal(await finalStatus(this, orderid), 'approved');
  this.known.set('orderid', orderid);
});

Given('a {string} order paid with the {string} test card', async function (this: PayWorld, operation: string, card: string) {
  await this.sendSigned(operation, await this.requestFor(operation, [['credit_card_number', testCard(card)]]));
  assert.equal(this.last.status, 200, shown(this.last));
  this.known.set('orderid', orderOf(this));
});

/** Remembers an id the last answer made, for the requests that act on it (catalogue PREREQUISITES). */
When('I keep the {string} of the answer', function (this: PayWorld, answerField: string) {
  const prerequisite = Object.values(PREREQUISITES).find((p) => p?.answer === answerField);
  assert.ok(prerequisite, `no operation takes a ${answerField}`);
  const value = this.answer(answerField);
  assert.ok(value, `the answer has no ${answerField}: ${shown(this.last)}`);
  this.known.set(prerequisite.field, value);
});

Then('status shows a 3-D Secure form', async function (this: PayWorld) {
  const orderid = this.known.get('orderid')!;
  await this.sendSigned('STATUS', await this.requestFor('STATUS', [['orderid', orderid]]));
  await this.sendSigned('STATUS', await this.requestFor('STATUS', [['orderid', orderid]]));
  assert.equal(this.answer('status'), 'processing');
  assert.match(this.answer('html') ?? '', /<form/);
});

Then('the kept order ends {string}', async function (this: PayWorld, expected: string) {
  assert.equal(await finalStatus(this, this.known.get('orderid')!), expected);
});

/** The customer's part of a hosted form: open the page from redirect-url and pay with a test card. */
When('the customer pays on the hosted page with the {string} test card', async function (this: PayWorld, card: string) {
  const redirect = this.answer('redirect-url');
  assert.ok(redirect, 'the answer has no redirect-url');
  const page = await request(redirect);
  const html = await page.body.text();
  assert.equal(page.statusCode, 200);
  assert.match(html, /name="credit_card_number"/, 'the page asks for a card number');
  const body = new URLSearchParams({ credit_card_number: testCard(card), card_printed_name: 'JANE DOE', expire_month: '12', expire_year: '30', cvv2: '123' }).toString();
  const paid = await request(redirect, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  await paid.body.text();
  assert.equal(paid.statusCode, 200, 'the page accepts the payment');
});

Given('the base URL has a path prefix before {string}', function (this: PayWorld, api: string) {
  const path = new URL(this.client.options.baseUrl).pathname.replace(/\/+$/, '');
  assert.ok(path !== '', `the base URL ${new URL(this.client.options.baseUrl).origin} has no prefix before ${api}`);
});

Then('the request went to the prefix', function (this: PayWorld) {
  const prefix = new URL(this.client.options.baseUrl).pathname.replace(/\/+$/, '');
  assert.ok(new URL(this.last.request.url).pathname.startsWith(`${prefix}/api/`), this.last.request.url);
});
