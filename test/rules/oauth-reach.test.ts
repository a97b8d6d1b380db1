// The OAuth rules beyond their main failure (api-spec.md Scheme B; ): which rules a header
// without one required parameter leaves unreached, another merchant's login, long values cut to 20
// characters, timestamps that are no whole number, a replay of a nonce whose timestamp is long gone,
// the signature's words, and what each rule needs and refuses with (403 for the OAuth check, A-21).
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
  oauthSignature,
  oauthTimestampWindow,
  oauthVersion,
  signatureMethod,
} from '../../src/rules/oauth.ts';
import { judgeRequest } from '../../src/rules/run.ts';
import { header, NOW_S, oauthRequest, PROTOCOL, set, type P } from './oauth-fixture.ts';
import { evidence, reason } from './outcomes.ts';

const PAYOUT = 'http://h/api/v2/payout/1001'; // HMAC-SHA1
const V4 = 'http://h/api/v4/payout/1001'; // RSA-SHA256
const request = (url: string, authorization: string | undefined, nonces?: NonceStore) =>
  oauthRequest(url, authorization, { nonces });
const AFTER_HEADER = [oauthBodyConsistent, consumerKeyKnown, signatureMethod, oauthVersion, oauthTimestampWindow];

describe('OAuth rules after the header checks', () => {
  it('are not reached without a header, nor without any one required parameter', () => {
    const skipped = 'not reached: no well-formed Authorization header (the header checks say why)';
    for (const rule of [...AFTER_HEADER, nonceUnique, oauthSignature]) {
      assert.equal(reason(rule.check(request(PAYOUT, undefined))), skipped, rule.id);
      for (const [name] of PROTOCOL) {
        const without = header(PROTOCOL.filter(([n]) => n !== name));
        assert.equal(reason(rule.check(request(PAYOUT, without))), skipped, `${rule.id} without ${name}`);
      }
    }
  });

  it("consumer-key-known: another merchant's login on this merchant's endpoint id names the endpoint id", () => {
    const e = evidence(consumerKeyKnown.check(request(PAYOUT, header(set('oauth_consumer_key', 'other-merchant')))));
    assert.deepEqual(e, {
      message: 'endpointId: 1001 is not an endpoint of this merchant',
      field: 'endpointId',
      code: 'ENDPOINT_UNKNOWN',
    });
  });

  it('signature-method and oauth-version: a long value is cut to its first 20 characters', () => {
    const long = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'; // 26 letters: A to T are the first 20
    const method = evidence(signatureMethod.check(request(PAYOUT, header(set('oauth_signature_method', long)))));
    assert.equal(
      method.message,
      'authorization: oauth_signature_method is ABCDEFGHIJKLMNOPQRST; PAYOUT requires HMAC-SHA1',
    );
    assert.equal(method.actual, 'ABCDEFGHIJKLMNOPQRST');
    assert.equal(method.expected, 'HMAC-SHA1');
    const version = evidence(oauthVersion.check(request(PAYOUT, header([...PROTOCOL, ['oauth_version', long]]))));
    assert.equal(version.message, 'authorization: oauth_version must be 1.0 (got ABCDEFGHIJKLMNOPQRST)');
    assert.equal(version.actual, 'ABCDEFGHIJKLMNOPQRST');
  });

  it('oauth-timestamp-window: a fraction is no timestamp, even within the window; milliseconds only above 1e11', () => {
    const at = (t: string) => oauthTimestampWindow.check(request(PAYOUT, header(set('oauth_timestamp', t))));
    assert.equal(at(String(NOW_S)).outcome, 'pass');
    assert.equal(evidence(at(`${NOW_S}.5`)).actual, 'not a whole number');
    assert.equal(
      evidence(at('100000000000.5')).message,
      "authorization: oauth_timestamp must be within 300 s of the server's clock",
    );
    assert.equal(
      evidence(at('100000000000')).message,
      "authorization: oauth_timestamp must be within 300 s of the server's clock",
    );
    assert.equal(
      evidence(at('100000000001')).message,
      "authorization: oauth_timestamp must be within 300 s of the server's clock; 100000000001 looks like " +
        'milliseconds, and oauth_timestamp is in seconds',
    );
    assert.equal(evidence(at(String(NOW_S + 301))).actual, '-301 s away');
  });

  it('nonce-unique: a nonce is kept by its timestamp, or by the clock when the timestamp is no whole number', () => {
    const nonces = new NonceStore(300);
    const send = (pairs: P[]) => nonceUnique.check(request(PAYOUT, header(pairs), nonces)).outcome;
    // A timestamp 1000 s old can no longer be accepted: its nonce need not be refused again.
    const old = set('oauth_timestamp', String(NOW_S - 1000));
    assert.equal(send(old), 'pass');
    assert.equal(send(old), 'pass');
    const fraction = set('oauth_timestamp', '1.5');
    assert.equal(send(fraction), 'pass');
    assert.equal(send(fraction), 'fail', 'kept from now, as if sent now');
    const otherKey: P[] = [['oauth_consumer_key', 'other-merchant'], ...fraction.slice(1)];
    assert.equal(send(otherKey), 'pass', "the same nonce is another merchant's to use");
  });

  it("oauth-signature: a signature that does not verify is named in the endpoint's method", () => {
    assert.deepEqual(evidence(oauthSignature.check(request(PAYOUT, header(PROTOCOL)))), {
      message: 'authorization: HMAC-SHA1 signature does not match the request',
      field: 'oauth_signature',
    });
    const rsa = set('oauth_signature_method', 'RSA-SHA256');
    assert.equal(
      evidence(oauthSignature.check(request(V4, header(rsa)))).message,
      'authorization: RSA-SHA256 signature does not match the request',
    );
  });

  it("consumer-key-known and oauth-signature are not reached on an endpoint id that is no merchant's", () => {
    const unowned = request('http://h/api/v2/payout/9', header(PROTOCOL));
    const reasons = judgeRequest([consumerKeyKnown, oauthSignature], unowned).map(({ outcome }) => reason(outcome));
    assert.deepEqual(reasons, [
      "not reached: the endpoint id is no merchant's",
      "not reached: the endpoint id is no merchant's",
    ]);
  });
});

