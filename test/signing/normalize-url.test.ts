import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeUrl } from '../../src/signing/normalize-url.ts';

describe('base string URI (RFC 5849 §3.4.1.2)', () => {
  const cases: Array<[string, string]> = [
    ['HTTPS://Sandbox.Gateway.EXAMPLE:443/paynet/api/v2/payout/1?x=1#f', 'https://sandbox.gateway.example/paynet/api/v2/payout/1'],
    ['http://example.com:80/r', 'http://example.com/r'],
    ['http://example.com:443/r', 'http://example.com:443/r'],
    ['https://example.com:80/r', 'https://example.com:80/r'],
    ['https://example.com:8443/r', 'https://example.com:8443/r'],
    ['http://[::1]:8080/api/v2/sale/1', 'http://[::1]:8080/api/v2/sale/1'],
    ['https://example.com', 'https://example.com/'],
  ];
  for (const [input, normalized] of cases) it(`${input} → ${normalized}`, () => assert.equal(normalizeUrl(input).normalized, normalized));

  it('reports a dropped default port and decodes query parameters', () => {
    const n = normalizeUrl('https://h.example:443/p?b=%3A&a=x+y&a=1');
    assert.equal(n.defaultPortDropped, true);
    assert.equal(n.explicitPort, '443');
    assert.deepEqual(n.queryPairs, [['b', ':'], ['a', 'x y'], ['a', '1']]);
    assert.equal(normalizeUrl('https://h.example/p').defaultPortDropped, false);
  });

  for (const [input, message] of [['/api/v2/sale/1', /absolute URL/], ['ftp://h/x', /http or https/], ['https://u:p@h/x', /user:password/], ['https://h/x?a=%ZZ', /malformed percent-escape/], [' https://gw.example:443/x', /spaces, control/], ['https://gw.example:4\n43/x', /control characters/], ['https:\\\\gw.example:443\\x', /backslashes/]] as const) {
    it(`rejects ${input}`, () => assert.throws(() => normalizeUrl(input), message));
  }
});
