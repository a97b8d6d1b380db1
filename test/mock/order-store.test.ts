// The mock keeps at most maxOrders orders (and as many card references and recurring payments):
// past the limit the oldest is forgotten, one for each new one, in the order they were made.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { OP } from '../../src/catalogue/index.ts';
import { OrderStore, sharedCents, type NewOrder } from '../../src/mock/orders.ts';

const fields = (merchantOrderId: string): NewOrder => ({
  merchantLogin: 'm',
  operation: OP.SALE,
  merchantOrderId,
  amountCents: 1000n,
  amount: '10.00',
  currency: 'EUR',
  finalStatus: 'approved',
  awaiting3ds: false,
  awaitingCheckout: false,
  card: undefined,
  callbackUrl: undefined,
  notify: false,
  redirectUrl: undefined,
});

describe('order store limit', () => {
  it('forgets the oldest orders past the limit, one for each new one, round after round', () => {
    const store = new OrderStore(3);
    const ids = Array.from({ length: 8 }, (_, i) => store.create(fields(`o-${i}`)).paynetOrderId);
    // 8 made, 3 kept: o-5, o-6, o-7.
    assert.deepEqual(
      ids.map((id) => store.byId(id)?.merchantOrderId),
      [undefined, undefined, undefined, undefined, undefined, 'o-5', 'o-6', 'o-7'],
    );
    assert.equal(store.size, 3);
    assert.equal(store.find(ids[7] ?? '', 'm')?.merchantOrderId, 'o-7');
    assert.equal(store.find(ids[7] ?? '', 'other'), undefined);
  });

  it('keeps card references to the same limit', () => {
    const store = new OrderStore(2);
    const card = { bin: '411111', lastFour: '1111', printedName: '', expireMonth: '12', expireYear: '30' };
    const outcome = { finalStatus: 'approved', awaiting3ds: false, what: 'approved' } as const;
    for (const id of ['r1', 'r2', 'r3']) store.cardRefs.add(id, { id, merchantLogin: 'm', card: { ...card, outcome } });
    assert.deepEqual(
      ['r1', 'r2', 'r3'].map((id) => store.cardRefs.get(id)?.id),
      [undefined, 'r2', 'r3'],
    );
  });

  it('a limit below 1 keeps the newest order only', () => {
    const store = new OrderStore(0);
    const ids = ['a', 'b', 'c'].map((o) => store.create(fields(o)).paynetOrderId);
    assert.deepEqual(
      ids.map((id) => store.byId(id)?.merchantOrderId),
      [undefined, undefined, 'c'],
    );
  });

  it('keeps each order its own values while values repeated across orders are kept once', () => {
    // More distinct values than are shared at once (4,096): the first orders' values must survive the turnover.
    const store = new OrderStore(6000);
    const made = Array.from({ length: 5000 }, (_, i) =>
      store.create({
        ...fields(`o-${i}`),
        amount: `${i}.50`,
        currency: i % 2 === 0 ? 'EUR' : 'USD',
        redirectUrl: `https://merchant.example/return/${i}`,
        callbackUrl: i % 3 === 0 ? 'https://merchant.example/callback' : undefined,
      }),
    );
    for (const i of [0, 1, 2, 4095, 4096, 4097, 4999]) {
      const order = store.byId(made[i]?.paynetOrderId ?? '');
      assert.equal(order?.amount, `${i}.50`);
      assert.equal(order.currency, i % 2 === 0 ? 'EUR' : 'USD');
      assert.equal(order.redirectUrl, `https://merchant.example/return/${i}`);
      assert.equal(order.callbackUrl, i % 3 === 0 ? 'https://merchant.example/callback' : undefined);
    }
    // Cents by hand: 4999.50 is 499950 cents, 0.07 is 7.
    assert.equal(sharedCents('499950'), 499950n);
    assert.equal(sharedCents('7'), 7n);
  });
});
