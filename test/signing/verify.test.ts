// constantTimeEqual, the signer's one comparison of a sent and a recomputed signature, and compareSignature, which
// recomputes the endpoint's signature and compares: each result read whole. Controls are SHA-1 over concatenations
// written here (api-spec.md Scheme A), HMAC-SHA1 signatures are createHmac over base strings written here (Scheme B).
// verifyRequest's verdicts are read whole in test/rules/verify-verdicts.test.ts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import type { Pair } from '../../src/signing/form-body.ts';
import { compareSignature, constantTimeEqual } from '../../src/signing/verify.ts';
import { thrown } from './thrown.ts';

describe('constantTimeEqual', () => {
  it('compares the UTF-8 bytes', () => {
    assert.equal(constantTimeEqual('Jörg', 'Jörg'), true);
    assert.equal(constantTimeEqual('Jörg', 'Jorg'), false);
    assert.equal(constantTimeEqual('ab', 'abc'), false);
  });
});

describe('compareSignature, control (Scheme A)', () => {
  const sale = {
    url: 'https://gw.example/paynet/api/v2/sale/1234',
    params: [
      ['client_orderid', 'A-1'],
      ['amount', '10.50'],
      ['email', 'a@b.example'],
    ] as Pair[],
  };
  // SHA-1(endpointId + client_orderid + amount in cents + email + key)
  const right = createHash('sha1').update('1234A-11050a@b.exampleK').digest('hex');

  it('matches the control recomputed from the URL and the form, and shows what it covers without the key', () => {
    const covers = '1234A-11050a@b.example<merchant_control_key>';
    assert.deepEqual(compareSignature(sale, { controlKey: 'K' }, { control: right }), {
      valid: true,
      controlInput: covers,
    });
    assert.deepEqual(compareSignature(sale, { controlKey: 'K2' }, { control: right }), {
      valid: false,
      controlInput: covers,
    });
  });

  it('an OAuth header sent to a control endpoint never matches, and no base string is made for it', () => {
    const header = { realm: undefined, pairs: [['oauth_signature_method', 'HMAC-SHA1'] as Pair] };
    assert.deepEqual(compareSignature(sale, { controlKey: 'K' }, { header, signature: right }), { valid: false });
  });

  it('asks for the control key by name', () => {
    const missing = 'control key: missing (give --control-key-file or set PAYCONFORM_CONTROL_KEY)';
    assert.deepEqual(
      thrown(() => compareSignature(sale, {}, { control: right })),
      {
        code: 'ERR_CREDENTIALS',
        message: missing,
        field: 'control key',
        rule: 'required',
      },
    );
  });
});

describe('compareSignature, OAuth HMAC-SHA1 (Scheme B, payout)', () => {
  const payout = {
    url: 'https://gw.example/api/v2/payout/77',
    params: [
      ['client_orderid', 'O-1'],
      ['amount', '5.00'],
    ] as Pair[],
  };
  const protocol = (method: string): Pair[] => [
    ['oauth_consumer_key', 'merchant'],
    ['oauth_nonce', 'abc'],
    ['oauth_signature_method', method],
    ['oauth_timestamp', '1700000000'],
  ];
  const base = (httpMethod: string, method: string): string =>
    `${httpMethod}&https%3A%2F%2Fgw.example%2Fapi%2Fv2%2Fpayout%2F77&amount%3D5.00%26client_orderid%3DO-1` +
    `%26oauth_consumer_key%3Dmerchant%26oauth_nonce%3Dabc%26oauth_signature_method%3D${method}` +
    '%26oauth_timestamp%3D1700000000';
  const hmac = (text: string): string => createHmac('sha1', 'secret&').update(text).digest('base64');
  const sent = (method: string, signature: string) => ({
    header: { realm: undefined, pairs: [...protocol(method), ['oauth_signature', signature] as Pair] },
    signature,
  });

  it('signs POST when the request names no method, and matches the HMAC of that base string', () => {
    const baseString = base('POST', 'HMAC-SHA1');
    assert.deepEqual(compareSignature(payout, { controlKey: 'secret' }, sent('HMAC-SHA1', hmac(baseString))), {
      valid: true,
      baseString,
    });
  });

  it("a signature made over another method's base string does not match", () => {
    const baseString = base('PUT', 'HMAC-SHA1');
    const request = { ...payout, method: 'PUT' };
    assert.deepEqual(
      compareSignature(request, { controlKey: 'secret' }, sent('HMAC-SHA1', hmac(base('POST', 'HMAC-SHA1')))),
      { valid: false, baseString },
    );
  });

  it('a header that names RSA-SHA256 does not match, even with the right HMAC of its base string', () => {
    const baseString = base('POST', 'RSA-SHA256');
    assert.deepEqual(compareSignature(payout, { controlKey: 'secret' }, sent('RSA-SHA256', hmac(baseString))), {
      valid: false,
      baseString,
    });
  });

  it('a control sent to an OAuth endpoint never matches', () => {
    assert.deepEqual(compareSignature(payout, { controlKey: 'secret' }, { control: 'c' }), { valid: false });
  });

  it('asks for the control key, the HMAC secret, by name', () => {
    assert.deepEqual(
      thrown(() => compareSignature(payout, {}, sent('HMAC-SHA1', 'x'))),
      {
        code: 'ERR_CREDENTIALS',
        message: 'control key: missing (give --control-key-file or set PAYCONFORM_CONTROL_KEY)',
        field: 'control key',
        rule: 'required',
      },
    );
  });
});

describe('compareSignature, OAuth RSA-SHA256 (Scheme B, /api/v4/)', () => {
  it('asks for a public key (or the private key it comes from) by name', () => {
    const request = { url: 'https://gw.example/api/v4/payout/5', params: [['client_orderid', 'O-1']] as Pair[] };
    const header = { realm: undefined, pairs: [['oauth_signature_method', 'RSA-SHA256'] as Pair] };
    assert.deepEqual(
      thrown(() => compareSignature(request, { controlKey: 'K' }, { header, signature: 'x' })),
      {
        code: 'ERR_CREDENTIALS',
        message: 'public key: missing (give --public-key-file or --private-key-file)',
        field: 'public key',
        rule: 'required',
      },
    );
  });
});
