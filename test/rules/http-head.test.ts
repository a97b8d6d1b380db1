// The HTTP rules (api-spec.md "Endpoints": POST, a catalogue path, Accept: application/vnd.pay+json,
// a form body; A-21: at most 64 KiB; A-10: encoded once) in detail, on requests written by hand: each
// passes and fails one character or one byte either side of its boundary, with its exact words.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testMerchant } from '../../src/gateway/merchants.ts';
import {
  acceptHeader,
  bodySize,
  contentType,
  encodedOnce,
  endpointKnown,
  formEncoding,
  methodPost,
} from '../../src/rules/http.ts';
import { NonceStore } from '../../src/rules/nonces.ts';
import { RequestUnderTest, type SeenRequest } from '../../src/rules/request.ts';
import { judgeRequest } from '../../src/rules/run.ts';
import { evidence, reason } from './outcomes.ts';

const SALE = 'http://h/paynet/api/v2/sale/1001';
/** a body over 64 KiB is refused. */
const LIMIT = 64 * 1024;

function request(seen: Partial<SeenRequest>, prefix?: string, maxBodyBytes = LIMIT): RequestUnderTest {
  return new RequestUnderTest(
    { method: 'POST', url: SALE, headers: {}, ...seen },
    {
      merchants: [testMerchant()],
      windowSeconds: 300,
      now: () => 0,
      nonces: new NonceStore(300),
      prefix,
      maxBodyBytes,
      explain: false,
    },
  );
}
const body = (text: string) => request({ body: Buffer.from(text) });

describe('method-post', () => {
  it('passes POST and names any other method, cut to ten characters', () => {
    assert.equal(methodPost.check(request({})).outcome, 'pass');
    assert.deepEqual(evidence(methodPost.check(request({ method: 'GET' }))), {
      message: 'method: only POST is allowed',
      field: 'method',
      expected: 'POST',
      actual: 'GET',
    });
    // Methods are case-sensitive (RFC 9110 §9.1): post is not POST.
    assert.equal(evidence(methodPost.check(request({ method: 'post' }))).actual, 'post');
    assert.equal(evidence(methodPost.check(request({ method: 'PROPFINDXYZ' }))).actual, 'PROPFINDXY');
  });
});

describe('endpoint-known', () => {
  it('passes a catalogue path under any prefix when the gateway names none', () => {
    assert.equal(endpointKnown.check(request({})).outcome, 'pass');
    assert.equal(endpointKnown.check(request({ url: 'http://h/other/api/v2/sale/1001' })).outcome, 'pass');
  });

  it('names a path that is no endpoint, cut to 100 characters, with no code of its own', () => {
    assert.deepEqual(evidence(endpointKnown.check(request({ url: 'http://h/paynet/api/v2/sell/1001?x=1' }))), {
      message: 'path: /paynet/api/v2/sell/1001 is no endpoint of this gateway',
      field: 'path',
    });
    const long = `/${'a'.repeat(120)}`;
    assert.equal(
      evidence(endpointKnown.check(request({ url: `http://h${long}` }))).message,
      `path: ${long.slice(0, 100)} is no endpoint of this gateway`,
    );
  });

  it('refuses a catalogue path whose endpointId is no int64 as an unknown endpoint (A-8)', () => {
    for (const id of ['0123', '0', '9223372036854775808'])
      assert.deepEqual(evidence(endpointKnown.check(request({ url: `http://h/paynet/api/v2/sale/${id}` }))), {
        message: 'endpointId: must be a positive int64 in decimal (1 to 9223372036854775807, no sign or leading zeros)',
        field: 'endpointId',
        code: 'ENDPOINT_UNKNOWN',
      });
    // The largest int64 is an id the gateway may know.
    assert.equal(
      endpointKnown.check(request({ url: 'http://h/paynet/api/v2/sale/9223372036854775807' })).outcome,
      'pass',
    );
  });

  it('refuses another prefix than the one the gateway serves under, and says which', () => {
    assert.equal(endpointKnown.check(request({}, '/paynet')).outcome, 'pass');
    assert.deepEqual(evidence(endpointKnown.check(request({ url: 'http://h/other/api/v2/sale/1001' }, '/paynet'))), {
      message: 'path: endpoints are under /paynet/api/',
      field: 'path',
      expected: '/paynet/api/…',
      actual: '/other/api/v2/sale/1001',
    });
    assert.deepEqual(evidence(endpointKnown.check(request({}, ''))), {
      message: 'path: endpoints are under (no prefix)/api/',
      field: 'path',
      expected: '/api/…',
      actual: '/paynet/api/v2/sale/1001',
    });
    assert.equal(endpointKnown.check(request({ url: 'http://h/api/v2/sale/1001' }, '')).outcome, 'pass');
    const deep = `/${'p'.repeat(120)}/api/v2/sale/1001`;
    assert.equal(
      evidence(endpointKnown.check(request({ url: `http://h${deep}` }, '/paynet'))).actual,
      deep.slice(0, 100),
    );
  });
});

describe('accept-header', () => {
  const accept = (value: string | undefined) => acceptHeader.check(request({ headers: { accept: value } }));

  it('passes exactly application/vnd.pay+json, surrounding white space aside (RFC 9110 §5.5)', () => {
    assert.equal(accept('application/vnd.pay+json').outcome, 'pass');
    assert.equal(accept(' application/vnd.pay+json\t').outcome, 'pass');
  });

  it('refuses anything else, one character off included, quoting what came', () => {
    assert.deepEqual(evidence(accept('application/json')), {
      message: 'accept: must be application/vnd.pay+json',
      field: 'accept',
      expected: 'application/vnd.pay+json',
      actual: '"application/json"',
    });
    // The spec: the header "must equal" the media type; no parameter, no other spelling, no wildcard.
    for (const value of ['application/vnd.pay+jso', 'application/vnd.pay+json;q=1', '*/*', ''])
      assert.equal(evidence(accept(value)).actual, JSON.stringify(value), value);
    assert.equal(evidence(accept('x'.repeat(70))).actual, JSON.stringify('x'.repeat(60)));
  });

  it('says when no Accept header came at all', () => {
    assert.equal(evidence(accept(undefined)).actual, 'no Accept header');
  });
});