describe('what the OAuth rules need and refuse with', () => {
  it('each needs the facts it reads', () => {
    const needs = (rule: { needs: readonly string[] }) => rule.needs.join(' ');
    assert.deepEqual(
      [
        oauthHeaderPresent,
        oauthHeaderFormat,
        oauthBodyConsistent,
        consumerKeyKnown,
        signatureMethod,
        oauthVersion,
        oauthTimestampWindow,
        oauthSignature,
        nonceUnique,
        noOAuthInBody,
      ].map(needs),
      [
        'endpoint',
        'endpoint',
        'endpoint form',
        'endpoint merchant',
        'endpoint',
        'endpoint',
        'endpoint',
        'endpoint form merchant',
        'endpoint',
        'endpoint form',
      ],
    );
  });

  it('refuses a bad OAuth check with 403, a body or endpoint id problem with 400 (A-21)', () => {
    const codes = (rule: { refusals: readonly { status: number; code: string }[] }) =>
      rule.refusals.map((r) => `${r.status} ${r.code}`).join(', ');
    assert.equal(codes(oauthHeaderPresent), '403 AUTH_HEADER_MISSING');
    assert.equal(codes(oauthHeaderFormat), '403 AUTH_HEADER_MALFORMED');
    assert.equal(codes(oauthBodyConsistent), '403 OAUTH_PARAM_CONFLICT');
    assert.equal(codes(consumerKeyKnown), '403 CONSUMER_KEY_UNKNOWN, 400 ENDPOINT_UNKNOWN');
    assert.equal(codes(signatureMethod), '403 SIGNATURE_METHOD_WRONG');
    assert.equal(codes(oauthVersion), '403 OAUTH_VERSION_WRONG');
    assert.equal(codes(oauthTimestampWindow), '403 TIMESTAMP_OUT_OF_WINDOW');
    assert.equal(codes(oauthSignature), '403 SIGNATURE_INVALID, 400 FIELD_MISSING, 400 FIELD_INVALID');
    assert.equal(codes(nonceUnique), '403 NONCE_REPLAYED');
    assert.equal(codes(noOAuthInBody), '');
    assert.equal(consumerKeyKnown.fixedIn, 'configuration');
  });
});
