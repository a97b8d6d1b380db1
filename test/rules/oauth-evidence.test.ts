// The OAuth rules' outcomes in detail (api-spec.md Scheme B; A-9, A-22, A-26): what each says, which
// field it names, and when it stands aside, on requests and headers written by hand. Only the
// signature rule needs a real signature; these rules judge the header's shape, so its value is a stub.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { NonceStore } from '../../src/rules/nonces.ts';
import {
  consumerKeyKnown,
  noOAuthInBody,
  nonceUnique,
  oauthBodyConsistent,
  oauthHeaderFormat,
  oauthHeaderPresent,
  oauthTimestampWindow,
  oauthVersion,
  signatureMethod,
} from '../../src/rules/oauth.ts';
import { RequestUnderTest } from '../../src/rules/request.ts';
import type { Outcome } from '../../src/rules/rule.ts';
import { header, merchant, NOW_S, oauthRequest, PROTOCOL, set } from './oauth-fixture.ts';
import { evidence, reason } from './outcomes.ts';

const [endpointId = ''] = merchant.endpointIds;
const PAYOUT = `http://h/paynet/api/v2/payout/${endpointId}`; // HMAC-SHA1
const V4 = `http://h/paynet/api/v4/payout/${endpointId}`; // RSA-SHA256
const SALE = `http://h/paynet/api/v2/sale/${endpointId}`; // control
const request = (url: string, authorization: string | undefined, body?: string, nonces?: NonceStore) =>
  oauthRequest(url, authorization, { body, nonces });
const judge = (rule: { check(req: RequestUnderTest): Outcome }, req: RequestUnderTest): Outcome => rule.check(req);

