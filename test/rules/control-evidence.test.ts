// The control rules' outcomes in detail (api-spec.md Scheme A; A-1): what each says, and when each
// does not apply, on requests written by hand. Control values are SHA-1 digests computed here.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { testMerchant } from '../../src/gateway/merchants.ts';
import { controlFormat, controlPresent, controlSignature } from '../../src/rules/control.ts';
import { NonceStore } from '../../src/rules/nonces.ts';
import { RequestUnderTest } from '../../src/rules/request.ts';
import type { Outcome } from '../../src/rules/rule.ts';
import { evidence, reason } from './outcomes.ts';

const merchant = testMerchant();
const [endpointId = ''] = merchant.endpointIds;
const SALE = `http://h/paynet/api/v2/sale/${endpointId}`;
const PAYOUT = `http://h/paynet/api/v2/payout/${endpointId}`;
const FIELDS = 'client_orderid=A-1&amount=10.50&email=a%40b.example';
/** SALE: endpointId + client_orderid + amount in cents + email + merchant_control_key. */
const GOOD = createHash('sha1').update(`${endpointId}A-11050a@b.example${merchant.merchantControlKey}`).digest('hex');

const judge = (rule: { check(req: RequestUnderTest): Outcome }, url: string, body: string): Outcome =>
  rule.check(
    new RequestUnderTest(
      { method: 'POST', url, headers: {}, body: Buffer.from(body) },
      {
        merchants: [merchant],
        windowSeconds: 300,
        now: Date.now,
        nonces: new NonceStore(300),
        maxBodyBytes: 1e6,
        explain: false,
      },
    ),
  );

describe('control rules, in detail', () => {
  it('do not apply to an endpoint signed with OAuth, and say so', () => {
    for (const rule of [controlPresent, controlFormat, controlSignature])
      assert.equal(reason(judge(rule, PAYOUT, 'amount=1.00')), 'the endpoint is not signed with a control field');
  });

  it('control-present: names the field that is missing', () => {
    assert.deepEqual(evidence(judge(controlPresent, SALE, FIELDS)), { message: 'control: missing', field: 'control' });
    assert.equal(judge(controlPresent, SALE, `${FIELDS}&control=${GOOD}`).outcome, 'pass');
  });

  it("control-present and control-format need no merchant: an endpoint id that is no merchant's is judged too", () => {
    const unowned = 'http://h/paynet/api/v2/sale/987654321';
    assert.ok(!merchant.endpointIds.includes('987654321'));
    assert.equal(evidence(judge(controlPresent, unowned, FIELDS)).message, 'control: missing');
    assert.equal(evidence(judge(controlFormat, unowned, `${FIELDS}&control=x`)).actual, '1 characters');
  });

  it('control-format: says how many characters came, or how many control fields', () => {
    const short = evidence(judge(controlFormat, SALE, `${FIELDS}&control=${GOOD.slice(1)}`));
    assert.equal(short.message, 'control: must appear once, as 40 lowercase hex digits (SHA-1)');
    assert.equal(short.field, 'control');
    assert.equal(short.expected, '40 lowercase hex digits, once');
    assert.equal(short.actual, '39 characters');
    const twice = evidence(judge(controlFormat, SALE, `${FIELDS}&control=${GOOD}&control=${GOOD}`));
    assert.equal(twice.actual, '2 control fields');
    assert.equal(reason(judge(controlFormat, SALE, FIELDS)), 'no control field');
    assert.equal(judge(controlFormat, SALE, `${FIELDS}&control=${GOOD}`).outcome, 'pass');
  });

  it("control-signature: passes the hand-computed digest, names the operation's formula otherwise", () => {
    assert.equal(judge(controlSignature, SALE, `${FIELDS}&control=${GOOD}`).outcome, 'pass');
    const other = createHash('sha1').update(`${endpointId}A-11050a@b.exampleother`).digest('hex');
    const wrong = evidence(judge(controlSignature, SALE, `${FIELDS}&control=${other}`));
    assert.equal(wrong.message, "control: does not match SALE's formula");
    assert.equal(wrong.field, 'control');
    assert.equal(
      reason(judge(controlSignature, SALE, `${FIELDS}&control=${GOOD}&control=${GOOD}`)),
      'no single control field',
    );
    assert.equal(reason(judge(controlSignature, SALE, FIELDS)), 'no single control field');
  });
});
