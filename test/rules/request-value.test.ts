// Every fact of the request value, read on hand-written requests: the path, the route match and why
// there is none, the form in order with duplicates, the control fields, the merchant, the OAuth header,
// the amount, the client order id; each derived once; and hasFact by name.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testMerchant } from '../../src/gateway/merchants.ts';
import { NonceStore } from '../../src/rules/nonces.ts';
import { addressedOrigin, hasFact, hasFacts, RequestUnderTest, type SeenRequest } from '../../src/rules/request.ts';
import type { Fact } from '../../src/rules/rule.ts';

const merchant = testMerchant(); // endpoint 1001, group 2001
const context = {
  merchants: [merchant],
  windowSeconds: 300,
  now: () => 0,
  nonces: new NonceStore(300),
  maxBodyBytes: 1e3,
  explain: false,
};
const SALE = 'http://h/paynet/api/v2/sale/1001';
const req = (url: string, body?: string | Buffer, more: Partial<SeenRequest> = {}) =>
  new RequestUnderTest(
    { method: 'POST', url, headers: {}, body: typeof body === 'string' ? Buffer.from(body) : body, ...more },
    context,
  );

describe('the path', () => {
  it('is the part after the host, without query or fragment; "/" where there is none', () => {
    assert.equal(req('http://h/paynet/api/v2/sale/1001?a=/b#c').pathname, '/paynet/api/v2/sale/1001');
    assert.equal(req('https://h:8443/x#frag').pathname, '/x');
    // Whichever of ? and # comes first ends the path.
    assert.equal(req('http://h/x#frag?not-a-query').pathname, '/x');
    assert.equal(req('http://h/x?a#b').pathname, '/x');
    assert.equal(req('http://h').pathname, '/');
    // An empty Host header: the mock writes the origin as http:// and nothing.
    assert.equal(req('http:///paynet/api/v2/sale/1001').pathname, '/paynet/api/v2/sale/1001');
    assert.equal(req('http:///paynet/api/v2/sale/1001').match?.prefix, '/paynet');
  });
});

describe('the addressed origin', () => {
  it('is the Host where it is a host; http://localhost where none is sent or it is no host (RFC 9112 §3.2)', () => {
    // A Host holding a slash used to move the path the rules read (test/mock/host-header.test.ts).
    for (const host of ['example.com', 'gate.example:8443', '127.0.0.1:8080', '[::1]:3000', 'xn--bcher-kva.example'])
      assert.equal(addressedOrigin(host), `http://${host}`);
    for (const host of [undefined, '', 'a/b', 'a b', 'user@h', 'h#x', 'h?x', 'h\tx'])
      assert.equal(addressedOrigin(host), 'http://localhost', String(host));
  });
});

describe('the route match', () => {
  it('names the row, the endpoint id and the prefix, once', () => {
    const r = req(SALE);
    const match = r.match;
    assert.equal(match?.endpoint.operation, 'SALE');
    assert.equal(match?.endpointId, '1001');
    assert.equal(match?.prefix, '/paynet');
    assert.equal(r.match, match, 'derived once and kept');
    assert.deepEqual(r.whyNoMatch, { message: '', code: '' });
  });

  it('says why a path names no endpoint, and why an endpoint id is malformed', () => {
    const none = req('http://h/nowhere/1');
    assert.equal(none.match, undefined);
    assert.deepEqual(none.whyNoMatch, {
      message:
        'url: path "/nowhere/1" matches no catalogue endpoint (expected [prefix]/api/<version>/<operation>/<endpointId>)',
      code: 'ERR_UNKNOWN_ENDPOINT',
    });
    const zero = req('http://h/api/v2/sale/0123');
    assert.equal(zero.match, undefined);
    assert.equal(zero.whyNoMatch.code, 'ERR_ENDPOINT_ID');
    assert.match(zero.whyNoMatch.message, /^endpointId: must be a positive int64/);
  });

  it("is each path's own when paths alternate (the last match is kept for the next request with its path)", () => {
    const paths = [SALE, 'http://h/api/v2/status/1002', SALE, 'http://h/nowhere/1', SALE, 'http://h/api/v2/sale/0123'];
    const matched = paths.map((url) => req(url).match);
    assert.deepEqual(
      matched.map((m) => m && `${m.prefix} ${m.endpoint.operation} ${m.endpointId}`),
      ['/paynet SALE 1001', ' STATUS 1002', '/paynet SALE 1001', undefined, '/paynet SALE 1001', undefined],
    );
    const again = req(SALE).match;
    assert.equal(req(SALE).match, again, 'the same path again: the same match');
    assert.ok(Object.isFrozen(again), 'a match served again cannot be changed by whoever read it first');
  });
});