describe('content-type', () => {
  const type = (value: string | undefined) => contentType.check(request({ headers: { 'content-type': value } }));

  it('passes the form media type, with a charset parameter or in capitals (RFC 9110 §8.3.1)', () => {
    for (const value of [
      'application/x-www-form-urlencoded',
      'application/x-www-form-urlencoded; charset=UTF-8',
      'Application/X-WWW-Form-Urlencoded',
    ])
      assert.equal(type(value).outcome, 'pass', value);
  });

  it('names the media type that came instead, or that none came', () => {
    assert.deepEqual(evidence(type('application/json; charset=utf-8')), {
      message: 'content-type: must be application/x-www-form-urlencoded',
      field: 'content-type',
      expected: 'application/x-www-form-urlencoded',
      actual: '"application/json"',
    });
    assert.equal(evidence(type('application/x-www-form-urlencode')).actual, '"application/x-www-form-urlencode"');
    assert.equal(evidence(type(undefined)).actual, '"missing"');
    assert.equal(evidence(type('')).actual, '"missing"');
  });
});

describe('body-size (A-21: 64 KiB)', () => {
  const over = {
    message: `body: at most ${LIMIT} bytes`,
    field: 'body',
    expected: `≤ ${LIMIT} bytes`,
    actual: `${LIMIT + 1} bytes`,
  };

  it('passes a body of exactly 64 KiB and refuses one byte more', () => {
    assert.equal(bodySize.check(body('x'.repeat(LIMIT))).outcome, 'pass');
    assert.deepEqual(evidence(bodySize.check(body('x'.repeat(LIMIT + 1)))), over);
  });

  it('counts bytes, not characters: 32,768 two-byte é are 64 KiB, one more is over', () => {
    assert.equal(bodySize.check(body('é'.repeat(LIMIT / 2))).outcome, 'pass');
    assert.equal(evidence(bodySize.check(body(`${'é'.repeat(LIMIT / 2)}x`))).actual, `${LIMIT + 1} bytes`);
  });

  it('judges the bytes received where reading stopped early, before any Content-Length', () => {
    const stopped = request({ bodyBytes: LIMIT + 1, headers: { 'content-length': '1' } });
    assert.deepEqual(evidence(bodySize.check(stopped)), over);
    assert.equal(
      bodySize.check(request({ bodyBytes: LIMIT, headers: { 'content-length': '1000000' } })).outcome,
      'pass',
    );
  });

  it('judges against the limit the gateway is run with, not a fixed one', () => {
    const small = (text: string) => bodySize.check(request({ body: Buffer.from(text) }, undefined, 10));
    assert.equal(small('a=12345678').outcome, 'pass');
    assert.deepEqual(evidence(small('a=123456789')), {
      message: 'body: at most 10 bytes',
      field: 'body',
      expected: '≤ 10 bytes',
      actual: '11 bytes',
    });
  });

  it('judges the declared Content-Length before the body is read, and no header as nothing to read', () => {
    const declared = (length: string) => bodySize.check(request({ headers: { 'content-length': length } }));
    assert.equal(declared(String(LIMIT)).outcome, 'pass');
    assert.deepEqual(evidence(declared(String(LIMIT + 1))), over);
    assert.equal(bodySize.check(request({})).outcome, 'pass');
  });
});

describe('form-encoding', () => {
  it('passes a well-formed form and says why another cannot be read', () => {
    assert.equal(formEncoding.check(body('a=1&b=%C3%A9')).outcome, 'pass');
    assert.deepEqual(evidence(formEncoding.check(body('a=1&amount=%zz'))), {
      message: 'body: body (parameter 2): has a malformed percent-escape or bytes that are not UTF-8',
      field: 'body',
    });
    // 0xFF is no UTF-8 byte (A-10: the body is UTF-8).
    assert.deepEqual(evidence(formEncoding.check(request({ body: Buffer.from([0x61, 0x3d, 0xff]) }))), {
      message: 'body: is not UTF-8',
      field: 'body',
    });
  });
});

describe('encoded-once (A-10)', () => {
  it('names the first value that still reads %XX after decoding, in digits or either case of hex', () => {
    for (const twice of ['%2520', '%25AB', '%25ab', '%25Fa'])
      assert.deepEqual(evidence(encodedOnce.check(body(`a=1&order_desc=x${twice}y&b=%2541`))), {
        message: 'order_desc: still percent-encoded after decoding (encoded twice?)',
        field: 'order_desc',
      });
  });

  it('passes a % that is no escape: one hex digit, a letter past F, or a bare percent sign', () => {
    for (const once of ['a=100%25', 'a=%25A', 'a=%252g', 'a=%25G0', 'a=%25%20', 'a=x%2Ey']) {
      assert.equal(encodedOnce.check(body(once)).outcome, 'pass', once);
    }
  });

  it('needs the form: the runner skips it without one, and a direct call says what it lacks', () => {
    assert.equal(
      reason(judgeRequest([encodedOnce], request({}))[0]!.outcome),
      'not reached: the body is not a well-formed form',
    );
    assert.throws(() => encodedOnce.check(request({})), {
      message: 'internal: rule encoded-once was run without form',
    });
  });
});
