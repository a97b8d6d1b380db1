// The control key sent in a request (Scheme A rule 4: "The control key is never sent"): found in a form field, the
// URL and a header, as sent or percent-encoded once or twice, named by where it stood and never quoted; a value that
// only shares a prefix with the key passes. The requests are written here by hand, not by payconform's client.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testMerchant } from '../../src/gateway/merchants.ts';
import { BODY_RULES } from '../../src/rules/book.ts';
import { noControlKeyInRequest } from '../../src/rules/no-control-key-in-request.ts';
import { OrderHistory } from '../../src/rules/history.ts';
import { NonceStore } from '../../src/rules/nonces.ts';
import { RequestUnderTest, type RuleContext } from '../../src/rules/request.ts';
import { isCritical } from '../../src/rules/severity.ts';

const merchant = testMerchant();
const KEY = merchant.merchantControlKey;
const context: RuleContext = {
  merchants: [merchant],
  windowSeconds: 300,
  now: Date.now,
  nonces: new NonceStore(300),
  prefix: undefined,
  maxBodyBytes: 64 * 1024,
  explain: true,
  history: new OrderHistory(),
};
const URL_ = 'http://127.0.0.1:8080/paynet/api/v2/sale/1001';
const HEADERS = { accept: 'application/vnd.pay+json', 'content-type': 'application/x-www-form-urlencoded' };
const FORM = 'client_orderid=A-1&amount=10.00&currency=EUR&control=0123456789abcdef0123456789abcdef01234567';

function judged(body: string, more: { headers?: Record<string, string>; url?: string } = {}) {
  const req = new RequestUnderTest(
    {
      method: 'POST',
      url: more.url ?? URL_,
      headers: { ...HEADERS, ...more.headers },
      body: Buffer.from(body),
    },
    context,
  );
  return noControlKeyInRequest.check(req);
}

/** The failure's message, which must name where the key stood and never hold it in any written form. */
function leakMessage(outcome: ReturnType<typeof judged>): string {
  assert.equal(outcome.outcome, 'fail', JSON.stringify(outcome));
  const { message } = (outcome as { evidence: { message: string } }).evidence;
  for (const form of [KEY, encodeURIComponent(KEY), KEY.slice(0, 12)]) assert.ok(!message.includes(form), message);
  return message;
}

// The test merchant's key with every dash escaped by hand (%2D), and that escape escaped again (%252D).
const ONCE = KEY.replaceAll('-', '%2D');
const TWICE = KEY.replaceAll('-', '%252D');

describe('no-control-key-in-request', () => {
  it('passes a request without the key, and one whose value only shares a prefix with it', () => {
    assert.equal(judged(FORM).outcome, 'pass');
    assert.equal(judged(`${FORM}&comment=${KEY.slice(0, -1)}`).outcome, 'pass');
    assert.equal(judged(`${FORM}&comment=${KEY.slice(1)}X`).outcome, 'pass');
  });

  it('finds the key in a form field, as sent, percent-encoded once and twice, and names the field', () => {
    for (const value of [KEY, ONCE, TWICE, `prefix${KEY}suffix`]) {
      const message = leakMessage(judged(`merchant_control=${value}&${FORM}`));
      assert.equal(
        message,
        'leak: the merchant control key is sent in the form field "merchant_control"; it is a secret, never sent',
      );
    }
    assert.match(leakMessage(judged(`${FORM}&control_key=${ONCE}`)), /the form field "control_key"/);
  });

  it('finds it in a header, in a Basic password, and in the URL', () => {
    assert.match(leakMessage(judged(FORM, { headers: { 'x-control-key': KEY } })), /the header "x-control-key"/);
    const basic = `Basic ${Buffer.from(`${merchant.login}:${KEY}`).toString('base64')}`;
    assert.match(leakMessage(judged(FORM, { headers: { authorization: basic } })), /the header "authorization"/);
    assert.match(
      leakMessage(judged(FORM, { url: `${URL_}?merchant_control_key=${ONCE}` })),
      /the URL query parameter "merchant_control_key"/,
    );
  });

  it('looks for no key shorter than 8 characters, which ordinary text holds ("amount")', () => {
    const short = { ...context, merchants: [{ ...merchant, merchantControlKey: 'amount' }] };
    const req = new RequestUnderTest({ method: 'POST', url: URL_, headers: HEADERS, body: Buffer.from(FORM) }, short);
    assert.equal(noControlKeyInRequest.check(req).outcome, 'pass');
  });

  it('names no field whose own name holds the key', () => {
    assert.match(leakMessage(judged(`${KEY}=1&${FORM}`)), /a form field whose name holds it/);
  });

  it('is the first body rule, critical, and refuses with 400 CONTROL_KEY_SENT', () => {
    assert.equal(BODY_RULES[0], noControlKeyInRequest);
    assert.equal(isCritical('no-control-key-in-request'), true);
    assert.equal(isCritical('control-signature'), false);
    assert.deepEqual(noControlKeyInRequest.refusals, [{ status: 400, code: 'CONTROL_KEY_SENT' }]);
  });
});
