/**
 * The merchant's own URLs in a request: notify_url and server_callback_url, where the gateway
 * calls back once the order is final, and redirect_url, where the customer's browser returns. Each is
 * an absolute http(s) URL, or not sent; a blank one counts as not sent. The mock refuses any other, so
 * a merchant learns at once that its callbacks could never arrive (a gateway can only call an HTTP(S)
 * URL), instead of an order that never settles.
 */
import { MERCHANT_URL_FIELDS, merchantUrl, merchantUrlText } from '../catalogue/index.ts';
import { requestRule } from './request-rule.ts';
import { fail, PASS } from './rule.ts';

const URL_FIELDS: ReadonlySet<string> = new Set(MERCHANT_URL_FIELDS);
const EXPECTED = 'an absolute http:// or https:// URL, or nothing';

export const merchantUrls = requestRule({
  id: 'merchant-urls',
  title: 'notify_url, server_callback_url and redirect_url are http(s) URLs, or not sent',
  clause:
    'Events, callbacks, notifications and their payloads: "not shown"; A-31, A-33 (the API family\'s Merchant ' +
    'Callbacks page, http://doc.payneteasy.com/common_utilities/merchants_callbacks.html)',
  basis: 'assumption',
  assumptions: ['A-31', 'A-33'],
  refusals: [{ status: 400, code: 'FIELD_INVALID' }],
  hint:
    'Send each as an absolute http:// or https:// URL, as the public pages write them ' +
    '(https://shop.example/callback), or leave it out: an empty value counts as not sent.',
  needs: ['form'],
  check(req) {
    for (const [name, value] of req.params) {
      if (!URL_FIELDS.has(name)) continue;
      const text = merchantUrlText(value);
      if (text === undefined) continue;
      const url = merchantUrl(text);
      if (url instanceof URL) continue;
      // The value itself stays out: a callback URL's query may carry the merchant's token.
      const actual = url.scheme === undefined ? 'text that is not a URL' : `a URL of scheme ${url.scheme}`;
      return fail(`${name}: must be an absolute http:// or https:// URL (got ${actual})`, {
        field: name,
        expected: EXPECTED,
        actual,
      });
    }
    return PASS;
  },
});