describe('the merchant', () => {
  it("is the endpoint id's owner; a group id only in the group form where the row takes one", () => {
    assert.equal(req(SALE).merchant, merchant);
    assert.equal(req(SALE).owner, merchant);
    assert.equal(req('http://h/api/v2/sale/group/2001').merchant, merchant);
    const plainIdAsGroup = req('http://h/api/v2/sale/group/1001');
    assert.equal(plainIdAsGroup.merchant, undefined);
    assert.deepEqual(plainIdAsGroup.owner, {
      outcome: 'fail',
      evidence: {
        message: 'endpointId: 1001 is not an endpoint group of any merchant',
        field: 'endpointId',
        code: 'ENDPOINT_UNKNOWN',
      },
    });
    assert.equal(req('http://h/nowhere/1').owner, undefined);
    assert.equal(req('http://h/nowhere/1').merchant, undefined);
  });

  it('is looked up once', () => {
    const r = req('http://h/api/v2/sale/9');
    assert.equal(r.owner, r.owner, 'the same failure object');
  });
});

describe('the form', () => {
  it('keeps pairs in order with duplicates, + as a space, percent-decoded', () => {
    const r = req(SALE, 'b=2&a=x+y&b=%C3%A9&flag');
    assert.deepEqual(r.params, [
      ['b', '2'],
      ['a', 'x y'],
      ['b', 'é'],
      ['flag', ''],
    ]);
    assert.equal(r.params, r.params, 'decoded once');
    assert.equal(r.field('b'), '2', 'the first of two');
    assert.equal(r.field('c'), undefined);
    assert.equal(r.whyNoParams, '');
  });

  it('says why a body is no form: bytes that are not UTF-8, a malformed percent-escape', () => {
    const latin1 = req(SALE, Buffer.from([0x61, 0x3d, 0xe9]));
    assert.equal(latin1.params, undefined);
    assert.equal(latin1.whyNoParams, 'is not UTF-8');
    const escape = req(SALE, 'a=1&b=%zz');
    assert.equal(escape.params, undefined);
    assert.equal(escape.whyNoParams, 'body (parameter 2): has a malformed percent-escape or bytes that are not UTF-8');
    assert.equal(escape.field('a'), undefined);
  });

  it('is undefined until the body is read, then decoded from it (facts of the old body are dropped)', () => {
    const r = req(SALE);
    assert.equal(r.params, undefined);
    assert.equal(r.controls, undefined);
    assert.equal(r.bodyBytes, undefined);
    assert.equal(r.withBody(Buffer.from('amount=1.00&control=c1')), r);
    assert.deepEqual(r.params, [
      ['amount', '1.00'],
      ['control', 'c1'],
    ]);
    assert.deepEqual(r.controls, ['c1']);
    assert.deepEqual(r.amount, { cents: '100' });
    assert.equal(r.bodyBytes, 22);
    r.withBody(Buffer.from('amount=2.50'), 99);
    assert.deepEqual(r.params, [['amount', '2.50']]);
    assert.deepEqual(r.controls, []);
    assert.deepEqual(r.amount, { cents: '250' });
    assert.equal(r.bodyBytes, 99, 'as far as reading went');
  });

  it('counts the bytes as received, or the whole body', () => {
    assert.equal(req(SALE, 'é').bodyBytes, 2);
    assert.equal(req(SALE, 'abc', { bodyBytes: 7 }).bodyBytes, 7);
  });

  it('collects every control value in order, once', () => {
    const r = req(SALE, 'control=a&x=1&control=b');
    assert.deepEqual(r.controls, ['a', 'b']);
    assert.equal(r.controls, r.controls);
  });

  it('reads the client order id under either spelling, client_orderid first', () => {
    assert.equal(req(SALE, 'client_orderid=A&client-order-id=B').clientOrderId, 'A');
    assert.equal(req(SALE, 'client-order-id=B').clientOrderId, 'B');
    assert.equal(req(SALE, 'x=1').clientOrderId, undefined);
  });

  it('keeps the amount in cents or the problem, once', () => {
    const r = req(SALE, 'amount=1,000.00');
    const amount = r.amount;
    assert.equal(amount?.cents, undefined);
    assert.match(amount?.problem ?? '', /^amount: /);
    assert.equal(r.amount, amount);
    assert.equal(req(SALE, 'x=1').amount, undefined, 'no amount: nothing kept');
  });
});

