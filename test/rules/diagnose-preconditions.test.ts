// diagnose as the book's rules gate it (src/rules/diagnose.ts): a callback, a URL outside the catalogue (the
// RFC 5849 example), an operation named apart, and each precondition (control missing or malformed, the OAuth
// header missing, malformed, or under the other method), every message read whole. Controls are SHA-1 over
// concatenations written here (api-spec.md Scheme A; the callback's formula, A-31).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createSign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { matchPath } from '../../src/catalogue/index.ts';
import { diagnose } from '../../src/rules/diagnose.ts';
import type { DiagnoseInput } from '../../src/signing/diagnose/index.ts';
import type { Credentials } from '../../src/signing/request.ts';

type P = [string, string];
const hex = (text: string): string => createHash('sha1').update(text).digest('hex');
const header = (pairs: readonly P[]): string =>
  `OAuth ${pairs.map(([n, v]) => `${n}="${encodeURIComponent(v)}"`).join(', ')}`;
const replaced = (pairs: readonly P[], name: string, value: string): P[] =>
  pairs.map(([n, v]): P => [n, n === name ? value : v]);
const without = (pairs: readonly P[], name: string): P[] => pairs.filter(([n]) => n !== name);
const invalid = (scheme: string, message: string) => ({
  verdict: 'invalid',
  defects: [],
  scheme,
  message,
  correct: {},
});
const CONTROL_KEY_MISSING = {
  code: 'ERR_CREDENTIALS',
  message: 'control key: missing (give --control-key-file or set PAYCONFORM_CONTROL_KEY)',
};

describe('diagnose: a callback or customer return (A-31)', () => {
  // control = SHA-1(status + orderid + client_orderid + merchant control key).
  const fields: P[] = [
    ['orderid', '900'],
    ['client_orderid', 'A-1'],
    ['amount', '10.50'],
    ['status', 'approved'],
  ];
  const good = hex('approved900A-1k');
  const callback = (
    params: readonly P[],
    control?: string,
    credentials: Credentials = { controlKey: 'k' },
  ): DiagnoseInput => ({
    callback: true,
    request: { url: 'https://shop.example/cb', params: [...params] },
    credentials,
    given: { control },
  });

  it('a valid control, given apart or in the form', () => {
    for (const input of [callback(fields, good), callback([...fields, ['control', good]])]) {
      const d = diagnose(input);
      assert.equal(d.verdict, 'valid');
      assert.equal(d.scheme, 'control');
      assert.deepEqual(d.correct, { controlInput: 'approved900A-1<merchant_control_key>' });
    }
  });

  it('a control in uppercase hex is searched, and the mistake named', () => {
    const d = diagnose(callback(fields, good.toUpperCase()));
    assert.equal(d.verdict, 'invalid');
    assert.deepEqual(d.defects, ['uppercase-hex']);
  });

  it('no control: the callback rule says so, without the key', () => {
    assert.deepEqual(diagnose(callback(fields, undefined, {})), invalid('control', 'control: missing in the callback'));
  });

  it('a control of no digest shape, given apart or in the form: the rule says so; it needs the key', () => {
    const malformed = invalid('control', 'control: must be 40 lowercase hex digits (SHA-1)');
    assert.deepEqual(diagnose(callback(fields, 'abc')), malformed);
    assert.deepEqual(diagnose(callback([...fields, ['control', 'abc']])), malformed);
    assert.throws(() => diagnose(callback(fields, 'abc', {})), CONTROL_KEY_MISSING);
  });
});

describe('diagnose: OAuth 1.0a outside the catalogue (RFC 5849 §3.4.1, erratum 2550)', () => {
  const url = 'http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b';
  const params: P[] = [
    ['c2', ''],
    ['a3', '2 q'],
  ];
  const credentials = { controlKey: 'j49sk3j29djd', tokenSecret: 'dh893hdasih9' };
  const protocol: P[] = [
    ['oauth_consumer_key', '9djdj82h48djs9d2'],
    ['oauth_token', 'kkk9d7dh3k39sjv7'],
    ['oauth_signature_method', 'HMAC-SHA1'],
    ['oauth_timestamp', '137131201'],
    ['oauth_nonce', '7d8f3e4a'],
    ['oauth_signature', 'r6/TJjbCOr97/+UU0NsvSne7s5g='],
  ];
  const run = (authorization?: string) => diagnose({ request: { url, params }, credentials, given: { authorization } });

  it("accepts the RFC's signature", () => {
    const d = run(header(protocol));
    assert.equal(d.verdict, 'valid');
    assert.equal(d.scheme, 'oauth-hmac-sha1');
  });

  it('each precondition of the header, in the words of the rules', () => {
    assert.deepEqual(
      run(undefined),
      invalid('oauth-hmac-sha1', 'authorization: missing: an OAuth Authorization header is required'),
    );
    assert.deepEqual(
      run('Basic eDp5'),
      invalid('oauth-hmac-sha1', 'authorization: must start with "OAuth " followed by name="value" parameters'),
    );
    assert.deepEqual(
      run(header(without(protocol, 'oauth_nonce'))),
      invalid('oauth-hmac-sha1', 'authorization: oauth_nonce is missing'),
    );
    // The method the header names sets the scheme, before anything else is said.
    const rsa = replaced(protocol, 'oauth_signature_method', 'RSA-SHA256');
    assert.deepEqual(
      run(header(without(rsa, 'oauth_nonce'))),
      invalid('oauth-rsa-sha256', 'authorization: oauth_nonce is missing'),
    );
  });

  it('a method diagnose cannot check: named, cut to 20 characters', () => {
    assert.deepEqual(
      run(header(replaced(protocol, 'oauth_signature_method', 'PLAINTEXT'))),
      invalid(
        'oauth-hmac-sha1',
        'authorization: oauth_signature_method PLAINTEXT is neither HMAC-SHA1 nor RSA-SHA256 ' +
          '(outside the catalogue, the methods diagnose checks)',
      ),
    );
    assert.equal(
      run(header(replaced(protocol, 'oauth_signature_method', `${'M'.repeat(20)}-more`))).message,
      `authorization: oauth_signature_method ${'M'.repeat(20)} is neither HMAC-SHA1 nor RSA-SHA256 ` +
        '(outside the catalogue, the methods diagnose checks)',
    );
  });
});

