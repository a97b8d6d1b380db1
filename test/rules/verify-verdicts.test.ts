// `payconform verify` as the book's rules give it (src/rules/verify.ts): every verdict read whole, every
// refusal and bad input with its exact words, each scheme. Controls are SHA-1 over concatenations written
// here (api-spec.md Scheme A); HMAC-SHA1 is built here from SHA-1 (RFC 2104), not with createHmac.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createSign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { verifyCallbackRequest, verifyRequest } from '../../src/rules/verify.ts';
import type { Credentials } from '../../src/signing/request.ts';
import { thrown } from '../signing/thrown.ts';

type P = [string, string];
const sha1 = (data: string | Buffer): Buffer => createHash('sha1').update(data).digest();
const hex = (text: string): string => sha1(text).toString('hex');
/** RFC 2104: SHA-1((K ^ opad) || SHA-1((K ^ ipad) || text)), a 64-byte block. */
function hmacSha1(key: string, text: string): string {
  const block = Buffer.alloc(64);
  Buffer.from(key).copy(block); // every key here is shorter than the block
  const pad = (byte: number): Buffer => Buffer.from(block.map((b) => b ^ byte));
  return sha1(Buffer.concat([pad(0x5c), sha1(Buffer.concat([pad(0x36), Buffer.from(text)]))])).toString('base64');
}
const header = (pairs: readonly P[]): string =>
  `OAuth ${pairs.map(([n, v]) => `${n}="${encodeURIComponent(v)}"`).join(', ')}`;
const without = (pairs: readonly P[], name: string): P[] => pairs.filter(([n]) => n !== name);
const replaced = (pairs: readonly P[], name: string, value: string): P[] =>
  pairs.map(([n, v]): P => [n, n === name ? value : v]);
const CONTROL_KEY_MISSING = {
  code: 'ERR_CREDENTIALS',
  message: 'control key: missing (give --control-key-file or set PAYCONFORM_CONTROL_KEY)',
  field: 'control key',
  rule: 'required',
};