describe('OAuth rules, in detail', () => {
  it('stand aside on a control endpoint, saying so', () => {
    for (const rule of [oauthHeaderPresent, oauthHeaderFormat, oauthBodyConsistent, signatureMethod, oauthVersion])
      assert.equal(
        reason(judge(rule, request(SALE, undefined))),
        'does not apply: the endpoint is not signed with OAuth',
      );
  });

  it('oauth-header-present: a missing header is named, and said to be missing', () => {
    const e = evidence(judge(oauthHeaderPresent, request(PAYOUT, undefined)));
    assert.equal(e.message, 'authorization: missing: an OAuth Authorization header is required');
    assert.equal(e.field, 'authorization');
    assert.equal(judge(oauthHeaderPresent, request(PAYOUT, header(PROTOCOL))).outcome, 'pass');
  });

  it("oauth-header-format: the parser's reason, or the first missing parameter as the field", () => {
    assert.equal(reason(judge(oauthHeaderFormat, request(PAYOUT, undefined))), 'no Authorization header');
    const basic = evidence(judge(oauthHeaderFormat, request(PAYOUT, 'Basic eDp5')));
    assert.equal(basic.field, 'authorization');
    assert.match(basic.message, /^authorization: .*OAuth/);
    for (const [name] of PROTOCOL) {
      const e = evidence(judge(oauthHeaderFormat, request(PAYOUT, header(PROTOCOL.filter(([n]) => n !== name)))));
      assert.equal(e.message, `authorization: ${name} is missing`);
      assert.equal(e.field, name);
    }
    assert.equal(judge(oauthHeaderFormat, request(PAYOUT, header(PROTOCOL))).outcome, 'pass');
  });

  it('rules after the header checks are not reached without every parameter', () => {
    const partial = request(PAYOUT, header(PROTOCOL.slice(1)));
    for (const rule of [
      oauthBodyConsistent,
      consumerKeyKnown,
      signatureMethod,
      oauthVersion,
      oauthTimestampWindow,
      nonceUnique,
    ])
      assert.match(reason(judge(rule, partial)), /^not reached: no well-formed Authorization header/);
  });

  it('oauth-body-consistent: a body oauth_* that differs from the header is named; a repeat passes (A-26)', () => {
    const differs = evidence(
      judge(oauthBodyConsistent, request(PAYOUT, header(PROTOCOL), 'amount=1&oauth_nonce=other')),
    );
    assert.equal(differs.field, 'oauth_nonce');
    assert.match(differs.message, /^oauth_nonce: in the form body it must repeat the Authorization header's value/);
    assert.equal(
      judge(oauthBodyConsistent, request(PAYOUT, header(PROTOCOL), 'amount=1&oauth_nonce=n-1')).outcome,
      'pass',
    );
  });

  it('consumer-key-known: a login no merchant has is named', () => {
    const unknown = evidence(judge(consumerKeyKnown, request(PAYOUT, header(set('oauth_consumer_key', 'nobody')))));
    assert.equal(unknown.message, 'authorization: oauth_consumer_key is not a known merchant login');
    assert.equal(unknown.field, 'oauth_consumer_key');
    assert.equal(judge(consumerKeyKnown, request(PAYOUT, header(PROTOCOL))).outcome, 'pass');
  });

  it('signature-method: names the method sent, the operation and the method it requires', () => {
    const e = evidence(judge(signatureMethod, request(V4, header(PROTOCOL))));
    assert.equal(e.message, 'authorization: oauth_signature_method is HMAC-SHA1; PAYOUT_V4 requires RSA-SHA256');
    assert.deepEqual([e.field, e.expected, e.actual], ['oauth_signature_method', 'RSA-SHA256', 'HMAC-SHA1']);
    assert.equal(judge(signatureMethod, request(PAYOUT, header(PROTOCOL))).outcome, 'pass');
  });

  it('oauth-version: 1.0 or none passes; another is named (A-9)', () => {
    const e = evidence(judge(oauthVersion, request(PAYOUT, header([...PROTOCOL, ['oauth_version', '2.0']]))));
    assert.equal(e.message, 'authorization: oauth_version must be 1.0 (got 2.0)');
    assert.deepEqual([e.field, e.expected, e.actual], ['oauth_version', '1.0', '2.0']);
    assert.equal(judge(oauthVersion, request(PAYOUT, header([...PROTOCOL, ['oauth_version', '1.0']]))).outcome, 'pass');
    assert.equal(judge(oauthVersion, request(PAYOUT, header(PROTOCOL))).outcome, 'pass');
  });

  it('oauth-timestamp-window: the edges of ±300 s pass, one second more fails; milliseconds are named (A-22)', () => {
    const at = (t: string) => judge(oauthTimestampWindow, request(PAYOUT, header(set('oauth_timestamp', t))));
    assert.equal(at(String(NOW_S - 300)).outcome, 'pass');
    assert.equal(at(String(NOW_S + 300)).outcome, 'pass');
    const late = evidence(at(String(NOW_S - 301)));
    assert.equal(late.message, "authorization: oauth_timestamp must be within 300 s of the server's clock");
    assert.deepEqual([late.field, late.expected, late.actual], ['oauth_timestamp', 'within ±300 s', '301 s away']);
    const ms = evidence(at(String(NOW_S * 1000)));
    assert.match(
      ms.message,
      new RegExp(`; ${NOW_S * 1000} looks like milliseconds, and oauth_timestamp is in seconds$`),
    );
    assert.equal(evidence(at('12.5')).actual, 'not a whole number');
    assert.doesNotMatch(evidence(at('99999999999')).message, /milliseconds/, '1e11 - 1 is not called milliseconds');
  });

  it('nonce-unique: the same nonce twice from one merchant fails the second time', () => {
    const nonces = new NonceStore(300);
    assert.equal(judge(nonceUnique, request(PAYOUT, header(PROTOCOL), 'amount=1', nonces)).outcome, 'pass');
    const again = evidence(judge(nonceUnique, request(PAYOUT, header(PROTOCOL), 'amount=1', nonces)));
    assert.equal(again.message, 'authorization: oauth_nonce was already used within the timestamp window');
    assert.equal(again.field, 'oauth_nonce');
  });

  it('no-oauth-in-body: names the fields on RSA-SHA256, stands aside on HMAC-SHA1 (A-26)', () => {
    const body = 'amount=1&oauth_nonce=n&oauth_nonce=m&oauth_timestamp=1';
    const e = evidence(judge(noOAuthInBody, request(V4, undefined, body)));
    assert.equal(e.message, 'oauth_nonce, oauth_timestamp in the form body');
    assert.equal(e.field, 'oauth_nonce');
    assert.match(reason(judge(noOAuthInBody, request(PAYOUT, undefined, body))), /^HMAC-SHA1: /);
    assert.equal(judge(noOAuthInBody, request(V4, undefined, 'amount=1')).outcome, 'pass');
  });
});
