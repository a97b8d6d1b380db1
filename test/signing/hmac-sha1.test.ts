// HMAC-SHA1, RFC 5849 §3.4.2: key = enc(consumer secret) & enc(token secret), base64 of the digest.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { hmacSha1Signature, hmacSigningKey } from '../../src/signing/hmac-sha1.ts';

describe('HMAC-SHA1', () => {
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

  it('signs the UTF-8 bytes of a non-ASCII base string', () => {
    const base = 'POST&https%3A%2F%2Fgw.example%2F&name%3DJ%C3%B6rg';
    const raw = 'Jörg € 𝄞';
    assert.equal(
      hmacSha1Signature('k&', raw),
      createHmac('sha1', Buffer.from('k&')).update(Buffer.from(raw, 'utf8')).digest('base64'),
    );
    assert.equal(
      hmacSha1Signature('k&', base),
      createHmac('sha1', 'k&').update(Buffer.from(base, 'latin1')).digest('base64'),
    );
  });
});
