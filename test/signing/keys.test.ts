// RSA key loading (api-spec.md Scheme B: PEM keys of at least 2048 bits). Errors name the field and the
// rule and never echo the key; parsed keys are cached by PEM text (keys.ts header), at most 256 per kind.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describeKey, loadPrivateKey, loadPublicKey } from '../../src/signing/keys.ts';

const keyFile = (name: string) => readFileSync(new URL(`../../vectors/keys/${name}`, import.meta.url), 'utf8');
const pkcs8 = keyFile('test-only-merchant-rsa-2048.pem');
const spki = keyFile('test-only-merchant-rsa-2048.pub.pem');

/** Asserts an ERR_KEY error about `field` whose one-line message matches `rule`. */
const keyError = (field: string, rule: RegExp) => (err: Error & { code?: string; field?: string }) => {
  assert.equal(err.code, 'ERR_KEY');
  assert.equal(err.field, field);
  assert.ok(err.message.startsWith(`${field}: `), err.message);
  assert.match(err.message, rule);
  assert.ok(!err.message.includes('\n') && !err.message.includes('MII'), err.message);
  return true;
};

const encryptedPkcs1 = loadPrivateKey(pkcs8).export({
  type: 'pkcs1',
  format: 'pem',
  cipher: 'aes-256-cbc',
  passphrase: 'x',
}) as string;
const encryptedPkcs8 = loadPrivateKey(pkcs8).export({
  type: 'pkcs8',
  format: 'pem',
  cipher: 'aes-256-cbc',
  passphrase: 'x',
}) as string;

describe('loadPrivateKey / loadPublicKey errors name the field and the rule', () => {
  it('the default field names are "private key" and "public key"', () => {
    assert.throws(() => loadPrivateKey('hello'), keyError('private key', /is not PEM/));
    assert.throws(() => loadPublicKey('hello'), keyError('public key', /is not PEM/));
  });

  it('a public key PEM without a BEGIN line is not PEM; a truncated one is malformed', () => {
    assert.throws(
      () => loadPublicKey('just text', '--public-key-file'),
      keyError('--public-key-file', /is not PEM \(no -----BEGIN/),
    );
    const truncated = `${spki.slice(0, 120)}\n-----END PUBLIC KEY-----\n`;
    assert.throws(
      () => loadPublicKey(truncated, '--public-key-file'),
      keyError('--public-key-file', /is a malformed PUBLIC KEY PEM/),
    );
  });

  it('an encrypted PKCS#1 key is rejected even when its Proc-Type header has no space after the colon', () => {
    assert.match(encryptedPkcs1, /Proc-Type: 4,ENCRYPTED/);
    const tight = encryptedPkcs1.replace('Proc-Type: 4,ENCRYPTED', 'Proc-Type:4,ENCRYPTED');
    assert.throws(() => loadPrivateKey(tight), keyError('private key', /is encrypted; decrypt it first/));
  });

  it('loadPublicKey given an encrypted private key says it is encrypted (it derives the public key through loadPrivateKey)', () => {
    assert.throws(() => loadPublicKey(encryptedPkcs8), keyError('public key', /is encrypted/));
    assert.throws(() => loadPublicKey(encryptedPkcs1), keyError('public key', /is encrypted/));
  });
});

describe('describeKey', () => {
  it('gives the modulus size and the key type (2048-bit test key)', () => {
    assert.equal(describeKey(loadPrivateKey(pkcs8)), '2048-bit RSA private key');
    assert.equal(describeKey(loadPublicKey(spki)), '2048-bit RSA public key');
  });
});

describe('key cache (by PEM text, at most 256 keys)', () => {
  // OpenSSL skips text before -----BEGIN, so each prefix gives another PEM text for the same key.
  const variant = (i: number, pem: string) => `variant ${i}\n${pem}`;

  it('returns the same KeyObject for the same PEM text, also after other keys were loaded', () => {
    const first = loadPrivateKey(variant(-1, pkcs8));
    assert.equal(loadPrivateKey(variant(-1, pkcs8)), first);
    loadPrivateKey(variant(-2, pkcs8));
    assert.equal(loadPrivateKey(variant(-1, pkcs8)), first);
    const pub = loadPublicKey(variant(-1, spki));
    loadPublicKey(variant(-2, spki));
    assert.equal(loadPublicKey(variant(-1, spki)), pub);
  });

  it('evicts the oldest key once 256 are cached', () => {
    const oldest = loadPrivateKey(variant(1000, pkcs8));
    const second = loadPrivateKey(variant(1001, pkcs8));
    // 256 newer keys fill the cache: both of ours are gone (with room for 257 the second would stay).
    // The second is asked for first: asking for the oldest again caches it and evicts the next oldest.
    for (let i = 0; i < 256; i++) loadPrivateKey(variant(2000 + i, pkcs8));
    assert.notEqual(loadPrivateKey(variant(1001, pkcs8)), second);
    assert.notEqual(loadPrivateKey(variant(1000, pkcs8)), oldest);
    // The most recent one is still cached.
    const recent = loadPrivateKey(variant(2255, pkcs8));
    assert.equal(loadPrivateKey(variant(2255, pkcs8)), recent);
  });
});