describe('diagnose: a catalogue endpoint signed with a control (Scheme A)', () => {
  // SALE: control = SHA-1(endpointId + client_orderid + amount in cents + email + merchant_control_key).
  const url = 'https://gw.example/paynet/api/v2/sale/1234';
  const params: P[] = [
    ['client_orderid', 'A-1'],
    ['orderid', '900'],
    ['amount', '10.50'],
    ['email', 'a@b.example'],
  ];
  const good = hex('1234A-11050a@b.examplek');
  const run = (control: string | undefined, more: Partial<DiagnoseInput> = {}, at = url) =>
    diagnose({
      request: { url: at, params },
      credentials: { login: 'shop', controlKey: 'k' },
      given: { control },
      ...more,
    });

  it('a valid control', () => {
    const d = run(good);
    assert.equal(d.verdict, 'valid');
    assert.deepEqual(d.correct, { controlInput: '1234A-11050a@b.example<merchant_control_key>' });
  });

  it('no control, or one of no digest shape: the rules say so', () => {
    assert.deepEqual(run(undefined), invalid('control', 'control: missing'));
    assert.deepEqual(run('abc'), invalid('control', 'control: must appear once, as 40 lowercase hex digits (SHA-1)'));
  });

  it('a digest in another encoding is searched, not called malformed', () => {
    const d = run(good.toUpperCase());
    assert.deepEqual(d.defects, ['uppercase-hex']);
  });

  it("an operation named apart takes that operation's formula, at the URL's endpoint id", () => {
    // STATUS: control = SHA-1(login + client_orderid + orderid + merchant_control_key).
    const status = hex('shopA-1900k');
    assert.equal(run(status, { operation: 'STATUS' }).verdict, 'valid');
    assert.equal(run(status).verdict, 'invalid');
    // A path outside the catalogue: the endpoint id is its last segment.
    assert.equal(run(good, { operation: 'SALE' }, 'https://shop.example/custom/pay/1234').verdict, 'valid');
    assert.equal(
      run(hex('999A-11050a@b.examplek'), { operation: 'SALE' }, 'https://shop.example/1234/x').verdict,
      'invalid',
    );
  });

  it('a match made by the caller is taken as it is', () => {
    const match = matchPath('/paynet/api/v2/sale/1234');
    const elsewhere = 'https://shop.example/not/a/catalogue/path';
    const d = diagnose({
      request: { url: elsewhere, params },
      credentials: { controlKey: 'k' },
      given: { control: good },
      match,
    });
    assert.equal(d.verdict, 'valid');
    assert.equal(d.scheme, 'control');
  });
});

describe('diagnose: a catalogue endpoint signed with OAuth (Scheme B, payout HMAC-SHA1)', () => {
  const privatePem = readFileSync(
    new URL('../../vectors/keys/test-only-merchant-rsa-2048.pem', import.meta.url),
    'utf8',
  );
  const url = 'https://gw.example/api/v2/payout/77';
  const params: P[] = [['amount', '5.00']];
  const protocol: P[] = [
    ['oauth_consumer_key', 'shop'],
    ['oauth_nonce', 'abc'],
    ['oauth_signature_method', 'HMAC-SHA1'],
    ['oauth_timestamp', '1700000000'],
    ['oauth_signature', 'c3R1Yg=='],
  ];
  const run = (authorization?: string) =>
    diagnose({
      request: { url, params },
      credentials: { login: 'shop', controlKey: 'k', privateKeyPem: privatePem },
      given: { authorization },
    });

  it('each precondition, in the words of the rules', () => {
    assert.deepEqual(
      run(undefined),
      invalid('oauth-hmac-sha1', 'authorization: missing: an OAuth Authorization header is required'),
    );
    assert.deepEqual(
      run(header(without(protocol, 'oauth_nonce'))),
      invalid('oauth-hmac-sha1', 'authorization: oauth_nonce is missing'),
    );
  });

  it('signed under the other method: says so, and whether the signature is a valid one there', () => {
    const rsa = replaced(protocol, 'oauth_signature_method', 'RSA-SHA256');
    const wrong = 'authorization: oauth_signature_method is RSA-SHA256; PAYOUT requires HMAC-SHA1';
    assert.equal(run(header(rsa)).message, wrong);
    // RSA-SHA256 over the request's own base string (RFC 5849 §3.4.1), made here with the merchant's key.
    const base =
      'POST&https%3A%2F%2Fgw.example%2Fapi%2Fv2%2Fpayout%2F77&amount%3D5.00%26oauth_consumer_key%3Dshop' +
      '%26oauth_nonce%3Dabc%26oauth_signature_method%3DRSA-SHA256%26oauth_timestamp%3D1700000000';
    const signature = createSign('RSA-SHA256').update(base).sign(privatePem, 'base64');
    const d = run(header(replaced(rsa, 'oauth_signature', signature)));
    assert.equal(d.verdict, 'invalid');
    assert.equal(d.message, `${wrong} (the signature is a valid RSA-SHA256 one)`);
  });
});
