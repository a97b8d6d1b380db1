import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildAuthorizationHeader,
  getParam,
  parseAuthorizationHeader,
} from '../../src/signing/authorization-header.ts';

describe('Authorization header (spec Scheme B rules 2-3, RFC 5849 §3.5.1)', () => {
  it('builds the canonical form: realm first, oauth_* sorted, values percent-encoded, ", " between', () => {
    assert.equal(
      buildAuthorizationHeader(
        [
          ['oauth_signature', 'a+b/c='],
          ['oauth_nonce', 'n 1'],
          ['oauth_consumer_key', 'm'],
        ],
        'R',
      ),
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
      assert.deepEqual(
        new Map(parsed.pairs),
        new Map([
          ['oauth_consumer_key', 'm'],
          ['oauth_nonce', 'n 1'],
          ['oauth_signature', 'a+b/c='],
        ]),
      );
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
      assert.throws(
        () => parseAuthorizationHeader(header),
        (err: Error & { code: string }) =>
          err.code === 'ERR_AUTH_HEADER' || err.code === 'ERR_ENCODING' ? message.test(err.message) : false,
      );
    });
  }
});

describe('Authorization header: details', () => {
  const headerError = (rule: RegExp) => (err: Error & { code?: string; field?: string; rule?: string }) => {
    assert.equal(err.code, 'ERR_AUTH_HEADER');
    assert.equal(err.field, 'authorization');
    assert.match(err.rule ?? '', rule);
    assert.ok(err.message.startsWith('authorization: '), err.message);
    assert.match(err.message, rule);
    return true;
  };

  it('refuses a realm that cannot be written inside quotes', () => {
    for (const realm of ['a"b', 'a\\b', 'a\r\nb']) {
      assert.throws(
        () => buildAuthorizationHeader([['oauth_nonce', 'n']], realm),
        headerError(/realm must not contain a quote, backslash or line break/),
      );
    }
  });

  it("does not reorder the caller's pairs, and keeps pairs of equal names in their given order", () => {
    const pairs: Array<[string, string]> = [
      ['oauth_timestamp', '1'],
      ['oauth_nonce', 'n'],
    ];
    assert.equal(buildAuthorizationHeader(pairs), 'OAuth oauth_nonce="n", oauth_timestamp="1"');
    assert.deepEqual(pairs, [
      ['oauth_timestamp', '1'],
      ['oauth_nonce', 'n'],
    ]);
    assert.equal(
      buildAuthorizationHeader([
        ['oauth_x', '1'],
        ['oauth_x', '2'],
        ['oauth_a', '0'],
      ]),
      'OAuth oauth_a="0", oauth_x="1", oauth_x="2"',
    );
  });

  it('the scheme starts the header, after optional blanks', () => {
    assert.deepEqual(parseAuthorizationHeader(' \tOAuth oauth_nonce="x"').pairs, [['oauth_nonce', 'x']]);
    assert.throws(() => parseAuthorizationHeader('xOAuth oauth_nonce="x"'), headerError(/must start with "OAuth "/));
    assert.throws(
      () => parseAuthorizationHeader('Bearer OAuth oauth_nonce="x"'),
      headerError(/must start with "OAuth "/),
    );
  });

  it('a header with nothing but blanks after the scheme carries no oauth_* parameters', () => {
    assert.throws(() => parseAuthorizationHeader('OAuth   '), headerError(/carries no oauth_\* parameters/));
    assert.throws(() => parseAuthorizationHeader('OAuth \t'), headerError(/carries no oauth_\* parameters/));
  });

  it('an error names the field "authorization" and the rule', () => {
    assert.throws(() => parseAuthorizationHeader('OAuth foo="1"'), headerError(/unexpected parameter "foo"/));
  });

  it('a malformed escape names the header parameter it is in', () => {
    assert.throws(
      () => parseAuthorizationHeader('OAuth oauth_nonce="x", oauth_signature="%ZZ"'),
      (err: Error & { code?: string; field?: string }) => {
        assert.equal(err.code, 'ERR_ENCODING');
        assert.match(err.field ?? '', /authorization/);
        assert.match(err.field ?? '', /oauth_signature/);
        return true;
      },
    );
  });

  it('getParam returns a decoded value, or undefined for a parameter that is not there', () => {
    const parsed = parseAuthorizationHeader('OAuth oauth_nonce="a%20b"');
    assert.equal(getParam(parsed, 'oauth_nonce'), 'a b');
    assert.equal(getParam(parsed, 'oauth_token'), undefined);
  });
});
