// signOAuth (RFC 5849 §3.4 as api-spec.md Scheme B states it): the timestamp is whole seconds
// (RFC 5849 §3.3: "a positive integer"), and a body oauth_signature is never signed (§3.4.1.3.1).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { signOAuth } from '../../src/signing/oauth.ts';
import type { Pair } from '../../src/signing/form-body.ts';

const key = { method: 'HMAC-SHA1', consumerSecret: 'kd94hf93k423kf44' } as const;
const sign = (timestamp: string, params: Pair[] = [['a', '1']]) =>
  signOAuth(
    { method: 'POST', url: 'https://gw.example/api/v2/payout/7', params },
    { consumerKey: 'm', nonce: 'n', timestamp, version: '1.0' },
    key,
  );

describe('signOAuth: timestamp', () => {
  for (const bad of ['12a', 'a123', '123a', '1.5', '-1', ' 1']) {
    it(`rejects ${JSON.stringify(bad)}: ERR_TIMESTAMP naming the timestamp and the rule`, () => {
      assert.throws(
        () => sign(bad),
        (err: Error & { code?: string; field?: string }) => {
          assert.equal(err.code, 'ERR_TIMESTAMP');
          assert.equal(err.field, 'timestamp');
          assert.match(err.message, /^timestamp: must be whole seconds since 1970 \(digits only\)$/);
          return true;
        },
      );
    });
  }

  it('accepts digits, and an empty timestamp (signed as oauth_timestamp=)', () => {
    assert.match(sign('1700000000').baseString, /oauth_timestamp%3D1700000000%26/);
    const empty = sign('');
    // Hand-built: POST & enc(url) & enc(a=1&oauth_consumer_key=m&oauth_nonce=n&oauth_signature_method=HMAC-SHA1&oauth_timestamp=&oauth_version=1.0)
    const base =
      'POST&https%3A%2F%2Fgw.example%2Fapi%2Fv2%2Fpayout%2F7&a%3D1%26oauth_consumer_key%3Dm%26oauth_nonce%3Dn' +
      '%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D%26oauth_version%3D1.0';
    assert.equal(empty.baseString, base);
    assert.equal(empty.signature, createHmac('sha1', 'kd94hf93k423kf44&').update(base).digest('base64'));
  });
});

describe('signOAuth: an oauth_signature in the body', () => {
  it('is left out of the signed body pairs and of the base string', () => {
    const result = sign('1', [
      ['a', '1'],
      ['oauth_signature', 'forged'],
      ['b', '2'],
    ]);
    assert.deepEqual(result.body, [
      ['a', '1'],
      ['b', '2'],
    ]);
    assert.ok(!result.baseString.includes('forged'), result.baseString);
  });
});
