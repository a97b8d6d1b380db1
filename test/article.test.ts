// "a" or "an" before a word a message is built from (a field name, an order status): no "a orderid".
// Expected articles are written by hand, as English reads each word.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { withArticle } from '../src/article.ts';
import { OP } from '../src/catalogue/index.ts';
import { ORDER_RULES } from '../src/rules/book.ts';

describe('withArticle', () => {
  for (const [word, expected] of [
    ['orderid', 'an orderid'],
    ['amount', 'an amount'],
    ['email', 'an email'],
    ['error', 'an error'],
    ['unknown', 'an unknown'],
    ['approved', 'an approved'],
    ['ipaddress', 'an ipaddress'],
    ['cardrefid', 'a cardrefid'],
    ['recurring-payment-id', 'a recurring-payment-id'],
    ['declined', 'a declined'],
    ['processing', 'a processing'],
    ['user', 'a user'],
    ['unique', 'a unique'],
    ['uuid', 'a uuid'],
    ['one-time', 'a one-time'],
  ] as const) {
    it(`${word}: ${expected}`, () => assert.equal(withArticle(word), expected));
  }

  it('an order rule says "an error preauth", not "a error preauth"', () => {
    const rule = ORDER_RULES.find((r) => r.id === 'order-approved')! as {
      check(input: unknown): { outcome: string; message?: string };
    };
    const parent = {
      operation: OP.PREAUTH,
      finalStatus: 'error',
      awaiting3ds: false,
      awaitingCheckout: false,
      voided: false,
      amountCents: 1000n,
      capturedCents: 0n,
      returnedCents: 0n,
    };
    const result = rule.check({ operation: OP.CAPTURE, parent });
    assert.equal(result.outcome, 'fail');
    assert.match(JSON.stringify(result), /orderid: an error preauth cannot be captured/);
  });
});
