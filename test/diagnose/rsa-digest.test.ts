// The diagnosis search's RSA check (src/signing/diagnose/rsa-digest.ts) against a second implementation: for every
// message and candidate, recovering the DigestInfo once and hashing the candidate must answer what node:crypto's
// verify answers, under SHA-256 and SHA-1, for the signature's own message, another one, and another key's.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { TEST_MERCHANT_PRIVATE_KEY_FILE } from '../../src/gateway/merchants.ts';
import { signedDigestInfo, signsMessage, type RsaHash } from '../../src/signing/diagnose/rsa-digest.ts';
import { fcParams, seed } from '../seed.ts';

const privateKey = readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8');
const publicKey = createPublicKey(privateKey);
const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;

describe(`rsa-digest agrees with crypto.verify (seed ${seed})`, () => {
  it('on the signed message, on another, and on another key’s signature, under both hashes', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 80 }),
        fc.string({ unit: 'binary', maxLength: 80 }),
        fc.constantFrom<RsaHash>('sha256', 'sha1'),
        fc.constantFrom<RsaHash>('sha256', 'sha1'),
        fc.boolean(),
        (message, candidate, signedWith, checkedWith, otherKey) => {
          const signature = sign(signedWith, Buffer.from(message), otherKey ? other : privateKey);
          const info = signedDigestInfo(publicKey, signature);
          for (const m of [message, candidate]) {
            const expected = verify(checkedWith, Buffer.from(m), publicKey, signature);
            const got = info !== null && signsMessage(info, checkedWith, m);
            assert.equal(got, expected, `${signedWith}/${checkedWith} ${JSON.stringify(m)}`);
          }
        },
      ),
      fcParams(100),
    );
  });

  it('recovers nothing from a signature of the wrong length', () => {
    assert.equal(signedDigestInfo(publicKey, Buffer.from('ABC')), null);
  });
});
