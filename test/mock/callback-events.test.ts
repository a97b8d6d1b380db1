// The callbacks each event on demand sends (src/gateway/callback-events.ts), signed as every callback is: the
// expected pairs are written out here, the control computed by hand as SHA-1(status + orderid + client_orderid +
// key) with node:crypto, never by the code under test.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { CALLBACK_EVENTS, eventDelivery, otherFinalStatus } from '../../src/gateway/callback-events.ts';
import { callbackPairs, type CallbackFacts } from '../../src/signing/callback.ts';

const KEY = 'TEST-KEY-events';
const sha1 = (text: string): string => createHash('sha1').update(text, 'utf8').digest('hex');
const approved: CallbackFacts = {
  orderid: '100000007',
  clientOrderId: 'ORD-7',
  amount: '12.50',
  status: 'approved',
  type: 'sale',
};

/** The pairs a callback with this status and type must carry, in the family's field order. */
const expected = (status: string, type: string): (readonly [string, string])[] => [
  ['orderid', '100000007'],
  ['merchant_order', 'ORD-7'],
  ['client_orderid', 'ORD-7'],
  ['amount', '12.50'],
  ['status', status],
  ['type', type],
  ['control', sha1(`${status}100000007ORD-7${KEY}`)],
];

const signed = (event: (typeof CALLBACK_EVENTS)[number], facts = approved): (readonly [string, string])[][] => {
  const delivery = eventDelivery(event, facts);
  assert.ok(typeof delivery !== 'string', typeof delivery === 'string' ? delivery : '');
  return delivery.callbacks.map((f) => callbackPairs(f, KEY));
};

describe('events on demand: the callbacks they send', () => {
  it('names the five events the issue asks for', () => {
    assert.deepEqual([...CALLBACK_EVENTS], ['chargeback', 'reversal', 'repeat', 'late', 'duplicate']);
  });

  it('chargeback and reversal: the order, approved, with the type chargeback or reversal', () => {
    assert.deepEqual(signed('chargeback'), [expected('approved', 'chargeback')]);
    assert.deepEqual(signed('reversal'), [expected('approved', 'reversal')]);
    // The control covers status, orderid, client_orderid only: the sale's own control (sha1sum by hand).
    assert.equal(signed('chargeback')[0]!.at(-1)![1], 'bcf8602ce355a3b801a61e41e5e550b7f5e0d463');
  });

  it('repeat sends the final callback once more; duplicate twice, together', () => {
    assert.deepEqual(signed('repeat'), [expected('approved', 'sale')]);
    assert.deepEqual(signed('duplicate'), [expected('approved', 'sale'), expected('approved', 'sale')]);
    const duplicate = eventDelivery('duplicate', approved);
    const repeat = eventDelivery('repeat', approved);
    assert.ok(typeof duplicate !== 'string' && typeof repeat !== 'string');
    assert.deepEqual([duplicate.together, repeat.together], [true, false]);
  });

  it('late claims another final status: declined after approved, approved after any other', () => {
    assert.deepEqual(signed('late'), [expected('declined', 'sale')]);
    assert.deepEqual(signed('late', { ...approved, status: 'declined' }), [expected('approved', 'sale')]);
    assert.deepEqual(['approved', 'declined', 'filtered', 'error'].map(otherFinalStatus), [
      'declined',
      'approved',
      'approved',
      'approved',
    ]);
  });

  it('a chargeback or reversal of an order that is not approved cannot happen, and says why', () => {
    for (const event of ['chargeback', 'reversal'] as const)
      assert.equal(
        eventDelivery(event, { ...approved, status: 'declined' }),
        `a ${event} needs an approved order; this one is declined`,
      );
  });
});
