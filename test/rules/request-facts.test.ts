// The typed request value: facts derived once (or handed over by a caller that has them), the
// amount's cents among them, and rules that receive their facts typed and refuse to run without them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { matchPath } from '../../src/catalogue/index.ts';
import { testMerchant } from '../../src/gateway/merchants.ts';
import { amountFormat } from '../../src/rules/fields.ts';
import { NonceStore } from '../../src/rules/nonces.ts';
import { noOAuthInBody, requiredMethod } from '../../src/rules/oauth.ts';
import { RequestUnderTest, type RuleContext } from '../../src/rules/request.ts';
import { judgeRequest } from '../../src/rules/run.ts';

const context: RuleContext = {
  merchants: [testMerchant()],
  windowSeconds: 300,
  now: () => 0,
  nonces: new NonceStore(300),
  maxBodyBytes: 1024,
  explain: false,
};
const request = (url: string, body?: string): RequestUnderTest =>
  new RequestUnderTest(
    { method: 'POST', url, headers: {}, body: body === undefined ? undefined : Buffer.from(body) },
    context,
  );

describe('the request value', () => {
  it('keeps the amount in cents, worked out by hand: 10.5 is 1050, .05 is 5, 007 is 700', () => {
    for (const [amount, cents] of [
      ['10.5', '1050'],
      ['.05', '5'],
      ['007', '700'],
    ]) {
      assert.deepEqual(request('http://h/api/v2/sale/1', `amount=${amount}`).amount, { cents });
    }
  });

  it('says what is wrong with an amount the signer cannot read, and nothing where there is none', () => {
    const bad = request('http://h/api/v2/sale/1', 'amount=1e3').amount;
    assert.equal(bad?.cents, undefined);
    assert.match(bad?.problem ?? '', /^amount: exponent notation is not allowed/);
    assert.equal(request('http://h/api/v2/sale/1', 'x=1').amount, undefined);
    assert.equal(request('http://h/api/v2/sale/1').amount, undefined, 'no body read yet');
  });

  it('amount-format judges the cents the request kept', () => {
    assert.equal(amountFormat.check(request('http://h/api/v2/sale/1', 'amount=10.005')).outcome, 'fail');
    assert.equal(amountFormat.check(request('http://h/api/v2/sale/1', 'amount=10.00')).outcome, 'pass');
    assert.equal(amountFormat.check(request('http://h/api/v2/sale/1', 'x=1')).outcome, 'skip');
  });

  it('takes a match and a form handed over by a caller instead of deriving them again', () => {
    const match = matchPath('/api/v2/payout/9');
    const req = new RequestUnderTest({ method: 'POST', url: 'http://h/not-an-endpoint', headers: {} }, context, {
      match,
      params: [['amount', '1.00']],
    });
    assert.equal(req.match, match);
    assert.deepEqual(req.params, [['amount', '1.00']]);
    assert.deepEqual(req.amount, { cents: '100' });
  });
});

describe('rules receive their facts typed', () => {
  it('a rule run without a fact it needs is skipped by the runner, not crashed', () => {
    // No endpoint: the path names none. no-oauth-in-body reads the endpoint's scheme, so it needs it.
    const req = request('http://h/nowhere/1', 'oauth_nonce=n');
    const judged = judgeRequest([noOAuthInBody], req);
    assert.equal(judged[0]?.outcome.outcome, 'skip');
  });

  it('called directly without its facts, a rule throws an internal error naming itself, not a refusal', () => {
    assert.throws(
      () => noOAuthInBody.check(request('http://h/nowhere/1', 'oauth_nonce=n')),
      (err: Error) =>
        !('code' in err) && /internal: rule no-oauth-in-body was run without endpoint, form/.test(err.message),
    );
    assert.throws(() => requiredMethod(request('http://h/nowhere/1')), /internal: requiredMethod/);
  });
});
