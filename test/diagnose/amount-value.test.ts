// A partner who sends the amount in cents (amount=1000 for an order of 10.00) and signs 1000 as the cents. Signing
// the cents of the field as sent (100000) would make a valid request that charges 1000.00: diagnose must say the
// amount field's value itself is wrong, and never propose a value to sign. The control is computed here by hand.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { diagnose } from '../../src/rules/diagnose.ts';
import { MISTAKES } from '../../src/signing/diagnose/index.ts';
import type { Pair } from '../../src/signing/form-body.ts';

const KEY = 'TEST-ONLY-key-7';
const sha1 = (s: string): string => createHash('sha1').update(s).digest('hex');
const url = 'https://gate.example/paynet/api/v2/sale/9876';
const params: Pair[] = [
  ['client_orderid', 'ORD-1'],
  ['amount', '1000'],
  ['email', 'jane@example.com'],
];

describe('the amount sent in cents (amount=1000 for 10.00)', () => {
  // SALE: endpointId + client_orderid + amount in cents + email + key; the partner's "cents" are the field itself.
  const given = sha1(`9876ORD-11000jane@example.com${KEY}`);
  const d = diagnose({ request: { url, params }, credentials: { controlKey: KEY }, given: { control: given } });

  it('is not told decimal-amount, whose fix (sign 100000) would charge 1000.00', () => {
    assert.equal(d.verdict, 'invalid');
    assert.ok(!d.defects.includes('decimal-amount'), d.defects.join());
  });

  it("says the amount field's value itself is wrong, and names the field", () => {
    assert.deepEqual(d.defects, ['amount-value-wrong']);
    assert.equal(d.wrongValue, 'amount');
    assert.match(d.message, /the amount field's value itself is wrong: correct it, not the signature/);
    assert.match(d.explanations?.['amount-value-wrong'] ?? '', /as if it held the cents of 10\.00/);
  });

  it('proposes no amount to sign: neither the fix nor the explanation names the cents of 1000.00', () => {
    const m = MISTAKES.find((x) => x.id === 'amount-value-wrong');
    assert.ok(m);
    for (const text of [m.fix, d.explanations?.['amount-value-wrong'] ?? '', d.message])
      assert.doesNotMatch(text, /sign(ing)? (the )?100000|sign 100000/i, text);
    assert.match(m.fix, /Correct the amount field, not the signature/);
  });

  it('still names decimal-amount for a decimal amount signed as sent (10.00): its fix keeps 10.00', () => {
    const decimal: Pair[] = params.map(([n, v]) => [n, n === 'amount' ? '10.00' : v]);
    const sent = sha1(`9876ORD-110.00jane@example.com${KEY}`);
    const dd = diagnose({
      request: { url, params: decimal },
      credentials: { controlKey: KEY },
      given: { control: sent },
    });
    assert.deepEqual([dd.defects, dd.wrongValue], [['decimal-amount'], undefined]);
  });
});
