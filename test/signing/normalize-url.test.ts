import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeUrl } from '../../src/signing/normalize-url.ts';

describe('base string URI (RFC 5849 §3.4.1.2)', () => {
  const cases: Array<[string, string]> = [
    [
      'HTTPS://Sandbox.Gateway.EXAMPLE:443/paynet/api/v2/payout/1?x=1#f',
      'https://sandbox.gateway.example/paynet/api/v2/payout/1',
    ],
    ['http://example.com:80/r', 'http://example.com/r'],
    ['http://example.com:443/r', 'http://example.com:443/r'],
    ['https://example.com:80/r', 'https://example.com:80/r'],
    ['https://example.com:8443/r', 'https://example.com:8443/r'],
    ['http://[::1]:8080/api/v2/sale/1', 'http://[::1]:8080/api/v2/sale/1'],
    ['https://example.com', 'https://example.com/'],
  ];
  for (const [input, normalized] of cases)
    it(`${input} → ${normalized}`, () => assert.equal(normalizeUrl(input).normalized, normalized));

  it('reports a dropped default port and decodes query parameters', () => {
    const n = normalizeUrl('https://h.example:443/p?b=%3A&a=x+y&a=1');
    assert.equal(n.defaultPortDropped, true);
    assert.equal(n.explicitPort, '443');
    assert.deepEqual(n.queryPairs, [
      ['b', ':'],
      ['a', 'x y'],
      ['a', '1'],
    ]);
    assert.equal(normalizeUrl('https://h.example/p').defaultPortDropped, false);
  });

  for (const [input, message] of [
    ['/api/v2/sale/1', /absolute URL/],
    ['ftp://h/x', /http or https/],
    ['https://u:p@h/x', /user:password/],
    ['https://h/x?a=%ZZ', /malformed percent-escape/],
    [' https://gw.example:443/x', /spaces, control/],
    ['https://gw.example:4\n43/x', /control characters/],
    ['https:\\\\gw.example:443\\x', /backslashes/],
  ] as const) {
    it(`rejects ${input}`, () => assert.throws(() => normalizeUrl(input), message));
  }
});

describe('normalizeUrl: explicit ports and errors', () => {
  it('reads the explicit port of an IPv6 host, and of a host after empty user info', () => {
    assert.equal(normalizeUrl('http://[::1]:8080/api/v2/sale/1').explicitPort, '8080');
    const v6 = normalizeUrl('https://[::1]:443/api/v2/sale/1');
    assert.equal(v6.explicitPort, '443');
    assert.equal(v6.defaultPortDropped, true);
    assert.equal(normalizeUrl('https://@[::1]:8443/p').explicitPort, '8443');
    assert.equal(normalizeUrl('https://:@h.example:8443/p').explicitPort, '8443');
  });

  it('does not take a port from a URL inside the query', () => {
    const n = normalizeUrl('https://h.example/p?next=http://x.example:81/');
    assert.equal(n.explicitPort, null);
    assert.equal(n.defaultPortDropped, false);
  });

  const urlError = (field: string, rule: RegExp) => (err: Error & { code?: string; field?: string }) => {
    assert.equal(err.code, 'ERR_URL');
    assert.equal(err.field, field);
    assert.ok(err.message.startsWith(`${field}: `), err.message);
    assert.match(err.message, rule);
    return true;
  };

  it('errors are ERR_URL about the field "url" (or the one given), naming the rule', () => {
    assert.throws(() => normalizeUrl('https://h.example/a b'), urlError('url', /must not contain spaces/));
    assert.throws(() => normalizeUrl('/api/v2/sale/1'), urlError('url', /must be an absolute URL/));
    assert.throws(
      () => normalizeUrl('ftp://h.example/x', '--url'),
      urlError('--url', /scheme must be http or https \(got ftp\)/),
    );
    assert.throws(() => normalizeUrl('https://u:p@h.example/x'), urlError('url', /must not contain user:password@/));
  });

  it('rejects a user name alone and a password alone', () => {
    assert.throws(() => normalizeUrl('https://u@h.example/x'), urlError('url', /user:password@/));
    assert.throws(() => normalizeUrl('https://:p@h.example/x'), urlError('url', /user:password@/));
  });

  it('a malformed query escape names the URL query and the parameter', () => {
    assert.throws(
      () => normalizeUrl('https://h.example/x?a=1&b=%ZZ', '--url'),
      (err: Error & { code?: string; field?: string }) => {
        assert.equal(err.code, 'ERR_ENCODING');
        assert.match(err.field ?? '', /^--url query/);
        assert.match(err.field ?? '', /parameter 2/);
        return true;
      },
    );
  });
});
