// The page's node:crypto (src/debugger/browser/node-crypto.ts), run here in node: the same answers as
// node:crypto and as published vectors (FIPS 180 "abc", RFC 2202 HMAC-SHA1 case 2), byte-equal RSA
// PKCS#1 v1.5 signatures with the test key, and every name the page's folders import from node:crypto is there.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as node from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as page from '../../src/debugger/browser/node-crypto.ts';
import { tsFiles } from '../../scripts/house.ts';

const KEY_DIR = new URL('../../vectors/keys/', import.meta.url).pathname;
const privatePem = readFileSync(join(KEY_DIR, 'test-only-merchant-rsa-2048.pem'), 'utf8');
const pkcs1Pem = readFileSync(join(KEY_DIR, 'test-only-merchant-rsa-2048.pkcs1.pem'), 'utf8');
const publicPem = readFileSync(join(KEY_DIR, 'test-only-merchant-rsa-2048.pub.pem'), 'utf8');

describe("the debugger page's crypto", () => {
  it('hashes as published: SHA-1 and SHA-256 of "abc", HMAC-SHA1 of RFC 2202 case 2', () => {
    assert.equal(page.createHash('sha1').update('abc').digest('hex'), 'a9993e364706816aba3e25717850c26c9cd0d89d');
    // node's one-shot form, which the control's SHA-1 uses where node has it.
    assert.equal(page.hash('sha1', 'abc'), 'a9993e364706816aba3e25717850c26c9cd0d89d');
    assert.equal(
      page.createHash('sha256').update('a').update('bc').digest('hex'),
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    assert.equal(
      page.createHmac('sha1', 'Jefe').update('what do ya want for nothing?').digest('hex'),
      'effcdf6ae5eb2fa2d27416d5f184df9c259a7c79',
    );
  });

  it('agrees with node:crypto on UTF-8 text, base64 and the Buffer digest', () => {
    const text = 'Jörg & 10.00 ~ <merchant_control_key> ✓';
    for (const hash of ['sha1', 'sha256'] as const) {
      assert.equal(
        page.createHash(hash).update(text).digest('base64'),
        node.createHash(hash).update(text).digest('base64'),
      );
      assert.equal(
        page.createHmac(hash, 'k€y&').update(text).digest('base64'),
        node.createHmac(hash, 'k€y&').update(text).digest('base64'),
      );
    }
    assert.equal(
      page.createHash('sha256').update(text).digest().readUInt32BE(0),
      node.createHash('sha256').update(text).digest().readUInt32BE(0),
    );
    assert.throws(() => page.createHash('sha512'), /no hash sha512/);
    // MD5 for diagnose's md5-digest mistake: RFC 1321's test suite, MD5("abc").
    assert.equal(page.createHash('md5').update('abc').digest('hex'), '900150983cd24fb0d6963f7d28e17f72');
  });

  it('recovers the signed block of a signature as node publicDecrypt does, and refuses what holds none', () => {
    const data = Buffer.from('POST&https%3A%2F%2Fexample&a%3D1 Jörg');
    const nodeKey = node.createPublicKey(publicPem);
    const pageKey = page.createPublicKey({ key: publicPem, format: 'pem' });
    const padding = node.constants.RSA_PKCS1_PADDING;
    assert.equal(page.constants.RSA_PKCS1_PADDING, padding);
    for (const hash of ['sha256', 'sha1'] as const) {
      const signature = node.sign(hash, data, node.createPrivateKey(privatePem));
      const want = node.publicDecrypt({ key: nodeKey, padding }, signature);
      assert.equal(page.publicDecrypt({ key: pageKey, padding }, signature).toString('hex'), want.toString('hex'));
    }
    // No type-1 block: a value below the modulus that no private key signed; and a value of the wrong length.
    const noBlock = Buffer.alloc(256, 0x11);
    assert.throws(() => node.publicDecrypt({ key: nodeKey, padding }, noBlock));
    assert.throws(() => page.publicDecrypt({ key: pageKey, padding }, noBlock), /no PKCS#1 v1.5 signature block/);
    assert.throws(() => page.publicDecrypt({ key: pageKey, padding }, Buffer.from('sig')), /not as long as the key/);
  });

  it('signs RSA PKCS#1 v1.5 byte for byte as node does, from PKCS#8 and PKCS#1 PEM, and verifies strictly', () => {
    const data = Buffer.from('POST&https%3A%2F%2Fexample&a%3D1 Jörg');
    for (const hash of ['sha256', 'sha1'] as const) {
      const want = node.sign(hash, data, node.createPrivateKey(privatePem));
      for (const pem of [privatePem, pkcs1Pem]) {
        const got = page.sign(hash, data, page.createPrivateKey({ key: pem, format: 'pem' }));
        assert.equal(
          Buffer.from(got).toString('base64'),
          want.toString('base64'),
          `${hash} from ${pem.split('\n')[0]}`,
        );
      }
      const pub = page.createPublicKey({ key: publicPem, format: 'pem' });
      assert.equal(page.verify(hash, data, pub, want), true);
      const derived = page.createPublicKey(page.createPrivateKey({ key: privatePem, format: 'pem' }));
      assert.equal(page.verify(hash, data, derived, want), true);
      const broken = Buffer.from(want);
      broken[10] = (broken[10] ?? 0) ^ 1;
      assert.equal(page.verify(hash, data, pub, broken), false, 'one bit flipped');
      assert.equal(page.verify(hash, Buffer.from('other'), pub, want), false, 'other data');
      assert.equal(page.verify(hash, data, pub, want.subarray(1)), false, 'a byte short');
    }
    // Signed with SHA-1, checked as SHA-256: the DigestInfo differs, so it never verifies.
    const sha1Sig = node.sign('sha1', data, node.createPrivateKey(privatePem));
    assert.equal(page.verify('sha256', data, page.createPublicKey({ key: publicPem, format: 'pem' }), sha1Sig), false);
    const key = page.createPrivateKey({ key: privatePem, format: 'pem' });
    assert.deepEqual(
      [key.type, key.asymmetricKeyType, key.asymmetricKeyDetails.modulusLength],
      ['private', 'rsa', 2048],
    );
  });

  it('compares in constant time as node does, and gives random bytes', () => {
    assert.equal(page.timingSafeEqual(Buffer.from('abc'), Buffer.from('abc')), true);
    assert.equal(page.timingSafeEqual(Buffer.from('abc'), Buffer.from('abd')), false);
    assert.throws(() => page.timingSafeEqual(Buffer.from('a'), Buffer.from('ab')), RangeError);
    assert.equal(page.randomBytes(16).length, 16);
  });

  it('has every name that the bundled folders import from node:crypto, so the page never meets a missing one', () => {
    const names = new Set<string>();
    const folders = ['signing', 'vectors', 'catalogue', 'debugger'];
    for (const file of folders.flatMap((f) => tsFiles(new URL(`../../src/${f}/`, import.meta.url).pathname))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'node:crypto'/g))
        for (const part of (m[1] ?? '').split(','))
          names.add(
            (
              part
                .trim()
                .replace(/^type\s+/, '')
                .split(/\s+as\s+/)[0] ?? ''
            ).trim(),
          );
    }
    names.delete('');
    assert.ok(names.has('createHash') && names.has('sign'), 'the scan finds the imports');
    const missing = [...names].filter((n) => !(n in page));
    assert.deepEqual(missing, []);
  });
});
