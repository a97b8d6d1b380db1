// HMAC-SHA1, RFC 5849 §3.4.2: key = enc(consumer secret) & enc(token secret), base64 of the digest.
// The oracle is published known answers, typed from their documents, never node:crypto's createHmac
// (which the code under test calls): RFC 2202 §3 (HMAC-SHA-1 test cases), RFC 5849 §1.2 (the photos
// request) and the OAuth Core 1.0 spec's Appendix A.5.2 (the same request signed with oauth_version).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { hmacSha1Signature, hmacSigningKey } from '../../src/signing/hmac-sha1.ts';

/** The digest as RFC 2202 prints it (hex), from the base64 the signer returns. */
const hex = (base64: string): string => Buffer.from(base64, 'base64').toString('hex');
/** One byte repeated, as RFC 2202 writes `0x0b` repeated 20 times (below 0x80: one UTF-8 byte each). */
const repeated = (byte: number, times: number): string => String.fromCharCode(byte).repeat(times);

describe('HMAC-SHA1', () => {
  describe('RFC 2202 §3, HMAC-SHA-1 test cases', () => {
    // The signer hashes text as UTF-8, so only the cases whose key and data are bytes below 0x80 apply:
    // 1 and 2 (cases 3, 4, 6 and 7 use bytes 0xaa, 0xdd or 0xcd, which UTF-8 writes as two bytes each).
    it('test_case 1: key 0x0b × 20, data "Hi There"', () => {
      assert.equal(hex(hmacSha1Signature(repeated(0x0b, 20), 'Hi There')), 'b617318655057264e28bc0b6fb378c8ef146be00');
    });
    it('test_case 2: key "Jefe", data "what do ya want for nothing?"', () => {
      assert.equal(
        hex(hmacSha1Signature('Jefe', 'what do ya want for nothing?')),
        'effcdf6ae5eb2fa2d27416d5f184df9c259a7c79',
      );
    });
  });

  describe('OAuth HMAC-SHA1 published signatures', () => {
    const key = hmacSigningKey('kd94hf93k423kf44', 'pfkkdhi9sl3r4s00');
    it('builds the key enc(consumer secret)&enc(token secret)', () => {
      assert.equal(key, 'kd94hf93k423kf44&pfkkdhi9sl3r4s00');
    });
    it('RFC 5849 §1.2: GET photos, nonce chapoH, timestamp 137131202 → MdpQcU8iPSUjWoN/UDMsK2sui9I=', () => {
      const base =
        'GET&http%3A%2F%2Fphotos.example.net%2Fphotos&file%3Dvacation.jpg%26oauth_consumer_key%3Ddpf43f3p2l4k3l03' +
        '%26oauth_nonce%3DchapoH%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131202' +
        '%26oauth_token%3Dnnch734d00sl2jdk%26size%3Doriginal';
      assert.equal(hmacSha1Signature(key, base), 'MdpQcU8iPSUjWoN/UDMsK2sui9I=');
    });
    it('OAuth Core 1.0 Appendix A.5.2: the same photos request with version 1.0 → tR3+Ty81lMeYAr/Fid0kMTYa/WM=', () => {
      const base =
        'GET&http%3A%2F%2Fphotos.example.net%2Fphotos&file%3Dvacation.jpg%26oauth_consumer_key%3Ddpf43f3p2l4k3l03' +
        '%26oauth_nonce%3Dkllo9940pd9333jh%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1191242096' +
        '%26oauth_token%3Dnnch734d00sl2jdk%26oauth_version%3D1.0%26size%3Doriginal';
      assert.equal(hmacSha1Signature(key, base), 'tR3+Ty81lMeYAr/Fid0kMTYa/WM=');
    });
  });

  it('a secret that cannot be encoded names which secret it is', () => {
    const names = (field: string) => (err: Error & { code?: string; field?: string }) => {
      assert.equal(err.code, 'ERR_ENCODING');
      assert.equal(err.field, field);
      assert.match(err.message, /surrogate/);
      return true;
    };
    assert.throws(() => hmacSigningKey('k\uD800'), names('control key'));
    assert.throws(() => hmacSigningKey('k', '\uDFFFt'), names('token secret'));
  });

  it('signs the UTF-8 bytes of a non-ASCII base string (RFC 2104 built by hand over SHA-1 as the oracle)', () => {
    // HMAC(K, m) = H((K ^ opad) || H((K ^ ipad) || m)), B = 64, for a key shorter than a block (RFC 2104 §2).
    const rfc2104 = (key: string, message: Buffer): string => {
      const block = Buffer.alloc(64);
      Buffer.from(key, 'utf8').copy(block);
      const pad = (byte: number): Buffer => Buffer.from(block.map((b) => b ^ byte));
      const inner = createHash('sha1').update(pad(0x36)).update(message).digest();
      return createHash('sha1').update(pad(0x5c)).update(inner).digest('base64');
    };
    const raw = 'Jörg € 𝄞';
    assert.equal(hmacSha1Signature('k&', raw), rfc2104('k&', Buffer.from(raw, 'utf8')));
    assert.notEqual(hmacSha1Signature('k&', raw), rfc2104('k&', Buffer.from(raw, 'latin1')));
  });
});
