// Which hosts the mock (and inspect) may send a callback to: loopback, or a host the user allowed.
// A name with a trailing dot (the DNS root, `localhost.`) is the same name as without it, so it is
// judged exactly as that name is: allowed where the name is, refused where the name is.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { callbackHostAllowed } from '../../src/gateway/callback-delivery.ts';

const allowed = (url: string, hosts: readonly string[] = []): boolean => callbackHostAllowed(new URL(url), hosts);

describe('callback hosts', () => {
  for (const [url, hosts, expected] of [
    ['http://localhost/cb', [], true],
    ['http://localhost./cb', [], true],
    ['http://127.0.0.1./cb', [], true],
    ['http://[::1]/cb', [], true],
    ['http://shop.test/cb', ['shop.test'], true],
    ['http://shop.test./cb', ['shop.test'], true],
    ['http://SHOP.test./cb', ['shop.TEST.'], true],
    ['http://shop.test/cb', ['shop.test.'], true],
    ['http://shop.test./cb', [], false],
    ['http://evil.example./cb', ['shop.test'], false],
    ['http://localhost.evil.example/cb', [], false],
    ['http://localhost../cb', [], false],
    ['http://10.0.0.5./cb', [], false],
  ] as const) {
    it(`${url} with --callback-hosts ${hosts.join(',') || '(none)'}: ${expected ? 'allowed' : 'refused'}`, () => {
      assert.equal(allowed(url, hosts), expected);
    });
  }
});
