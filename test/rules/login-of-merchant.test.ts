// A login request field names the endpoint's merchant (A-35, issue 42): the family's public status page lists
// "login: Merchant login name. Mandatory" and signs it with that account's control key. Another login is
// refused, naming the field, never echoing the value; a request without one is not this rule's.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testMerchant } from '../../src/gateway/merchants.ts';
import { loginOfMerchant } from '../../src/rules/login-of-merchant.ts';
import type { Merchant } from '../../src/rules/merchant.ts';
import { NonceStore } from '../../src/rules/nonces.ts';
import { RequestUnderTest } from '../../src/rules/request.ts';
import { encodeForm, type Pair } from '../../src/signing/form-body.ts';
import { evidence, reason } from './outcomes.ts';

const shop: Merchant = { ...testMerchant(), login: 'acme-shop', endpointIds: ['1001'], endpointGroupIds: ['2001'] };
const other: Merchant = { ...testMerchant(), login: 'other-shop', endpointIds: ['3003'], endpointGroupIds: [] };

const request = (pairs: Pair[], path = '/api/v2/status/1001') =>
  new RequestUnderTest(
    { method: 'POST', url: `http://h${path}`, headers: {}, body: Buffer.from(encodeForm(pairs)) },
    {
      merchants: [shop, other],
      windowSeconds: 300,
      now: () => 0,
      nonces: new NonceStore(300),
      maxBodyBytes: 1e6,
      explain: false,
    },
  );
const judge = (pairs: Pair[], path?: string) => loginOfMerchant.check(request(pairs, path));
const ORDER: Pair[] = [
  ['client_orderid', 'ORD-1'],
  ['orderid', '100000000'],
];

describe('login-of-merchant', () => {
  it("passes the endpoint's merchant's login, through its endpoint id or its group id", () => {
    assert.equal(judge([['login', 'acme-shop'], ...ORDER]).outcome, 'pass');
    assert.equal(judge([['login', 'acme-shop'], ...ORDER], '/api/v2/status/group/2001').outcome, 'pass');
    assert.equal(judge([['login', 'other-shop'], ...ORDER], '/api/v2/status/3003').outcome, 'pass');
    // "Leading and trailing whitespace in input parameters will be omitted" (the public request pages).
    assert.equal(judge([['login', ' acme-shop\t'], ...ORDER]).outcome, 'pass');
  });

  it("refuses another merchant's login, an unknown one and one that differs in case, never echoing it", () => {
    for (const login of ['other-shop', 'payconform-test-merchant', 'ACME-SHOP', 'acme-shop2', '']) {
      assert.deepEqual(
        evidence(judge([['login', login], ...ORDER])),
        {
          message: 'login: is not the login of the merchant of endpoint 1001',
          field: 'login',
          expected: "the login of the endpoint's merchant",
          actual: 'another login',
        },
        login,
      );
    }
    // Through the group id, the group is named.
    assert.equal(
      evidence(judge([['login', 'other-shop'], ...ORDER], '/api/v2/status/group/2001')).message,
      'login: is not the login of the merchant of endpoint 2001',
    );
  });

  it('judges every login field sent, a second one included', () => {
    assert.equal(
      evidence(
        judge([
          ['login', 'acme-shop'],
          ['login', 'other-shop'],
        ]),
      ).field,
      'login',
    );
  });

  it('skips a request that sends no login (the schema says where one is mandatory)', () => {
    assert.equal(reason(judge(ORDER)), 'no login field in this request');
  });

  it('needs the endpoint, the form and its merchant, and is a configuration fix', () => {
    assert.deepEqual(loginOfMerchant.needs, ['endpoint', 'form', 'merchant']);
    assert.equal(loginOfMerchant.fixedIn, 'configuration');
    assert.throws(() => loginOfMerchant.check(request([['login', 'acme-shop']], '/api/v2/status/999')), /internal/);
  });

  it('is refused by the mock as FIELD_INVALID, 400, and rests on A-6 and A-35 with the public page named', () => {
    assert.deepEqual(loginOfMerchant.refusals, [{ status: 400, code: 'FIELD_INVALID' }]);
    assert.deepEqual(loginOfMerchant.assumptions, ['A-6', 'A-35']);
    assert.equal(loginOfMerchant.basis, 'assumption');
    assert.match(
      loginOfMerchant.clause,
      /https:\/\/doc\.payneteasy\.com\/integration\/API_commands\/api_v2_status\.html/,
    );
  });
});
