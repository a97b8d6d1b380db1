// Near-misses and the other refusal cases, on values written by hand: SHA-1("test") is
// a94a8fe5ccb19ba61c4c0873d391e987982fbbd3 (sha1sum), URLs changed one part at a time.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { endpointByOperation } from '../../src/catalogue/index.ts';
import { buildRequest } from '../../src/client/client.ts';
import { sampleRequest } from '../../src/schemas/index.ts';
import { getParam, parseAuthorizationHeader } from '../../src/signing/authorization-header.ts';
import {
  knownMistakeCase,
  oauthNearMissCase,
  sentSignature,
  wrongEnvelopeCase,
  wrongSchemeCase,
  type Base,
  type Fresh,
} from '../../src/explore/cases.ts';
import { nearMissControl, signedUrlOf } from '../../src/explore/near-misses.ts';
import { TEST_CREDENTIALS } from './credentials.ts';

const C = 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3';
const URL_ = 'https://gw.example/paynet/api/v2/payout/1001';

function base(operation: string): Base {
  const endpoint = endpointByOperation(operation);
  const options = { baseUrl: 'https://gw.example/paynet', credentials: TEST_CREDENTIALS, endpointId: '1001' };
  const request = buildRequest(endpoint, options, sampleRequest(endpoint), { nonce: 'n0', timestamp: '1700000000' });
  return { operation: endpoint.operation, request, credentials: TEST_CREDENTIALS, endpointId: '1001' };
}

const counter = (): Fresh => {
  let n = 0;
  return () => ({ nonce: `n${++n}`, timestamp: '1700000000' });
};

describe('control near-misses', () => {
  it('change one hex digit, cut, pad or raise the control, and nothing else', () => {
    assert.equal(nearMissControl(C, { kind: 'hex-digit', position: 0, by: 1 }), `b${C.slice(1)}`);
    assert.equal(nearMissControl(C, { kind: 'hex-digit', position: 39, by: 15 }), `${C.slice(0, 39)}2`);
    assert.equal(nearMissControl(C, { kind: 'truncated', length: 5 }), 'a94a8');
    assert.equal(nearMissControl(C, { kind: 'truncated', length: 39 }), C.slice(0, 39));
    assert.equal(nearMissControl(C, { kind: 'padded', extra: '0', before: false }), `${C}0`);
    assert.equal(nearMissControl(C, { kind: 'padded', extra: 'ff', before: true }), `ff${C}`);
    assert.equal(nearMissControl(C, { kind: 'uppercased' }), 'A94A8FE5CCB19BA61C4C0873D391E987982FBBD3');
    assert.equal(nearMissControl('0'.repeat(40), { kind: 'uppercased' }), undefined);
  });
});

describe('OAuth near-misses', () => {
  it('sign over another scheme, host, port, path or query, one part at a time', () => {
    assert.equal(signedUrlOf(URL_, { kind: 'scheme' }), 'http://gw.example/paynet/api/v2/payout/1001');
    assert.equal(
      signedUrlOf(URL_, { kind: 'host', host: 'example.com' }),
      'https://example.com/paynet/api/v2/payout/1001',
    );
    assert.equal(signedUrlOf(URL_, { kind: 'port', port: 8443 }), 'https://gw.example:8443/paynet/api/v2/payout/1001');
    // The default port would sign the same URL: another is taken.
    assert.equal(signedUrlOf(URL_, { kind: 'port', port: 443 }), 'https://gw.example:8/paynet/api/v2/payout/1001');
    assert.equal(signedUrlOf(URL_, { kind: 'path', change: 'prefix' }), 'https://gw.example/api/v2/payout/1001');
    assert.equal(signedUrlOf(URL_, { kind: 'path', change: 'endpoint-id' }), `${URL_}0`);
    assert.equal(signedUrlOf(URL_, { kind: 'query-signed', name: 'q', value: 'a b' }), `${URL_}?q=a+b`);
  });

  it('send a query the signature left out, and sign a method other than the one sent', () => {
    const b = base('PAYOUT');
    const leftOut = oauthNearMissCase(b, { kind: 'query-left-out', name: 'q', value: 'v' }, counter());
    assert.equal(leftOut?.url, `${URL_}?q=v`);
    assert.equal(leftOut?.body, b.request.body);
    const method = oauthNearMissCase(b, { kind: 'method', method: 'PUT' }, counter());
    assert.equal(method?.method, 'POST');
    assert.notEqual(sentSignature(method), sentSignature(b.request));
  });
});

describe('known mistakes, wrong schemes, wrong envelopes', () => {
  it('send a mistake only where it changes the signature, each with a nonce of its own', () => {
    const b = base('SALE');
    const decimal = knownMistakeCase(b, 'decimal-amount', counter());
    assert.notEqual(sentSignature(decimal!), sentSignature(b.request));
    // SALE's formula has no room for the amount a second time: amount-in-formula gives no value to send.
    assert.equal(knownMistakeCase(b, 'amount-in-formula', counter()), undefined);
    const p = base('PAYOUT');
    const fresh = counter();
    const nonces = ['double-encoding', 'lowercase-hex'].map((id) => {
      const header = knownMistakeCase(p, id, fresh)?.headers.authorization ?? '';
      return getParam(parseAuthorizationHeader(header), 'oauth_nonce');
    });
    assert.equal(new Set(nonces).size, 2);
  });

  it('put OAuth on a control endpoint without control, and control on an OAuth one without the header', () => {
    const oauthOnControl = wrongSchemeCase(base('SALE'), 'HMAC-SHA1', counter())!;
    assert.ok(oauthOnControl.headers.authorization?.startsWith('OAuth '));
    assert.ok(!oauthOnControl.params.some(([n]) => n === 'control'));
    const controlOnOAuth = wrongSchemeCase(base('PAYOUT'), 'control', counter())!;
    assert.equal(controlOnOAuth.headers.authorization, undefined);
    assert.match(controlOnOAuth.params.find(([n]) => n === 'control')?.[1] ?? '', /^[0-9a-f]{40}$/);
  });

  it('send a GET with the fields in the query, a multipart body, or no Accept', () => {
    const b = base('SALE');
    const get = wrongEnvelopeCase(b, { kind: 'method', method: 'GET' }, counter());
    assert.equal(get.method, 'GET');
    assert.equal(get.body, '');
    assert.equal(new URL(get.url).searchParams.get('client_orderid'), 'ORD-1');
    const multipart = wrongEnvelopeCase(b, { kind: 'body', type: 'multipart/form-data' }, counter());
    assert.match(multipart.headers['content-type'] ?? '', /^multipart\/form-data; boundary=/);
    assert.match(multipart.body, /Content-Disposition: form-data; name="client_orderid"\r\n\r\nORD-1\r\n/);
    assert.equal(wrongEnvelopeCase(b, { kind: 'accept', accept: null }, counter()).headers.accept, undefined);
  });
});
