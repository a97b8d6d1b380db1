// verifyRequest: every verdict reason, each reached from a signature built here by hand (node:crypto
// over hand-written concatenations and base strings), then corrupted in one place.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac, createSign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { verifyRequest } from '../../src/rules/verify.ts';
import { constantTimeEqual } from '../../src/signing/verify.ts';

const keyFile = (name: string): string => readFileSync(new URL(`../../vectors/keys/${name}`, import.meta.url), 'utf8');
const privatePem = keyFile('test-only-merchant-rsa-2048.pem');
const publicPem = keyFile('test-only-merchant-rsa-2048.pub.pem');

type P = [string, string];
/** `name="value"` items joined by `, `, each value percent-encoded (all values here are ASCII). */
const header = (pairs: readonly P[]): string =>
  `OAuth ${pairs.map(([n, v]) => `${n}="${encodeURIComponent(v)}"`).join(', ')}`;
const without = (pairs: readonly P[], name: string): P[] => pairs.filter(([n]) => n !== name);
const replaced = (pairs: readonly P[], name: string, value: string): P[] =>
  pairs.map(([n, v]): P => [n, n === name ? value : v]);

describe('verifyRequest, control field (Scheme A)', () => {
  // SALE: control = SHA-1(endpointId + client_orderid + amount in cents + email + merchant_control_key).
  const url = 'https://gw.example/paynet/api/v2/sale/1234';
  const params: P[] = [
    ['client_orderid', 'A-1'],
    ['amount', '10.50'],
    ['email', 'a@b.example'],
  ];
  const key = 'KEY-1';
  const controlInput = '1234A-11050a@b.example';
  const good = createHash('sha1').update(`${controlInput}${key}`).digest('hex');

  it('accepts the hand-computed SHA-1 and names the operation, the scheme and what the control covers', () => {
    const v = verifyRequest({ url, params }, { controlKey: key }, { control: good });
    assert.equal(v.valid, true);
    assert.equal(v.reason, 'valid');
    assert.equal(v.operation, 'SALE');
    assert.equal(v.scheme, 'control');
    assert.match(v.message, /^control is valid/);
    assert.ok(v.controlInput!.startsWith(controlInput), v.controlInput);
    assert.ok(!v.controlInput!.includes(key), 'the key is never shown');
  });

  it('reports a mismatch, with the recomputed concatenation, for another digest', () => {
    const other = createHash('sha1').update(`${controlInput}KEY-2`).digest('hex');
    const v = verifyRequest({ url, params }, { controlKey: key }, { control: other });
    assert.equal(v.valid, false);
    assert.equal(v.reason, 'mismatch');
    assert.equal(v.operation, 'SALE');
    assert.match(v.message, /control/);
    assert.match(v.message, /does not match/);
    // The book's wording (rules/control.ts), the same line the mock and inspect give.
    assert.match(v.message, /SALE's formula/);
    assert.ok(v.controlInput!.startsWith(controlInput), v.controlInput);
  });

  it('reports a missing control', () => {
    const v = verifyRequest({ url, params }, { controlKey: key }, {});
    assert.equal(v.reason, 'missing');
    assert.equal(v.valid, false);
    assert.match(v.message, /^control/);
    assert.match(v.message, /missing/);
  });

  it('calls anything but exactly 40 lowercase hex digits malformed, extra characters at either end included', () => {
    for (const sent of [good.toUpperCase(), `z${good}`, `${good}z`, `0${good}`, good.slice(1)]) {
      const v = verifyRequest({ url, params }, { controlKey: key }, { control: sent });
      assert.equal(v.reason, 'malformed', sent);
      assert.match(v.message, /^control/);
      assert.match(v.message, /40/);
      assert.match(v.message, /hex/);
    }
  });

  it('calls a request without a field of the formula bad input (exit 2), naming the field, as sign does', () => {
    const noEmail = params.filter(([n]) => n !== 'email');
    assert.throws(
      () => verifyRequest({ url, params: noEmail }, { controlKey: key }, { control: good }),
      (err: Error & { code?: string; field?: string }) =>
        err.code === 'ERR_MISSING_FIELD' && err.field === 'email' && /^email/.test(err.message),
    );
  });

  it('takes --control in place of a control form field, not beside it', () => {
    const other = createHash('sha1').update(`${controlInput}KEY-2`).digest('hex');
    const v = verifyRequest({ url, params: [...params, ['control', other]] }, { controlKey: key }, { control: good });
    assert.equal(v.reason, 'valid');
  });

  it('needs the control key, and says which credential is missing', () => {
    assert.throws(
      () => verifyRequest({ url, params }, {}, { control: good }),
      (err: Error & { code?: string }) =>
        err.code === 'ERR_CREDENTIALS' && /^control key/.test(err.message) && /missing/.test(err.message),
    );
  });
});

describe('verifyRequest, OAuth HMAC-SHA1 (Scheme B, payout)', () => {
  const url = 'https://gw.example/api/v2/payout/77';
  const params: P[] = [
    ['client_orderid', 'O-1'],
    ['amount', '5.00'],
  ];
  const key = 'secret-key';
  const login = 'merchant';
  const protocol: P[] = [
    ['oauth_consumer_key', login],
    ['oauth_nonce', 'abc'],
    ['oauth_signature_method', 'HMAC-SHA1'],
    ['oauth_timestamp', '1700000000'],
    ['oauth_version', '1.0'],
  ];
  // Hand-built: POST & enc(url) & enc(sorted name=value pairs joined by &).
  const baseWith = (oauth: string): string =>
    'POST&https%3A%2F%2Fgw.example%2Fapi%2Fv2%2Fpayout%2F77&' +
    `amount%3D5.00%26client_orderid%3DO-1%26oauth_consumer_key%3D${oauth}`;
  const BASE = baseWith(
    'merchant%26oauth_nonce%3Dabc%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1700000000%26oauth_version%3D1.0',
  );
  const BASE_NO_VERSION = baseWith(
    'merchant%26oauth_nonce%3Dabc%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1700000000',
  );
  const hmac = (base: string): string => createHmac('sha1', `${key}&`).update(base).digest('base64');
  const signed: P[] = [...protocol, ['oauth_signature', hmac(BASE)]];
  const creds = { login, controlKey: key };
  const check = (pairs: readonly P[], credentials: Parameters<typeof verifyRequest>[1] = creds) =>
    verifyRequest({ url, params }, credentials, { authorization: header(pairs) });

  it('accepts the hand-computed signature and returns the hand-built base string', () => {
    const v = check(signed);
    assert.equal(v.reason, 'valid');
    assert.equal(v.valid, true);
    assert.equal(v.operation, 'PAYOUT');
    assert.equal(v.scheme, 'oauth-hmac-sha1');
    assert.equal(v.baseString, BASE);
    assert.match(v.message, /HMAC-SHA1/);
    assert.match(v.message, /is valid/);
  });

  it('reports a mismatch, with the base string, for a signature made with another key', () => {
    const other = createHmac('sha1', 'other-key&').update(BASE).digest('base64');
    const v = check(replaced(signed, 'oauth_signature', other));
    assert.equal(v.reason, 'mismatch');
    assert.equal(v.valid, false);
    assert.equal(v.baseString, BASE);
    assert.match(v.message, /HMAC-SHA1/);
    assert.match(v.message, /does not match/);
  });

  it('accepts a header without oauth_version (signed without it) and a credential set without a login', () => {
    const pairs: P[] = [...without(protocol, 'oauth_version'), ['oauth_signature', hmac(BASE_NO_VERSION)]];
    assert.equal(check(pairs).reason, 'valid');
    assert.equal(check(signed, { controlKey: key }).reason, 'valid');
  });

  it('rejects an oauth_version other than 1.0 and names the version sent', () => {
    const v = check(replaced(signed, 'oauth_version', '2.0'));
    assert.equal(v.reason, 'wrong-version');
    assert.equal(v.valid, false);
    assert.match(v.message, /oauth_version/);
    assert.match(v.message, /1\.0/);
    assert.match(v.message, /2\.0/);
  });

  it('reports a missing Authorization header', () => {
    const v = verifyRequest({ url, params }, creds, {});
    assert.equal(v.reason, 'missing');
    assert.equal(v.operation, 'PAYOUT');
    assert.match(v.message, /^authorization/);
    assert.match(v.message, /missing/);
  });

  it("calls a header that is not OAuth malformed, with the parser's rule", () => {
    const v = verifyRequest({ url, params }, creds, { authorization: 'Basic bWVyY2hhbnQ6eA==' });
    assert.equal(v.reason, 'malformed');
    assert.match(v.message, /^authorization/);
    assert.match(v.message, /OAuth/);
  });

  it('lets an error that is no header problem through instead of calling the header malformed', () => {
    // An untyped caller's Symbol cannot be read as text: a TypeError, not a verdict.
    const authorization = Symbol('not a header') as unknown as string;
    assert.throws(() => verifyRequest({ url, params }, creds, { authorization }), TypeError);
  });

  it('reports a missing oauth_signature', () => {
    const v = check(protocol);
    assert.equal(v.reason, 'missing');
    assert.match(v.message, /oauth_signature/);
    assert.match(v.message, /missing/);
  });

  for (const name of ['oauth_consumer_key', 'oauth_nonce', 'oauth_timestamp', 'oauth_signature_method']) {
    it(`calls a header without ${name} malformed and names it`, () => {
      const v = check(without(signed, name));
      assert.equal(v.reason, 'malformed');
      assert.match(v.message, new RegExp(`^authorization: ${name}\\b`));
      assert.match(v.message, /missing/);
    });
  }

  it('rejects RSA-SHA256 on the HMAC-SHA1 payout, naming the method sent, the operation and the method required', () => {
    const v = check(replaced(signed, 'oauth_signature_method', 'RSA-SHA256'));
    assert.equal(v.reason, 'wrong-signature-method');
    assert.match(v.message, /oauth_signature_method/);
    assert.match(v.message, /RSA-SHA256/);
    assert.match(v.message, /PAYOUT/);
    assert.match(v.message, /requires HMAC-SHA1/);
  });

  it('rejects a consumer key that is not the merchant login', () => {
    const v = check(signed, { login: 'someone-else', controlKey: key });
    assert.equal(v.reason, 'wrong-consumer-key');
    assert.match(v.message, /oauth_consumer_key/);
    assert.match(v.message, /login/);
  });

  it('needs the control key to check an HMAC signature, and says so', () => {
    assert.throws(
      () => check(signed, { login }),
      (err: Error & { code?: string }) =>
        err.code === 'ERR_CREDENTIALS' && /^control key/.test(err.message) && /missing/.test(err.message),
    );
  });
});

describe('verifyRequest, OAuth RSA-SHA256 (Scheme B, /api/v4/)', () => {
  const url = 'https://gw.example/api/v4/payout/5';
  const params: P[] = [['amount', '1.00']];
  const BASE =
    'POST&https%3A%2F%2Fgw.example%2Fapi%2Fv4%2Fpayout%2F5&amount%3D1.00%26oauth_consumer_key%3Dm%26oauth_nonce%3Dn1' +
    '%26oauth_signature_method%3DRSA-SHA256%26oauth_timestamp%3D1700000001';
  const signature = createSign('RSA-SHA256').update(BASE, 'utf8').sign(privatePem, 'base64');
  const pairs: P[] = [
    ['oauth_consumer_key', 'm'],
    ['oauth_nonce', 'n1'],
    ['oauth_signature_method', 'RSA-SHA256'],
    ['oauth_timestamp', '1700000001'],
    ['oauth_signature', signature],
  ];
  const authorization = header(pairs);

  it('verifies with the public key, or with the public half of the private key', () => {
    for (const creds of [
      { login: 'm', publicKeyPem: publicPem },
      { login: 'm', privateKeyPem: privatePem },
    ]) {
      const v = verifyRequest({ url, params }, creds, { authorization });
      assert.equal(v.reason, 'valid');
      assert.equal(v.scheme, 'oauth-rsa-sha256');
      assert.equal(v.baseString, BASE);
      assert.match(v.message, /RSA-SHA256/);
    }
  });

  it('reports a mismatch for a signature over another base string', () => {
    const other = createSign('RSA-SHA256').update(`${BASE}x`, 'utf8').sign(privatePem, 'base64');
    const v = verifyRequest(
      { url, params },
      { login: 'm', publicKeyPem: publicPem },
      { authorization: header(replaced(pairs, 'oauth_signature', other)) },
    );
    assert.equal(v.reason, 'mismatch');
    assert.equal(v.baseString, BASE);
    assert.match(v.message, /RSA-SHA256/);
    assert.match(v.message, /does not match/);
  });

  it('needs a key to verify with, and says which', () => {
    assert.throws(
      () => verifyRequest({ url, params }, { login: 'm' }, { authorization }),
      (err: Error & { code?: string }) =>
        err.code === 'ERR_CREDENTIALS' && /^public key/.test(err.message) && /missing/.test(err.message),
    );
  });
});

describe('constantTimeEqual', () => {
  it('compares the UTF-8 bytes', () => {
    assert.equal(constantTimeEqual('Jörg', 'Jörg'), true);
    assert.equal(constantTimeEqual('Jörg', 'Jorg'), false);
    assert.equal(constantTimeEqual('ab', 'abc'), false);
  });
});
