// signRequest through the catalogue: the scheme each endpoint states (api-spec.md), the credentials each
// scheme needs, and how the key is described (RFC 5849 §3.4.2 key layout, placeholders of api-spec.md).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { ENDPOINTS, matchPath } from '../../src/catalogue/index.ts';
import { signableScheme, signRequest } from '../../src/signing/sign.ts';

const pkcs8 = readFileSync(new URL('../../vectors/keys/test-only-merchant-rsa-2048.pem', import.meta.url), 'utf8');
const hmacUrl = 'https://gw.example/api/v2/payout/1234';
const rsaUrl = 'https://gw.example/api/v4/payout/1234';
const options = { nonce: 'n', timestamp: '1700000000' };

describe('signableScheme', () => {
  it('refuses an endpoint whose scheme the spec does not state (ERR_SCHEME, field operation)', () => {
    // payment-form: neither the spec nor any public page of the family states its authentication.
    const paymentForm = ENDPOINTS.find((e) => e.operation === 'PAYMENTFORM');
    assert.ok(paymentForm !== undefined && paymentForm.auth.kind === 'unstated');
    assert.throws(
      () => signableScheme(paymentForm),
      (err: Error & { code?: string; field?: string; rule?: string }) => {
        const { code, field, rule, message } = err;
        assert.deepEqual(
          { code, field, rule, message },
          {
            code: 'ERR_SCHEME',
            field: 'operation',
            rule: 'scheme must be stated',
            message:
              'operation: PAYMENTFORM has no authentication stated in the spec ("none stated"), so there is nothing to sign',
          },
        );
        return true;
      },
    );
  });
});

describe("signRequest: get-card-info, the public page's formula (A-12)", () => {
  // doc.payneteasy.eu …/api_v2_get-card-info.html: control = SHA-1(login + cardrefid + merchant_control).
  const url = 'https://gw.example/paynet/api/v2/get-card-info/1234';
  it('signs login + cardrefid + the control key, the login from the credentials (A-6)', () => {
    const r = signRequest(
      {
        method: 'POST',
        url,
        params: [
          ['login', 'm-login'],
          ['cardrefid', '777'],
        ],
      },
      { login: 'm-login', controlKey: 'K3y' },
    );
    assert.equal(r.scheme, 'control');
    if (r.scheme !== 'control') return;
    assert.equal(r.control.controlInput, 'm-login777<merchant_control_key>');
    assert.equal(r.control.control, createHash('sha1').update('m-login777K3y').digest('hex'));
  });
  it('takes the login request parameter when no login credential is given (A-6)', () => {
    const r = signRequest(
      {
        method: 'POST',
        url,
        params: [
          ['login', 'from-form'],
          ['cardrefid', '9'],
        ],
      },
      { controlKey: 'k' },
    );
    assert.equal(r.scheme === 'control' && r.control.control, createHash('sha1').update('from-form9k').digest('hex'));
  });
});

describe('signRequest: credentials', () => {
  const missing = (field: string, how: RegExp) => (err: Error & { code?: string; field?: string; rule?: string }) => {
    assert.equal(err.code, 'ERR_CREDENTIALS');
    assert.equal(err.field, field);
    assert.equal(err.rule, 'required');
    assert.ok(err.message.startsWith(`${field}: missing`), err.message);
    assert.match(err.message, how);
    return true;
  };

  it('HMAC-SHA1 needs the control key (the consumer secret) and the login (the consumer key)', () => {
    assert.throws(
      () => signRequest({ url: hmacUrl, params: [] }, { login: 'm' }, options),
      missing('control key', /PAYCONFORM_CONTROL_KEY/),
    );
    assert.throws(
      () => signRequest({ url: hmacUrl, params: [] }, { controlKey: 'k' }, options),
      missing('login', /PAYCONFORM_LOGIN/),
    );
  });

  it('RSA-SHA256 needs the private key', () => {
    assert.throws(
      () => signRequest({ url: rsaUrl, params: [] }, { login: 'm' }, options),
      missing('private key', /PAYCONFORM_PRIVATE_KEY_FILE/),
    );
  });
});

describe('signRequest: key description (never the key itself)', () => {
  const description = (url: string, credentials: Parameters<typeof signRequest>[1]) => {
    const result = signRequest({ url, params: [] }, credentials, options);
    return result.scheme === 'control' ? assert.fail('expected an OAuth scheme') : result.keyDescription;
  };

  it('HMAC-SHA1: enc(consumer secret)&enc(token secret), the token part empty without a token secret', () => {
    assert.equal(description(hmacUrl, { login: 'm', controlKey: 'secret-1' }), 'enc(<merchant_control_key>)&');
    const withToken = description(hmacUrl, { login: 'm', controlKey: 'secret-1', token: 't', tokenSecret: 'ts-1' });
    assert.equal(withToken, 'enc(<merchant_control_key>)&<enc(token_secret)>');
    assert.ok(!withToken.includes('secret-1') && !withToken.includes('ts-1'));
  });

  it('RSA-SHA256: the <PRIVATE_KEY> placeholder with the key size', () => {
    const text = description(rsaUrl, { login: 'm', privateKeyPem: pkcs8 });
    assert.equal(text, '<PRIVATE_KEY> (2048-bit RSA private key)');
  });
});

describe('signRequest with the URL already matched', () => {
  it("takes the caller's match instead of matching the URL again", () => {
    // SALE control = SHA-1(endpointId + client_orderid + cents + email + key): the endpoint id comes from the match.
    const params: [string, string][] = [
      ['client_orderid', 'A'],
      ['amount', '1.00'],
      ['email', 'e@x.example'],
    ];
    const url = 'https://gw.example/api/v2/sale/1';
    const match = matchPath('/api/v2/sale/2');
    const result = signRequest({ url, params }, { controlKey: 'K' }, {}, { match });
    assert.equal(result.endpointId, '2');
    assert.ok(result.scheme === 'control');
    assert.equal(result.control.control, createHash('sha1').update('2A100e@x.exampleK').digest('hex'));
  });
});

describe('signRequest: oauth_version', () => {
  // RFC 5849 §3.4.1: POST & enc(url) & enc(the sorted name=value pairs); written out here by hand.
  const BASE =
    'POST&https%3A%2F%2Fgw.example%2Fapi%2Fv2%2Fpayout%2F1234&oauth_consumer_key%3Dm%26oauth_nonce%3Dn' +
    '%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1700000000';
  const sign = (omitVersion?: boolean) => {
    const result = signRequest(
      { url: hmacUrl, params: [] },
      { login: 'm', controlKey: 'k' },
      { ...options, omitVersion },
    );
    return result.scheme === 'control' ? assert.fail('expected an OAuth scheme') : result.oauth;
  };

  it('sends and signs oauth_version="1.0" (Scheme B rule 2)', () => {
    const { baseString, authorization } = sign();
    assert.equal(baseString, `${BASE}%26oauth_version%3D1.0`);
    assert.match(authorization, /oauth_version="1\.0"/);
  });

  it('leaves it out of the header and the base string where asked (A-9: it may be left out)', () => {
    const { baseString, authorization } = sign(true);
    assert.equal(baseString, BASE);
    assert.doesNotMatch(authorization, /oauth_version/);
  });
});
