// The merchant's URLs in a request: notify_url, server_callback_url and redirect_url are absolute
// http(s) URLs as the public pages write them, or blank, which counts as not sent; anything else is refused,
// naming the field and never echoing the value (a callback URL's query may carry a token). The known answers
// are the public pages' own examples and the vendor's shop plugin's requests, written out here by hand.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { testMerchant } from '../../src/gateway/merchants.ts';
import { merchantUrls } from '../../src/rules/merchant-urls.ts';
import { NonceStore } from '../../src/rules/nonces.ts';
import { RequestUnderTest } from '../../src/rules/request.ts';
import { encodeForm, type Pair } from '../../src/signing/form-body.ts';
import { unicodeString } from '../arbitraries.ts';
import { fcParams } from '../seed.ts';
import { evidence } from './outcomes.ts';

const judge = (pairs: Pair[]) =>
  merchantUrls.check(
    new RequestUnderTest(
      { method: 'POST', url: 'http://h/api/v2/sale/1001', headers: {}, body: Buffer.from(encodeForm(pairs)) },
      {
        merchants: [testMerchant()],
        windowSeconds: 300,
        now: () => 0,
        nonces: new NonceStore(300),
        maxBodyBytes: 1e6,
        explain: false,
      },
    ),
  );

const FIELDS = ['notify_url', 'server_callback_url', 'redirect_url'] as const;

describe('merchant-urls', () => {
  it('passes the URLs the public pages and the vendor plugin write', () => {
    for (const url of [
      'https://www.i-cool-merchant.com/sale.php', // Merchant Callbacks page, "simple" URL
      'https://www.merchant.com/sale_completed', // endpoint callbacks page
      'http://shop.example:8080/callback?shop=1&lang=en', // a "customizable" URL, an HTTP port the page allows
      'https://shop.example/?wc-api=wc_payneteasy_webhook', // the WooCommerce plugin's server_callback_url
      'HTTPS://SHOP.EXAMPLE/RETURN', // the scheme is case-insensitive (RFC 3986)
      'http://127.0.0.1:3000/cb', // a port a real gateway would not call: the mock calls it and says so
    ])
      for (const field of FIELDS) assert.equal(judge([[field, url]]).outcome, 'pass', `${field}=${url}`);
  });

  it('counts a blank value as not sent: the vendor plugin sends notify_url empty by default', () => {
    // payneteasy/php-plugin-woocommerce, wc-payneteasy.php:
    // 'notify_url' => sprintf($this->notify_url, $order_id), from a setting with no default.
    assert.equal(
      judge([
        ['redirect_url', 'https://shop.example/?wc-api=wc_payneteasy_return&orderId=7'],
        ['server_callback_url', 'https://shop.example/?wc-api=wc_payneteasy_webhook'],
        ['notify_url', ''],
      ]).outcome,
      'pass',
    );
    // The pages: "Leading and trailing whitespace in input parameters will be omitted".
    for (const blank of ['', ' ', '\t', '  \n '])
      for (const field of FIELDS) assert.equal(judge([[field, blank]]).outcome, 'pass', JSON.stringify(blank));
    assert.equal(judge([['notify_url', '  https://shop.example/cb  ']]).outcome, 'pass');
    assert.equal(judge([['order_desc', 'no URL field at all']]).outcome, 'pass');
  });

  it('refuses any other value, naming the field and its scheme, never the value', () => {
    const cases: [string, string][] = [
      ['ftp://shop.example/cb', 'a URL of scheme ftp:'],
      ['javascript:alert(1)', 'a URL of scheme javascript:'],
      ['mailto:shop@example.com', 'a URL of scheme mailto:'],
      ['not a url', 'text that is not a URL'],
      ['shop.example/callback', 'text that is not a URL'],
      ['//shop.example/callback', 'text that is not a URL'],
      ['https://', 'text that is not a URL'],
      ['http://shop example/cb', 'text that is not a URL'],
      ['https://shop.example:99999/cb', 'text that is not a URL'],
      // WHATWG reads "http:shop.example" as http://shop.example/, but no page writes a URL so.
      ['http:shop.example/cb?token=abc', 'a URL of scheme http:'],
    ];
    for (const field of FIELDS)
      for (const [value, actual] of cases) {
        const seen = evidence(judge([[field, value]]));
        assert.deepEqual(
          seen,
          {
            message: `${field}: must be an absolute http:// or https:// URL (got ${actual})`,
            field,
            expected: 'an absolute http:// or https:// URL, or nothing',
            actual,
          },
          `${field}=${value}`,
        );
      }
  });

  it('judges every URL field sent, a second one of a name included', () => {
    assert.equal(
      evidence(
        judge([
          ['server_callback_url', 'https://shop.example/cb'],
          ['notify_url', 'https://shop.example/n'],
          ['notify_url', 'ftp://shop.example/n'],
        ]),
      ).field,
      'notify_url',
    );
    assert.equal(
      evidence(
        judge([
          ['notify_url', ''],
          ['redirect_url', 'gopher://shop.example/r'],
        ]),
      ).field,
      'redirect_url',
    );
  });

  it('is refused by the mock as FIELD_INVALID, 400, and rests on A-31 and A-33 with the public page named', () => {
    assert.deepEqual(merchantUrls.refusals, [{ status: 400, code: 'FIELD_INVALID' }]);
    assert.deepEqual(merchantUrls.assumptions, ['A-31', 'A-33']);
    assert.match(merchantUrls.clause, /http:\/\/doc\.payneteasy\.com\/common_utilities\/merchants_callbacks\.html/);
  });

  it('judges any text without throwing, and never echoes it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...FIELDS),
        fc.constantFrom('', 'http://', 'https://', 'ftp://', 'http:', ' '),
        unicodeString({ maxLength: 40 }),
        (field, prefix, rest) => {
          const value = `${prefix}${rest}SECRET-TOKEN-7`;
          const outcome = judge([[field, value]]);
          if (outcome.outcome === 'fail') {
            assert.equal(outcome.evidence.field, field);
            assert.ok(!JSON.stringify(outcome.evidence).includes('SECRET-TOKEN-7'));
          } else assert.equal(outcome.outcome, 'pass');
        },
      ),
      fcParams(),
    );
  });
});
