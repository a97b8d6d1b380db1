import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildAuthorizationHeader, parseAuthorizationHeader } from '../../src/signing/authorization-header.ts';

describe('Authorization header (spec Scheme B rules 2-3, RFC 5849 §3.5.1)', () => {
  it('builds the canonical form: realm first, oauth_* sorted, values percent-encoded, ", " between', () => {
    assert.equal(
      buildAuthorizationHeader([['oauth_signature', 'a+b/c='], ['oauth_nonce', 'n 1'], ['oauth_consumer_key', 'm']], 'R'),
      'OAuth realm="R", oauth_consumer_key="m", oauth_nonce="n%201", oauth_signature="a%2Bb%2Fc%3D"',
    );
  });

  it('parses any order, with or without spaces after commas, and without realm', () => {
    for (const header of [
      'OAuth oauth_signature="a%2Bb%2Fc%3D",oauth_nonce="n%201",oauth_consumer_key="m"',
      'OAuth  oauth_nonce="n%201" , oauth_consumer_key="m",   oauth_signature="a%2Bb%2Fc%3D"',
      'oauth oauth_consumer_key="m", oauth_nonce="n%201", oauth_signature="a%2Bb%2Fc%3D"',
    ]) {
      const parsed = parseAuthorizationHeader(header);
      assert.equal(parsed.realm, undefined);
      assert.deepEqual(new Map(parsed.pairs), new Map([['oauth_consumer_key', 'm'], ['oauth_nonce', 'n 1'], ['oauth_signature', 'a+b/c=']]));
    }
    assert.equal(parseAuthorizationHeader('OAuth realm="Example", oauth_nonce="x"').realm, 'Example');
  });

  const bad: Array<[string, RegExp]> = [
    ['Bearer abc', /must start with "OAuth "/],
    ['OAuth', /must start with "OAuth "/],
    ['OAuth oauth_nonce=abc', /malformed at character 7/],
    ['OAuth oauth_nonce="a" oauth_timestamp="1"', /malformed at character/],
    ['OAuth oauth_nonce="a", oauth_nonce="b"', /oauth_nonce appears more than once/],
    ['OAuth foo="1"', /unexpected parameter "foo"/],
    ['OAuth realm="x"', /no oauth_\* parameters/],
    ['OAuth oauth_nonce="%E0%A4%A"', /malformed percent-escape/],
  ];
  for (const [header, message] of bad) {
    it(`rejects ${JSON.stringify(header)}`, () => {
      assert.throws(() => parseAuthorizationHeader(header), (err: Error & { code: string }) => err.code === 'ERR_AUTH_HEADER' || err.code === 'ERR_ENCODING' ? message.test(err.message) : false);
    });
  }
});
