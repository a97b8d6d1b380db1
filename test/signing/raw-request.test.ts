// parseRawRequest: a request as a log captures it (request line, headers, blank line, urlencoded body) read back
// into the signer's request. Every expected value is written out here from the text given.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseRawRequest } from '../../src/signing/raw-request.ts';
import { thrown } from './thrown.ts';

const FIRST_LINE = 'first line must be like "POST /paynet/api/v2/sale/1234 HTTP/1.1"';

describe('parseRawRequest', () => {
  it('reads a CRLF request: method, the URL from Host and the path, the decoded form, the Authorization header', () => {
    const text =
      'POST /paynet/api/v2/payout/1234?x=1 HTTP/1.1\r\nHost: gw.example:8443\r\nAuthorization: OAuth a="b"\r\n' +
      'Content-Type: application/x-www-form-urlencoded\r\n\r\namount=10.00&email=a%40b.example&name=J+D';
    assert.deepEqual(parseRawRequest(text, 'https'), {
      request: {
        method: 'POST',
        url: 'https://gw.example:8443/paynet/api/v2/payout/1234?x=1',
        params: [
          ['amount', '10.00'],
          ['email', 'a@b.example'],
          ['name', 'J D'],
        ],
      },
      authorization: 'OAuth a="b"',
    });
  });

  it('reads LF lines, HTTP/1.0, header names in any case, values trimmed, and no Authorization header', () => {
    const text = '  GET /api/v2/status/7 HTTP/1.0  \nHOST:   h.example  \nX-Other:y\n\nlogin=m\n';
    assert.deepEqual(parseRawRequest(text, 'http'), {
      request: { method: 'GET', url: 'http://h.example/api/v2/status/7', params: [['login', 'm']] },
      authorization: undefined,
    });
  });

  it('keeps a blank line inside the body and drops only one line end after it', () => {
    const { request } = parseRawRequest('POST /p HTTP/1.1\nHost: h\n\na=1\n\nb=2\r\n', 'https');
    assert.deepEqual(request.params, [['a', '1\n\nb=2']]);
    const crlf = parseRawRequest('POST /p HTTP/1.1\r\nHost: h\r\n\r\na=1\r\n\r\n', 'https');
    // The CRLF blank line is split on and joined back as \n\n, of which the last line end is dropped.
    assert.deepEqual(crlf.request.params, [['a', '1\n']]);
  });

  it('trims the space around a header name as well as around its value', () => {
    assert.deepEqual(parseRawRequest('POST /p HTTP/1.1\nHost \t: h\n Authorization : a\n\n', 'https'), {
      request: { method: 'POST', url: 'https://h/p', params: [] },
      authorization: 'a',
    });
  });

  it('a header that appears twice: the last one counts', () => {
    const { authorization } = parseRawRequest(
      'POST /p HTTP/1.1\nHost: h\nauthorization: one\nAuthorization: two\n\n',
      'https',
    );
    assert.equal(authorization, 'two');
  });

  it('refuses a first line that is not METHOD PATH HTTP/1.x, naming the field', () => {
    for (const first of [
      'post /p HTTP/1.1',
      'POST /p HTTP/2',
      'POST /p',
      'POST  /p HTTP/1.1',
      'POST /p HTTP/1.1 x',
      'POST /a b HTTP/1.1',
      'get POST /p HTTP/1.1',
    ])
      assert.deepEqual(
        thrown(() => parseRawRequest(`${first}\nHost: h\n\na=1`, 'https')),
        {
          code: 'ERR_REQUEST_TEXT',
          message: `--request-file: ${FIRST_LINE}`,
          field: '--request-file',
          rule: FIRST_LINE,
        },
        first,
      );
    assert.equal(thrown(() => parseRawRequest('', 'https', 'Request')).message, `Request: ${FIRST_LINE}`);
  });

  it('refuses a header line without a name, showing its first 30 characters', () => {
    const long = 'no colon in this header line at all, and more';
    assert.deepEqual(
      thrown(() => parseRawRequest(`POST /p HTTP/1.1\nHost: h\n${long}\n\n`, 'https')),
      {
        code: 'ERR_REQUEST_TEXT',
        message: '--request-file: header line "no colon in this header line a" has no name: value',
        field: '--request-file',
        rule: 'header line "no colon in this header line a" has no name: value',
      },
    );
    assert.equal(
      thrown(() => parseRawRequest('POST /p HTTP/1.1\n: v\nHost: h\n\n', 'https', 'Request')).message,
      'Request: header line ": v" has no name: value',
    );
  });

  it('refuses a request without Host, which the URL is rebuilt from', () => {
    assert.deepEqual(
      thrown(() => parseRawRequest('POST /p HTTP/1.1\nAuthorization: x\n\na=1', 'https')),
      {
        code: 'ERR_REQUEST_TEXT',
        message: '--request-file: needs a Host header to rebuild the URL',
        field: '--request-file',
        rule: 'needs a Host header to rebuild the URL',
      },
    );
  });

  it('names the body of the field given when the form cannot be decoded', () => {
    const e = thrown(() => parseRawRequest('POST /p HTTP/1.1\nHost: h\n\na=%zz', 'https', 'Request'));
    assert.equal(e.field, 'Request body (parameter 1)');
  });
});