describe('the OAuth header', () => {
  const oauth = (authorization: unknown) => req(SALE, '', { headers: { authorization: authorization as string } });

  it('is parsed once, its parameters read by name', () => {
    const r = oauth('OAuth oauth_consumer_key="m", oauth_nonce="n%201"');
    assert.equal(r.authorization, 'OAuth oauth_consumer_key="m", oauth_nonce="n%201"');
    assert.equal(r.header, r.header);
    assert.equal(r.oauthParam('oauth_nonce'), 'n 1');
    assert.equal(r.oauthParam('oauth_version'), undefined);
    assert.equal(r.whyNoHeader, '');
  });

  it('is undefined when none was sent, and says why a malformed one is not read', () => {
    const none = oauth(undefined);
    assert.equal(none.header, undefined);
    assert.equal(none.oauthParam('oauth_nonce'), undefined);
    assert.equal(none.whyNoHeader, '');
    const basic = oauth('Basic eDp5');
    assert.equal(basic.header, undefined);
    assert.equal(basic.whyNoHeader, 'authorization: must start with "OAuth " followed by name="value" parameters');
  });

  it('lets an error that is no header problem through (a bug, not a refusal)', () => {
    const notText = oauth({
      toString() {
        throw new RangeError('not text');
      },
    });
    assert.throws(() => notText.header, RangeError);
  });
});

describe('hasFact', () => {
  const FACTS: Fact[] = ['endpoint', 'form', 'merchant'];
  const has = (r: RequestUnderTest) => FACTS.filter((f) => hasFact(r, f));

  it('knows each fact by name', () => {
    assert.deepEqual(has(req(SALE, 'a=1')), ['endpoint', 'form', 'merchant']);
    assert.deepEqual(has(req(SALE)), ['endpoint', 'merchant']);
    assert.deepEqual(has(req('http://h/api/v2/sale/9', 'a=1')), ['endpoint', 'form']);
    assert.deepEqual(has(req('http://h/nowhere/1', 'a=%zz')), []);
    assert.deepEqual(has(req('http://h/nowhere/1', 'a=1')), ['form']);
  });

  it('a fact it does not know is never there', () => {
    assert.equal(hasFact(req(SALE, 'a=1'), '' as Fact), false);
    assert.equal(hasFact(req(SALE, 'a=1'), 'endpoints' as Fact), false);
  });

  it('hasFacts needs every one named', () => {
    assert.equal(hasFacts(req(SALE), ['endpoint', 'merchant']), true);
    assert.equal(hasFacts(req(SALE), ['endpoint', 'form']), false);
    assert.equal(hasFacts(req(SALE), []), true);
  });
});
