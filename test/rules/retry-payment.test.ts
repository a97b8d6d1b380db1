// The payment a start makes, as no-new-order-while-unknown tells one from another: merchant, operation,
// amount in cents, currency and card; the card kept only inside a SHA-256, never as its number.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testMerchant } from '../../src/gateway/merchants.ts';
import { NonceStore } from '../../src/rules/nonces.ts';
import { paymentOf } from '../../src/rules/payment.ts';
import { hasFacts, RequestUnderTest } from '../../src/rules/request.ts';

const merchant = testMerchant();
const other = { ...merchant, login: 'other-merchant', endpointIds: ['1002'], endpointGroupIds: [] };

function payment(body: string, operation = 'sale', endpointId = '1001'): string | undefined {
  const req = new RequestUnderTest(
    { method: 'POST', url: `http://h/paynet/api/v2/${operation}/${endpointId}`, headers: {}, body: Buffer.from(body) },
    {
      merchants: [merchant, other],
      windowSeconds: 300,
      now: () => 0,
      nonces: new NonceStore(300),
      maxBodyBytes: 4096,
      explain: false,
    },
  );
  assert.ok(hasFacts(req, ['endpoint', 'merchant']));
  return paymentOf(req);
}

const CARD = 'credit_card_number=4111111111111111';
const base = `amount=10.00&currency=EUR&${CARD}`;

describe('paymentOf (A-60)', () => {
  it('is one 64-hex fingerprint for the same payment, whatever the amount is written as or the card grouped as', () => {
    const p = payment(base);
    assert.match(p ?? '', /^[0-9a-f]{64}$/);
    assert.doesNotMatch(p ?? '', /4111111111111111/);
    assert.equal(payment('amount=10&currency=EUR&credit_card_number=4111%201111%201111%201111'), p);
  });

  it('differs by amount, currency, card, operation and merchant', () => {
    const p = payment(base);
    for (const q of [
      payment(`amount=10.01&currency=EUR&${CARD}`),
      payment(`amount=10.00&currency=USD&${CARD}`),
      payment('amount=10.00&currency=EUR&credit_card_number=5555555555554444'),
      payment(base, 'preauth'),
      payment(base, 'sale', '1002'),
    ])
      assert.notEqual(q, p);
  });

  it('takes a card reference for a rebill, and is undefined where the request names no card (a hosted form)', () => {
    assert.match(payment('amount=10.00&currency=EUR&cardrefid=7715', 'make-rebill') ?? '', /^[0-9a-f]{64}$/);
    assert.equal(payment('amount=10.00&currency=EUR', 'sale-form'), undefined);
  });
});
