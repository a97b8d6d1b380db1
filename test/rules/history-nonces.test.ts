// What the rules remember between requests: client order ids per merchant and nonces per consumer
// key within the replay window, each at its boundary, with times in seconds worked out by hand.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { OrderHistory } from '../../src/rules/history.ts';
import { NonceStore } from '../../src/rules/nonces.ts';

describe('OrderHistory', () => {
  it('knows an order id per merchant, and whether status was asked since it was last sent', () => {
    const h = new OrderHistory();
    assert.equal(h.earlier('m', 'o-1'), undefined);
    h.start('m', 'o-1');
    assert.deepEqual(h.earlier('m', 'o-1'), { statusSince: false, made: false, told: false });
    assert.equal(h.earlier('other', 'o-1'), undefined);
    h.statusAsked('m', 'o-1');
    assert.deepEqual(h.earlier('m', 'o-1'), { statusSince: true, made: false, told: false });
    h.start('m', 'o-1');
    assert.deepEqual(
      h.earlier('m', 'o-1'),
      { statusSince: false, made: false, told: false },
      'sent again: no status since',
    );
  });

  it('a status for an order never started records nothing', () => {
    const h = new OrderHistory();
    h.statusAsked('m', 'o-2');
    assert.equal(h.earlier('m', 'o-2'), undefined);
  });

  it('keeps merchant and order id apart: ("ab", "c") is not ("a", "bc")', () => {
    const h = new OrderHistory();
    h.start('ab', 'c');
    assert.equal(h.earlier('a', 'bc'), undefined);
    h.statusAsked('a', 'bc');
    assert.deepEqual(h.earlier('ab', 'c'), { statusSince: false, made: false, told: false });
  });
});

describe('NonceStore (window 300 s)', () => {
  const T = 10_000; // the nonce's oauth_timestamp

  it('refuses a nonce again while its timestamp could be accepted, up to two windows after it (T + 600)', () => {
    const s = new NonceStore(300);
    assert.equal(s.remember('k', 'n', T, T), true);
    assert.equal(s.remember('k', 'n', T, T), false);
    assert.equal(s.remember('k', 'n', T, T + 300), false, 'the last second the timestamp rule takes T');
    assert.equal(s.remember('k', 'n', T, T + 600), false, 'kept through T + 2 × 300');
    assert.equal(s.remember('k', 'n', T, T + 601), true, 'forgotten after');
  });

  it('a nonce is per consumer key: ("ab", "c") is not ("a", "bc")', () => {
    const s = new NonceStore(300);
    assert.equal(s.remember('ab', 'c', T, T), true);
    assert.equal(s.remember('a', 'bc', T, T), true);
    assert.equal(s.remember('other', 'c', T, T), true);
    assert.equal(s.size, 3);
  });

  it('sweeps expired nonces once a window has passed since the last sweep, keeping those that expire now', () => {
    const s = new NonceStore(10);
    // Window 10: a nonce of timestamp t expires at t + 20. No sweep yet (the clock starts at 0).
    s.remember('k', 'a', -20, 5); // expires 0
    s.remember('k', 'b', -10, 5); // expires 10
    assert.equal(s.size, 2);
    s.remember('k', 'c', 10, 9); // 9 - 0 < 10: no sweep
    assert.equal(s.size, 3);
    s.remember('k', 'd', 10, 10); // 10 - 0 ≥ 10: sweeps a (0 < 10), keeps b (expires at 10)
    assert.equal(s.size, 3);
    s.remember('k', 'e', 10, 19); // 19 - 10 < 10: b (expired at 10) is still kept
    assert.equal(s.size, 4);
    s.remember('k', 'f', 10, 20); // sweeps b
    assert.equal(s.size, 4);
  });
});
