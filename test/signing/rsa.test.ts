// RSA-SHA256 known answer authored with openssl, not with this code:
//   printf '%s' "$BASE" > base.txt
//   openssl dgst -sha256 -sign vectors/keys/test-only-merchant-rsa-2048.pem -out sig.bin base.txt
//   openssl dgst -sha256 -verify vectors/keys/test-only-merchant-rsa-2048.pub.pem -signature sig.bin base.txt  # Verified OK
//   base64 -w0 sig.bin
// The base string itself was written by hand from the request below (RFC 3986 encoding of each
// pair, sorted, joined, encoded again); the code must reproduce it from the raw request.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadPrivateKey, loadPublicKey } from '../../src/signing/keys.ts';
import { rsaSha256Signature, rsaSha256Verify } from '../../src/signing/rsa-sha256.ts';
import { rsaSha256SignatureForge } from '../oracles.ts';
import { signRequest } from '../../src/signing/sign.ts';
import { verifyRequest } from '../../src/rules/verify.ts';
import { buildAuthorizationHeader, parseAuthorizationHeader } from '../../src/signing/authorization-header.ts';

const keyFile = (name: string) => readFileSync(new URL(`../../vectors/keys/${name}`, import.meta.url), 'utf8');
const pkcs8 = keyFile('test-only-merchant-rsa-2048.pem');
const pkcs1 = keyFile('test-only-merchant-rsa-2048.pkcs1.pem');
const spki = keyFile('test-only-merchant-rsa-2048.pub.pem');

const BASE =
  'POST&https%3A%2F%2Fsandbox.gateway.example%2Fpaynet%2Fapi%2Fv4%2Fpayout%2F1234&amount%3D100%26client-order-id%3DPO-7' +
  '%26currency%3DEUR%26oauth_consumer_key%3Dmerchant-test%26oauth_nonce%3Dn0nce%252F7%26oauth_signature_method%3DRSA-SHA256' +
  '%26oauth_timestamp%3D1700000000%26oauth_version%3D1.0%26order_desc%3DPayout%2520%25237%2520f%25C3%25BCr%2520J%25C3%25B6rg';
const OPENSSL_SIGNATURE =
  'WD020CMzHzcLEbVhF4/j73doW4Vzr8YF72H+Fjqk87cVukvGVX29R/0XofDKpidfrYltbXbdSRd3tiGHl+bvm1M923687LJHymDErJbGN9p1XXEBwORBQn5S+/2jBUAE' +
  'lNq0xRh2w6wU/2ICf3miy3tIH5MP+I0sLrALSgQGmaCd3Mp2QL9wdauKSJ9eFtZgn4YT/ykQScUXGLRDpQOA1gRpVKfytP7tvtNoRrSStgDaTbe8aIW4euAjzAgANT8a4' +
  'lfZGDN4mcpWQgDx+e0tPbdqU63mvK6Y8MSNJFUjipGn2B6hDzhE/JLFt9mcaSJQTrgp+hlA6+ungS/VtWXlOg==';

const request = {
  url: 'https://Sandbox.Gateway.Example:443/paynet/api/v4/payout/1234',
  params: [
    ['client-order-id', 'PO-7'],
    ['amount', '100'],
    ['currency', 'EUR'],
    ['order_desc', 'Payout #7 für Jörg'],
  ] as Array<[string, string]>,
};
const options = { nonce: 'n0nce/7', timestamp: '1700000000' };

