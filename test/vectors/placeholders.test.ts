// Placeholders for the secrets of a shared vector file (vector-format.md: `<merchant_control_key>` and
// `<PRIVATE_KEY>` stand for secrets a partner pack leaves out), hidden and filled back in.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fillPlaceholders, hideSecrets } from '../../src/vectors/placeholders.ts';
import type { Vector } from '../../src/vectors/types.ts';

const controlVector: Vector = {
  id: 'c',
  scheme: 'control',
  operation: 'SALE',
  request: { method: 'POST', url: 'https://h.example/api/v2/sale/1', params: [] },
  credentials: { login: 'l', merchantControlKey: 'KEY-1' },
  expected: { controlInput: '1A-71000e@xKEY-1', control: 'c0ffee' },
};
const rsaVector: Vector = {
  id: 'r',
  scheme: 'oauth-rsa-sha256',
  request: { method: 'POST', url: 'https://h.example/api/v4/payout/1', params: [] },
  credentials: { login: 'l', privateKeyPem: '-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----\n' },
  oauth: { nonce: 'n', timestamp: '1' },
  expected: { signature: 'sig' },
};

describe('hideSecrets', () => {
  it('replaces the control key, in the credentials and at the end of controlInput, and adds no private key', () => {
    const hidden = hideSecrets(controlVector);
    assert.deepEqual(hidden.credentials, { login: 'l', merchantControlKey: '<merchant_control_key>' });
    assert.ok(!('privateKeyPem' in hidden.credentials));
    assert.equal(hidden.expected.controlInput, '1A-71000e@x<merchant_control_key>');
    assert.equal(hidden.expected.control, 'c0ffee');
    assert.equal(controlVector.credentials.merchantControlKey, 'KEY-1', 'the input vector is left as it was');
  });

  it('replaces the private key with <PRIVATE_KEY> and adds no control key', () => {
    const hidden = hideSecrets(rsaVector);
    assert.deepEqual(hidden.credentials, { login: 'l', privateKeyPem: '<PRIVATE_KEY>' });
    assert.ok(!('merchantControlKey' in hidden.credentials));
    assert.deepEqual(hidden.expected, { signature: 'sig' });
  });
});

describe('fillPlaceholders', () => {
  const file = (credentials: unknown[]): { vectors: unknown[] } => ({
    vectors: credentials.map((c) => (c === null ? null : { credentials: c })),
  });

  it('fills both placeholders from the secrets and reports nothing missing', () => {
    const data = file([{ merchantControlKey: '<merchant_control_key>' }, { privateKeyPem: '<PRIVATE_KEY>' }]);
    assert.deepEqual(fillPlaceholders(data, { controlKey: 'K', privateKeyPem: 'PEM' }), []);
    assert.deepEqual(data.vectors, [
      { credentials: { merchantControlKey: 'K' } },
      { credentials: { privateKeyPem: 'PEM' } },
    ]);
  });

  it('names, in one line, each variable to set, how many vectors need it and the first pointer', () => {
    const data = file([
      { privateKeyPem: '<PRIVATE_KEY>' },
      { merchantControlKey: '<merchant_control_key>' },
      { merchantControlKey: '<merchant_control_key>' },
    ]);
    const missing = fillPlaceholders(data, {});
    assert.deepEqual(missing, [
      'credentials are the placeholders <merchant_control_key> / <PRIVATE_KEY>; set PAYCONFORM_CONTROL_KEY (2 vectors, first /vectors/1/credentials/merchantControlKey) and PAYCONFORM_PRIVATE_KEY_FILE (1 vector, first /vectors/0/credentials/privateKeyPem) to check them',
    ]);
    assert.deepEqual(
      fillPlaceholders(file([{ privateKeyPem: '<PRIVATE_KEY>' }]), { privateKeyPem: 'PEM' }),
      [],
      'nothing missing once the key is given',
    );
    assert.deepEqual(
      data.vectors,
      file([
        { privateKeyPem: '<PRIVATE_KEY>' },
        { merchantControlKey: '<merchant_control_key>' },
        { merchantControlKey: '<merchant_control_key>' },
      ]).vectors,
      'nothing changed',
    );
  });

  it('leaves real values alone', () => {
    const data = file([{ merchantControlKey: 'real', privateKeyPem: 'real-pem' }]);
    assert.deepEqual(fillPlaceholders(data, { controlKey: 'K', privateKeyPem: 'PEM' }), []);
    assert.deepEqual(data.vectors, [{ credentials: { merchantControlKey: 'real', privateKeyPem: 'real-pem' } }]);
  });

  it('passes over JSON that is not a vector file, for the schema check to name (no throw)', () => {
    for (const data of [null, 5, 'text', {}, { vectors: 'x' }, { vectors: [null, 7, {}, { credentials: null }] }]) {
      assert.deepEqual(fillPlaceholders(data, {}), [], JSON.stringify(data));
    }
  });
});
