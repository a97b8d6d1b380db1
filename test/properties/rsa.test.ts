/**
 * RSA-SHA256 (api-spec.md Scheme B, all /api/v4/ endpoints): node:crypto agrees with the node-forge
 * reference byte for byte, sign → verify holds, and one flipped bit fails verification.
 * Key generation is slow: two 2048-bit pairs for the whole file, few runs per property.
 */
import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey, verify } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  buildAuthorizationHeader,
  generateRsaKeyPair,
  loadPrivateKey,
  rsaSha256Signature,
  signRequest,
  type RequestInput,
} from '../../src/signing/index.ts';
import { verifyRequest } from '../../src/rules/verify.ts';
import { endpointId, login, nonce, pairs, realm, timestamp, unicodeString } from '../arbitraries.ts';
import { baseStringOracle, flipBit, rsaSha256SignatureForge } from '../oracles.ts';
import { fcParams, seed } from '../seed.ts';

const keyA = generateRsaKeyPair(2048);
const keyB = generateRsaKeyPair(2048);
const pkcs1 = (pem: string): string => createPrivateKey(pem).export({ type: 'pkcs1', format: 'pem' }).toString();

const PEMS = [
  { form: 'PKCS#8 (A)', pem: keyA.privateKeyPem },
  { form: 'PKCS#1 (A)', pem: pkcs1(keyA.privateKeyPem) },
  { form: 'PKCS#8 (B)', pem: keyB.privateKeyPem },
] as const;

/** Realistic base strings and arbitrary unicode text. */
const baseString = fc.oneof(
  unicodeString({ maxLength: 200 }),
  fc
    .tuple(endpointId, pairs({ maxLength: 6 }))
    .map(([id, ps]) => baseStringOracle('POST', `https://gw.example/api/v4/payout/${id}`, ps)),
);

const rsaCase = fc.record({
  url: endpointId.map((id) => `https://gw.example/api/v4/payout/${id}`),
  params: pairs({ maxLength: 6 }),
  login,
  options: fc.record({ nonce, timestamp, realm: fc.option(realm, { nil: undefined }) }),
});

describe(`RSA-SHA256 (seed ${seed})`, () => {
  it('the PEMs under test really are PKCS#8 and PKCS#1', () => {
    assert.match(PEMS[0].pem, /-----BEGIN PRIVATE KEY-----/);
    assert.match(PEMS[1].pem, /-----BEGIN RSA PRIVATE KEY-----/);
  });

  it('node:crypto and node-forge produce the same signature (PKCS#8 and PKCS#1 keys, unicode base strings)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PEMS), baseString, ({ pem }, s) => {
        const forge = rsaSha256SignatureForge(pem, s);
        assert.equal(rsaSha256Signature(loadPrivateKey(pem), s), forge);
        // And node:crypto's own verify accepts forge's signature over the UTF-8 bytes.
        assert.ok(verify('sha256', Buffer.from(s, 'utf8'), createPublicKey(pem), Buffer.from(forge, 'base64')));
      }),
      fcParams(16),
    );
  });

  it('sign → verify holds for payout v4', () => {
    fc.assert(
      fc.property(rsaCase, ({ url, params, login: merchant, options }) => {
        const request: RequestInput = { url, params };
        const result = signRequest(request, { login: merchant, privateKeyPem: keyA.privateKeyPem }, options);
        if (result.scheme !== 'oauth-rsa-sha256') throw new Error(`expected oauth-rsa-sha256, got ${result.scheme}`);
        const verdict = verifyRequest(
          request,
          { login: merchant, publicKeyPem: keyA.publicKeyPem },
          { authorization: result.oauth.authorization },
        );
        assert.equal(verdict.reason, 'valid', verdict.message);
      }),
      fcParams(20),
    );
  });

  it('flipping any one bit of the signature makes verification fail', () => {
    fc.assert(
      fc.property(rsaCase, fc.nat(), ({ url, params, login: merchant, options }, bit) => {
        const request: RequestInput = { url, params };
        const result = signRequest(request, { login: merchant, privateKeyPem: keyA.privateKeyPem }, options);
        if (result.scheme !== 'oauth-rsa-sha256') throw new Error(`expected oauth-rsa-sha256, got ${result.scheme}`);
        const header = (signature: string): string =>
          buildAuthorizationHeader([...result.oauth.protocol, ['oauth_signature', signature]], options.realm);
        const credentials = { login: merchant, publicKeyPem: keyA.publicKeyPem };
        assert.equal(
          verifyRequest(request, credentials, { authorization: header(result.oauth.signature) }).valid,
          true,
        );
        const flipped = flipBit(result.oauth.signature, bit);
        assert.notEqual(flipped, result.oauth.signature);
        const verdict = verifyRequest(request, credentials, { authorization: header(flipped) });
        assert.equal(verdict.valid, false);
        assert.equal(verdict.reason, 'mismatch');
      }),
      fcParams(20),
    );
  });
});