describe('RSA-SHA256 (spec Scheme B, /api/v4/)', () => {
  it('reproduces the hand-written base string and the openssl signature for a v4 payout', () => {
    const result = signRequest(request, { login: 'merchant-test', privateKeyPem: pkcs8 }, options);
    assert.equal(result.scheme, 'oauth-rsa-sha256');
    if (result.scheme !== 'oauth-rsa-sha256') return;
    assert.equal(result.oauth.baseString, BASE);
    assert.equal(result.oauth.signature, OPENSSL_SIGNATURE);
  });

  it('signs the same with node:crypto and node-forge, from PKCS#8 and PKCS#1 PEM', () => {
    assert.equal(rsaSha256Signature(loadPrivateKey(pkcs1), BASE), OPENSSL_SIGNATURE);
    assert.equal(rsaSha256SignatureForge(pkcs8, BASE), OPENSSL_SIGNATURE);
    assert.equal(rsaSha256SignatureForge(pkcs1, BASE), OPENSSL_SIGNATURE);
  });

  it('verifies with the public key, and fails for a flipped bit, another base string or non-canonical base64', () => {
    const pub = loadPublicKey(spki);
    assert.equal(rsaSha256Verify(pub, BASE, OPENSSL_SIGNATURE), true);
    const bytes = Buffer.from(OPENSSL_SIGNATURE, 'base64');
    bytes[17]! ^= 0x01;
    assert.equal(rsaSha256Verify(pub, BASE, bytes.toString('base64')), false);
    assert.equal(rsaSha256Verify(pub, `${BASE}x`, OPENSSL_SIGNATURE), false);
    assert.equal(rsaSha256Verify(pub, BASE, `${OPENSSL_SIGNATURE.slice(0, 10)}*${OPENSSL_SIGNATURE.slice(10)}`), false);
  });

  it('verifies a whole request header, and rejects HMAC on an RSA endpoint, a wrong login and a changed body', () => {
    const signed = signRequest(request, { login: 'merchant-test', privateKeyPem: pkcs8 }, options);
    if (signed.scheme !== 'oauth-rsa-sha256') return assert.fail();
    const creds = { login: 'merchant-test', publicKeyPem: spki };
    assert.equal(verifyRequest(request, creds, { authorization: signed.oauth.authorization }).reason, 'valid');
    const pairs = parseAuthorizationHeader(signed.oauth.authorization).pairs.map(([n, v]): [string, string] =>
      n === 'oauth_signature_method' ? [n, 'HMAC-SHA1'] : [n, v],
    );
    assert.equal(
      verifyRequest(request, creds, { authorization: buildAuthorizationHeader(pairs) }).reason,
      'wrong-signature-method',
    );
    assert.equal(
      verifyRequest(request, { ...creds, login: 'someone-else' }, { authorization: signed.oauth.authorization }).reason,
      'wrong-consumer-key',
    );
    const changed = {
      ...request,
      params: request.params.map(([n, v]) => [n, n === 'amount' ? '101' : v] as [string, string]),
    };
    assert.equal(verifyRequest(changed, creds, { authorization: signed.oauth.authorization }).reason, 'mismatch');
  });
});

describe('RSA key loading', () => {
  const small = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const cases: Array<[string, string, RegExp]> = [
    ['a 1024-bit key', small.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, /1024 bits; at least 2048/],
    ['a public key where a private one is needed', spki, /is a public key/],
    [
      'an encrypted PKCS#8 key',
      loadPrivateKey(pkcs8).export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'x' }) as string,
      /is encrypted/,
    ],
    [
      'an encrypted PKCS#1 key',
      loadPrivateKey(pkcs8).export({ type: 'pkcs1', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'x' }) as string,
      /is encrypted/,
    ],
    ['a truncated PEM', pkcs8.slice(0, 200) + '\n-----END PRIVATE KEY-----\n', /malformed PRIVATE KEY PEM/],
    ['text that is not PEM', 'hello', /is not PEM/],
    [
      'an EC key',
      ec.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
      /must be an RSA key \(got ec key\)/,
    ],
    ['a certificate', '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n', /PEM label "CERTIFICATE"/],
  ];
  for (const [what, pem, message] of cases) {
    it(`rejects ${what} with one line that does not echo the key`, () => {
      assert.throws(
        () => loadPrivateKey(pem),
        (err: Error & { code: string }) => {
          assert.equal(err.code, 'ERR_KEY');
          assert.match(err.message, message);
          assert.ok(!err.message.includes('\n') && !err.message.includes('MII'), err.message);
          return true;
        },
      );
    });
  }
  it('rejects a short public key for verification', () => {
    assert.throws(
      () => loadPublicKey(small.publicKey.export({ type: 'spki', format: 'pem' }) as string),
      /at least 2048/,
    );
  });
});
