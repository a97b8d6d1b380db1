// RFC 5849 §3.3: the nonce is a random string unique per request; the timestamp is whole seconds since 1970.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { currentTimestamp, newNonce } from '../../src/signing/oauth-params.ts';

describe('oauth nonce and timestamp', () => {
  it('newNonce: 32 lowercase hex digits (128 random bits), different each time', () => {
    const a = newNonce();
    const b = newNonce();
    assert.match(a, /^[0-9a-f]{32}$/);
    assert.match(b, /^[0-9a-f]{32}$/);
    assert.notEqual(a, b);
  });

  it('currentTimestamp: whole seconds, rounded down', () => {
    assert.equal(currentTimestamp(1_700_000_000_999), '1700000000');
    assert.equal(currentTimestamp(0), '0');
    const before = Math.floor(Date.now() / 1000);
    const now = Number(currentTimestamp());
    assert.ok(now >= before && now <= before + 1, String(now));
  });
});
