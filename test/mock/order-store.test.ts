// The mock keeps at most maxOrders orders (and as many card references and recurring payments):
// past the limit the oldest is forgotten, one for each new one, in the order they were made.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
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

const CARD = {
  bin: '411111',
  lastFour: '1111',
  printedName: '',
  expireMonth: '12',
  expireYear: '30',
  outcome: { finalStatus: 'approved', awaiting3ds: false, what: 'approved' },
} as const;

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
    const ids = [1, 2, 3].map(() => store.addCardRef('m', CARD).id);
    assert.deepEqual(
      ids.map((id) => store.findCardRef(id, 'm')?.id),
      [undefined, ids[1], ids[2]],
    );
  });

  it('finds an id only in its canonical decimal form', () => {
    const store = new OrderStore(10);
    const id = store.create(fields('o')).paynetOrderId;
    assert.equal(id, '100000000'); // the first id the mock has always issued
    assert.equal(store.byId(id)?.merchantOrderId, 'o');
    for (const other of ['0100000000', '+100000000', '100000000.0', ' 100000000', '1e8', '100000000 ', '', 'x']) {
      assert.equal(store.byId(other), undefined, other);
    }
  });

  it('finds what a plain list of the newest entries holds, whatever the mix of kinds and the limit', () => {
    // The model: every entry made, each kind's newest `max` kept; ids looked up made, forgotten or never issued.
    const step = fc.oneof(
      fc.constant({ make: 'order' as const }),
      fc.constant({ make: 'card-ref' as const }),
      fc.constant({ make: 'recurring' as const }),
      fc.record({ look: fc.nat(40), login: fc.constantFrom('m', 'n') }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 7 }), fc.array(step, { maxLength: 60, size: 'max' }), (max, steps) => {
        const store = new OrderStore(max);
        const made: { kind: string; id: string; login: string }[] = [];
        for (const s of steps) {
          if ('make' in s) {
            const login = made.length % 3 === 0 ? 'n' : 'm';
            const id =
              s.make === 'order'
                ? store.create({ ...fields(`o-${made.length}`), merchantLogin: login }).paynetOrderId
                : s.make === 'card-ref'
                  ? store.addCardRef(login, CARD).id
                  : store.addRecurring({
                      merchantLogin: login,
                      cardRef: { id: '1', merchantLogin: login, card: CARD },
                      amount: '1.00',
                      currency: 'EUR',
                    }).id;
            made.push({ kind: s.make, id, login });
            continue;
          }
          const id = String(100000000 + s.look);
          const entry = made.find((e) => e.id === id);
          const kept = entry !== undefined && made.filter((e) => e.kind === entry.kind && e.id > id).length < max;
          const expect = (kind: string) => (kept && entry.kind === kind && entry.login === s.login ? id : undefined);
          assert.equal(store.find(id, s.login)?.paynetOrderId, expect('order'));
          assert.equal(store.findCardRef(id, s.login)?.id, expect('card-ref'));
          assert.equal(store.findRecurring(id, s.login)?.id, expect('recurring'));
          assert.equal(store.byId(id)?.paynetOrderId, kept && entry.kind === 'order' ? id : undefined);
        }
        assert.equal(store.size, Math.min(max, made.filter((e) => e.kind === 'order').length));
      }),
      { numRuns: 300 },
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
