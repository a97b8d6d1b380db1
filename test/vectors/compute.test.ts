// computeVector: the reference values of one vector, checked against concatenations, base strings
// and HMACs written by hand here (node:crypto), for the corners a vector file can reach.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { computeExpected, computeVector, explainVector } from '../../src/vectors/compute.ts';
import type { Vector } from '../../src/vectors/types.ts';

const pem = readFileSync(new URL('../../vectors/keys/test-only-merchant-rsa-2048.pem', import.meta.url), 'utf8');

const hmacVector = (url: string, extra: Partial<Vector> = {}): Vector => ({
  id: 'v',
  scheme: 'oauth-hmac-sha1',
  request: { method: 'POST', url, params: [['amount', '1.00']] },
  credentials: { login: 'm', merchantControlKey: 'k' },
  oauth: { nonce: 'n', timestamp: '7' },
  expected: {},
  ...extra,
});
const oauthOf = (v: Vector) => {
  const r = computeVector(v);
  assert.notEqual(r.scheme, 'control');
  if (r.scheme === 'control') throw new Error('unreachable');
  return r;
};

describe('computeVector, OAuth', () => {
  // RFC 5849 §3.4.1: POST & enc(URL) & enc(sorted pairs); oauth_version 1.0 is sent unless the vector says otherwise.
  const requestBase =
    'POST&http%3A%2F%2Fexample.com%2Frequest&amount%3D1.00%26oauth_consumer_key%3Dm%26oauth_nonce%3Dn' +
    '%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D7%26oauth_version%3D1.0';

  it('signs a URL outside the catalogue (an RFC 5849 example) under a stand-in row that names the RFC', () => {
    const r = oauthOf(hmacVector('http://example.com/request'));
    assert.equal(r.oauth.baseString, requestBase);
    assert.equal(r.oauth.signature, createHmac('sha1', 'k&').update(requestBase).digest('base64'));
    assert.match(r.endpoint.operation, /RFC ?5849/);
    assert.equal(r.endpoint.path, '/request');
    assert.equal(r.endpoint.auth.kind, 'oauth-hmac-sha1');
    assert.equal(
      r.endpoint.endpointGroup.accepted,
      false,
      'a URL outside the catalogue has no public page listing a group URL',
    );
    assert.equal(r.endpoint.source, 'signing-example');
    assert.equal(r.endpoint.version, 'v2', 'HMAC-SHA1 signs the v2 payout');
    assert.equal(r.endpointId, '');
    assert.equal(r.prefix, '');
  });

  it('gives an RSA-SHA256 stand-in row the version that signs with RSA-SHA256 (v4, A-5)', () => {
    const r = oauthOf(
      hmacVector('http://example.com/request', {
        scheme: 'oauth-rsa-sha256',
        credentials: { login: 'm', privateKeyPem: pem },
      }),
    );
    assert.equal(r.endpoint.auth.kind, 'oauth-rsa-sha256');
    assert.equal(r.endpoint.version, 'v4');
  });

  it('takes endpointId and path prefix from a catalogue URL', () => {
    const r = oauthOf(hmacVector('https://h.example/paynet/api/v2/payout/42'));
    assert.equal(r.endpoint.operation, 'PAYOUT');
    assert.equal(r.endpointId, '42');
    assert.equal(r.prefix, '/paynet');
  });

  it('describes the HMAC key as consumer secret & token secret, never the key itself (spec: key = control key + "&")', () => {
    assert.equal(oauthOf(hmacVector('http://example.com/request')).keyDescription, 'enc(<merchant_control_key>)&');
    const withToken = oauthOf(
      hmacVector('http://example.com/request', {
        credentials: { login: 'm', merchantControlKey: 'k', token: 't', tokenSecret: 'ts' },
      }),
    );
    assert.equal(withToken.keyDescription, 'enc(<merchant_control_key>)&<enc(token_secret)>');
    assert.equal(
      withToken.oauth.signature,
      createHmac('sha1', 'k&ts').update(withToken.oauth.baseString).digest('base64'),
    );
  });

  it('signs empty consumer key, nonce, timestamp and secret when the vector has no login, oauth block or key', () => {
    const v = hmacVector('http://example.com/request', { credentials: {} });
    delete (v as { oauth?: unknown }).oauth;
    const base =
      'POST&http%3A%2F%2Fexample.com%2Frequest&amount%3D1.00%26oauth_consumer_key%3D%26oauth_nonce%3D' +
      '%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D%26oauth_version%3D1.0';
    const r = oauthOf(v);
    assert.equal(r.oauth.baseString, base);
    assert.equal(r.oauth.signature, createHmac('sha1', '&').update(base).digest('base64'));
  });

  it("describes the RSA key by the spec's <PRIVATE_KEY> placeholder and its size", () => {
    const r = oauthOf(
      hmacVector('https://h.example/api/v4/payout/5', {
        scheme: 'oauth-rsa-sha256',
        credentials: { login: 'm', privateKeyPem: pem },
      }),
    );
    assert.match(r.keyDescription, /^<PRIVATE_KEY> \(.*2048/);
    assert.ok(!r.keyDescription.includes('BEGIN'), 'no key material');
  });

  it('asks for the private key of an RSA-SHA256 vector that has none, instead of reading nothing as a PEM', () => {
    for (const privateKeyPem of [undefined, '']) {
      const v = hmacVector('https://h.example/api/v4/payout/5', {
        scheme: 'oauth-rsa-sha256',
        credentials: { login: 'm', privateKeyPem },
      });
      assert.throws(
        () => computeVector(v),
        (err: Error & { code?: string }) =>
          err.code === 'ERR_CREDENTIALS' &&
          /^credentials\.privateKeyPem: missing \(an RSA-SHA256 vector is signed with its private key\)$/.test(
            err.message,
          ),
      );
    }
  });
});

describe('computeVector, control', () => {
  const sale = (extra: Partial<Vector>): Vector => ({
    id: 'c',
    scheme: 'control',
    operation: 'SALE',
    request: {
      method: 'POST',
      url: 'https://h.example/api/v2/sale/1234',
      params: [
        ['client_orderid', 'A-1'],
        ['amount', '2.50'],
        ['email', 'a@b.example'],
      ],
    },
    credentials: { merchantControlKey: 'K' },
    expected: {},
    ...extra,
  });

  it('hashes the formula with an empty key when the vector has none', () => {
    const r = computeVector(sale({ credentials: {} }));
    assert.equal(r.scheme, 'control');
    if (r.scheme !== 'control') return;
    assert.equal(r.control.control, createHash('sha1').update('1234A-1250a@b.example').digest('hex'));
  });

  it('needs an operation: without one it names the empty operation as unknown', () => {
    const v = sale({});
    delete (v as { operation?: unknown }).operation;
    assert.throws(
      () => computeVector(v),
      (err: Error & { code?: string }) =>
        err.code === 'ERR_UNKNOWN_OPERATION' && /^operation: "" is not in the catalogue/.test(err.message),
    );
  });

  it('refuses an operation whose scheme is not control', () => {
    assert.throws(() => computeVector(sale({ operation: 'PAYOUT' })), /PAYOUT is not a control endpoint/);
  });
});

describe('a callback vector', () => {
  const callback: Vector = {
    id: 'cb',
    scheme: 'control',
    message: 'callback',
    request: {
      method: 'POST',
      url: 'https://merchant.example/callback',
      params: [
        ['orderid', '42'],
        ['client_orderid', 'A-1'],
        ['amount', '10.00'],
        ['status', 'approved'],
      ],
    },
    credentials: { merchantControlKey: 'k' },
    expected: {},
  };
  // docs/assumptions.md A-31: SHA-1(status + orderid + client_orderid + merchant_control_key), amount left out;
  // the computed concatenation shows the key as its placeholder (docs/vectors.md: reports always do).
  const control = createHash('sha1').update('approved42A-1k').digest('hex');
  const controlInput = 'approved42A-1<merchant_control_key>';

  it("is explained as the gateway's callback, with its control over the callback's own fields", () => {
    const { steps, ...rest } = explainVector(callback);
    assert.deepEqual(rest, {
      operation: 'CALLBACK',
      path: 'server_callback_url',
      endpointId: '',
      scheme: 'control',
      expected: { controlInput, control },
    });
    // The steps themselves are explain's (test/signing); here: it is the callback's walk, ending in its control.
    assert.equal(steps[0]?.step, 'message');
    assert.equal(steps.at(-1)?.value, control);
  });

  it('expects that control', () => {
    assert.deepEqual(computeExpected(callback), { controlInput, control });
  });
});