describe('verifyRequest, control (Scheme A)', () => {
  // SALE: control = SHA-1(endpointId + client_orderid + amount in cents + email + merchant_control_key).
  const url = 'https://gw.example/paynet/api/v2/sale/1234';
  const params: P[] = [
    ['client_orderid', 'A-1'],
    ['amount', '10.50'],
    ['email', 'a@b.example'],
  ];
  const key = 'KEY-1';
  const good = hex(`1234A-11050a@b.example${key}`);
  const base = { operation: 'SALE', scheme: 'control' };
  const controlInput = '1234A-11050a@b.example<merchant_control_key>';

  it('a valid control: the verdict whole, with what the control covers and the key as a placeholder', () => {
    assert.deepEqual(verifyRequest({ url, params }, { controlKey: key }, { control: good }), {
      valid: true,
      reason: 'valid',
      message: 'control is valid',
      ...base,
      controlInput,
    });
    // The control as a form field, and given apart in its place.
    const inForm = verifyRequest({ url, params: [...params, ['control', good]] }, { controlKey: key }, {});
    assert.equal(inForm.reason, 'valid');
    const replacing = verifyRequest(
      { url, params: [...params, ['control', hex('another')]] },
      { controlKey: key },
      { control: good },
    );
    assert.equal(replacing.reason, 'valid');
  });

  it('shows what the control covers even beside a stray Authorization header', () => {
    const stray = 'OAuth oauth_consumer_key="m", oauth_signature="x"';
    assert.deepEqual(verifyRequest({ url, params }, { controlKey: key }, { control: good, authorization: stray }), {
      valid: true,
      reason: 'valid',
      message: 'control is valid',
      ...base,
      controlInput,
    });
  });

  it("a control made with another key: mismatch, in the book's words, with what it covers", () => {
    assert.deepEqual(verifyRequest({ url, params }, { controlKey: key }, { control: hex(`1234A-11050a@b.exampleK`) }), {
      valid: false,
      reason: 'mismatch',
      message: "control: does not match SALE's formula",
      ...base,
      controlInput,
    });
  });

  it('no control: missing; another shape: malformed; neither needs the key', () => {
    assert.deepEqual(verifyRequest({ url, params }, {}, {}), {
      valid: false,
      reason: 'missing',
      message: 'control: missing',
      ...base,
    });
    // Anything but exactly 40 lowercase hex digits, extra characters at either end included.
    for (const sent of [good.toUpperCase(), `z${good}`, `${good}z`, `0${good}`, good.slice(1)])
      assert.deepEqual(verifyRequest({ url, params }, {}, { control: sent }), {
        valid: false,
        reason: 'malformed',
        message: 'control: must appear once, as 40 lowercase hex digits (SHA-1)',
        ...base,
      });
  });

  it('a shaped control without the key is bad input naming the credential', () => {
    assert.deepEqual(
      thrown(() => verifyRequest({ url, params }, {}, { control: good })),
      CONTROL_KEY_MISSING,
    );
    assert.deepEqual(
      thrown(() => verifyRequest({ url, params }, { controlKey: '' }, { control: good })),
      CONTROL_KEY_MISSING,
    );
  });

  it('a field of the formula missing or malformed is bad input naming the field and the rule', () => {
    const noEmail = without(params, 'email');
    const missing = thrown(() => verifyRequest({ url, params: noEmail }, { controlKey: key }, { control: good }));
    assert.equal(missing.code, 'ERR_MISSING_FIELD');
    assert.equal(missing.field, 'email');
    assert.equal(missing.rule, 'control-signature');
    const badAmount = replaced(params, 'amount', '10.5.0');
    const invalid = thrown(() => verifyRequest({ url, params: badAmount }, { controlKey: key }, { control: good }));
    assert.equal(invalid.code, 'ERR_FORM_BODY');
    assert.equal(invalid.field, 'amount');
    assert.equal(invalid.rule, 'control-signature');
  });

  it("an endpoint group id: the group is the merchant's, and its control covers the group id", () => {
    // SALEFORM accepts a group id (A-3): SHA-1(group id + client_orderid + cents + email + key).
    const group = 'https://gw.example/paynet/api/v2/sale-form/group/55';
    const valid = verifyRequest(
      { url: group, params },
      { controlKey: key },
      { control: hex(`55A-11050a@b.exampleKEY-1`) },
    );
    assert.equal(valid.reason, 'valid');
    assert.equal(valid.controlInput, '55A-11050a@b.example<merchant_control_key>');
    const other = verifyRequest({ url: group, params }, { controlKey: key }, { control: hex('55A-11050a@b.exampleK') });
    assert.equal(other.reason, 'mismatch');
  });

  it('a formula that starts with the login takes the login given', () => {
    // STATUS: control = SHA-1(login + client_orderid + orderid + merchant_control_key).
    const status = 'https://gw.example/paynet/api/v2/status/1234';
    const fields: P[] = [
      ['login', 'shop'],
      ['client_orderid', 'A-1'],
      ['orderid', '900'],
    ];
    const v = verifyRequest(
      { url: status, params: fields },
      { login: 'shop', controlKey: key },
      {
        control: hex(`shopA-1900${key}`),
      },
    );
    assert.deepEqual(v, {
      valid: true,
      reason: 'valid',
      message: 'control is valid',
      operation: 'STATUS',
      scheme: 'control',
      controlInput: 'shopA-1900<merchant_control_key>',
    });
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
  const BASE =
    'POST&https%3A%2F%2Fgw.example%2Fapi%2Fv2%2Fpayout%2F77&amount%3D5.00%26client_orderid%3DO-1' +
    '%26oauth_consumer_key%3Dmerchant%26oauth_nonce%3Dabc%26oauth_signature_method%3DHMAC-SHA1' +
    '%26oauth_timestamp%3D1700000000%26oauth_version%3D1.0';
  const BASE_NO_VERSION = BASE.replace('%26oauth_version%3D1.0', '');
  const signed: P[] = [...protocol, ['oauth_signature', hmacSha1(`${key}&`, BASE)]];
  const creds: Credentials = { login, controlKey: key };
  const check = (pairs: readonly P[] | undefined, credentials: Credentials = creds) =>
    verifyRequest({ url, params }, credentials, pairs === undefined ? {} : { authorization: header(pairs) });
  const refused = (reason: string, message: string) => ({
    valid: false,
    reason,
    message,
    operation: 'PAYOUT',
    scheme: 'oauth-hmac-sha1',
  });

  it('a valid signature: the verdict whole, with the hand-built base string', () => {
    const valid = {
      valid: true,
      reason: 'valid',
      message: 'HMAC-SHA1 signature is valid',
      operation: 'PAYOUT',
      scheme: 'oauth-hmac-sha1',
      baseString: BASE,
    };
    assert.deepEqual(check(signed), valid);
    // Without a login verify has none to hold the consumer key to.
    assert.deepEqual(check(signed, { controlKey: key }), valid);
  });

  it('a header without oauth_version, signed without it: valid, with the base string it covers', () => {
    const pairs: P[] = [
      ...without(protocol, 'oauth_version'),
      ['oauth_signature', hmacSha1(`${key}&`, BASE_NO_VERSION)],
    ];
    assert.deepEqual(check(pairs), {
      valid: true,
      reason: 'valid',
      message: 'HMAC-SHA1 signature is valid',
      operation: 'PAYOUT',
      scheme: 'oauth-hmac-sha1',
      baseString: BASE_NO_VERSION,
    });
  });

  it('a signature made with another key: mismatch, with the base string', () => {
    assert.deepEqual(check(replaced(signed, 'oauth_signature', hmacSha1('other-key&', BASE))), {
      ...refused('mismatch', 'authorization: HMAC-SHA1 signature does not match the request'),
      baseString: BASE,
    });
  });

  it("each refusal of the header, in the book's words", () => {
    assert.deepEqual(
      check(undefined),
      refused('missing', 'authorization: missing: an OAuth Authorization header is required'),
    );
    assert.deepEqual(
      verifyRequest({ url, params }, creds, { authorization: 'Basic bWVyY2hhbnQ6eA==' }),
      refused('malformed', 'authorization: must start with "OAuth " followed by name="value" parameters'),
    );
    assert.deepEqual(check(protocol), refused('missing', 'authorization: oauth_signature is missing'));
    for (const name of ['oauth_consumer_key', 'oauth_nonce', 'oauth_timestamp', 'oauth_signature_method'])
      assert.deepEqual(check(without(signed, name)), refused('malformed', `authorization: ${name} is missing`));
    assert.deepEqual(
      check(signed, { login: 'someone-else', controlKey: key }),
      refused('wrong-consumer-key', 'authorization: oauth_consumer_key is not a known merchant login'),
    );
    assert.deepEqual(
      check(replaced(signed, 'oauth_signature_method', 'RSA-SHA256')),
      refused(
        'wrong-signature-method',
        'authorization: oauth_signature_method is RSA-SHA256; PAYOUT requires HMAC-SHA1',
      ),
    );
    assert.deepEqual(
      check(replaced(signed, 'oauth_version', '2.0')),
      refused('wrong-version', 'authorization: oauth_version must be 1.0 (got 2.0)'),
    );
  });

  it('lets an error that is no header problem through instead of calling the header malformed', () => {
    // An untyped caller's Symbol cannot be read as text: a TypeError, not a verdict.
    const authorization = Symbol('not a header') as unknown as string;
    assert.throws(() => verifyRequest({ url, params }, creds, { authorization }), TypeError);
  });

  it('the control key is needed to check an HMAC signature', () => {
    assert.deepEqual(
      thrown(() => check(signed, { login })),
      CONTROL_KEY_MISSING,
    );
  });
});

describe('verifyRequest, OAuth RSA-SHA256 (Scheme B, /api/v4/)', () => {
  const keyFile = (name: string): string =>
    readFileSync(new URL(`../../vectors/keys/${name}`, import.meta.url), 'utf8');
  const privatePem = keyFile('test-only-merchant-rsa-2048.pem');
  const publicPem = keyFile('test-only-merchant-rsa-2048.pub.pem');
  const url = 'https://gw.example/api/v4/payout/5';
  const params: P[] = [['amount', '1.00']];
  const BASE =
    'POST&https%3A%2F%2Fgw.example%2Fapi%2Fv4%2Fpayout%2F5&amount%3D1.00%26oauth_consumer_key%3Dm%26oauth_nonce%3Dn1' +
    '%26oauth_signature_method%3DRSA-SHA256%26oauth_timestamp%3D1700000001';
  const pairs = (signature: string): P[] => [
    ['oauth_consumer_key', 'm'],
    ['oauth_nonce', 'n1'],
    ['oauth_signature_method', 'RSA-SHA256'],
    ['oauth_timestamp', '1700000001'],
    ['oauth_signature', signature],
  ];
  const rsa = (base: string): string => createSign('RSA-SHA256').update(base).sign(privatePem, 'base64');
  const authorization = header(pairs(rsa(BASE)));

  it('verifies with the public key, or the public half of the private key: the verdict whole', () => {
    for (const creds of [
      { login: 'm', publicKeyPem: publicPem },
      { login: 'm', privateKeyPem: privatePem },
    ])
      assert.deepEqual(verifyRequest({ url, params }, creds, { authorization }), {
        valid: true,
        reason: 'valid',
        message: 'RSA-SHA256 signature is valid',
        operation: 'PAYOUT_V4',
        scheme: 'oauth-rsa-sha256',
        baseString: BASE,
      });
  });

  it('a signature over another base string: mismatch', () => {
    const v = verifyRequest(
      { url, params },
      { publicKeyPem: publicPem },
      { authorization: header(pairs(rsa(`${BASE}x`))) },
    );
    assert.deepEqual(v, {
      valid: false,
      reason: 'mismatch',
      message: 'authorization: RSA-SHA256 signature does not match the request',
      operation: 'PAYOUT_V4',
      scheme: 'oauth-rsa-sha256',
      baseString: BASE,
    });
  });

  it('needs a key to verify with, named as the public key; the control key is not it', () => {
    assert.deepEqual(
      thrown(() => verifyRequest({ url, params }, { login: 'm', controlKey: 'k' }, { authorization })),
      {
        code: 'ERR_CREDENTIALS',
        message: 'public key: missing (give --public-key-file or --private-key-file)',
        field: 'public key',
        rule: 'required',
      },
    );
  });
});

describe('verifyCallbackRequest (A-31)', () => {
  // control = SHA-1(status + orderid + client_orderid + merchant control key); the amount is not in it.
  const key = 'cb-key';
  const fields: P[] = [
    ['orderid', '900'],
    ['client_orderid', 'A-1'],
    ['amount', '10.50'],
    ['status', 'approved'],
  ];
  const good = hex(`approved900A-1${key}`);
  const base = { operation: 'CALLBACK', scheme: 'control' };
  const controlInput = 'approved900A-1<merchant_control_key>';

  it('a valid control, in the form or given apart in its place', () => {
    const valid = { ...base, valid: true, reason: 'valid', message: 'control is valid', controlInput };
    assert.deepEqual(verifyCallbackRequest([...fields, ['control', good]], key), valid);
    assert.deepEqual(verifyCallbackRequest(fields, key, good), valid);
    assert.deepEqual(verifyCallbackRequest([...fields, ['control', hex('x')]], key, good), valid);
    assert.equal(verifyCallbackRequest([...fields, ['control', good]], key, hex('x')).reason, 'mismatch');
  });

  it('another control: mismatch, with what the formula covers', () => {
    assert.deepEqual(verifyCallbackRequest(fields, key, hex(`approved900A-110.50${key}`)), {
      ...base,
      valid: false,
      reason: 'mismatch',
      message: 'control: does not match SHA-1(status + orderid + client_orderid + merchant_control_key)',
      controlInput,
    });
  });

  it('missing or of another shape: said without the key', () => {
    assert.deepEqual(verifyCallbackRequest(fields, undefined), {
      ...base,
      valid: false,
      reason: 'missing',
      message: 'control: missing in the callback',
    });
    assert.deepEqual(verifyCallbackRequest(fields, undefined, 'abc'), {
      ...base,
      valid: false,
      reason: 'malformed',
      message: 'control: must be 40 lowercase hex digits (SHA-1)',
    });
  });

  it('a shaped control without the key, or without a field of the formula, is bad input', () => {
    assert.deepEqual(
      thrown(() => verifyCallbackRequest(fields, undefined, good)),
      CONTROL_KEY_MISSING,
    );
    const noStatus = thrown(() => verifyCallbackRequest(without(fields, 'status'), key, good));
    assert.equal(noStatus.code, 'ERR_MISSING_FIELD');
    assert.equal(noStatus.field, 'status');
  });
});
