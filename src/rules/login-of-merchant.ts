/**
 * A `login` request field names the merchant whose endpoint the request reaches. The family's
 * public pages list `login` ("Merchant login name", mandatory) among the request fields and sign it with
 * that account's control key; a gateway that reads the merchant from the form must find the endpoint's own.
 * Judged after the signature rules, so only a request signed with the merchant's key learns that a login
 * differs. Leading and trailing whitespace is omitted, as the pages say of every input parameter.
 */
import { requestRule } from './request-rule.ts';
import { fail, PASS, skip } from './rule.ts';

export const STATUS_PAGE = 'https://doc.payneteasy.com/integration/API_commands/api_v2_status.html';

export const loginOfMerchant = requestRule({
  id: 'login-of-merchant',
  title: "a login field is the endpoint's merchant's login",
  clause: `Identifiers: login "Merchant login"; A-6, A-35 (the family's public page, ${STATUS_PAGE})`,
  basis: 'assumption',
  assumptions: ['A-6', 'A-35'],
  refusals: [{ status: 400, code: 'FIELD_INVALID' }],
  hint: 'Send as login the merchant login your gateway account was given, the one you sign with, on its endpoint id.',
  fixedIn: 'configuration',
  needs: ['endpoint', 'form', 'merchant'],
  check(req) {
    let sent = false;
    for (const [name, value] of req.params) {
      if (name !== 'login') continue;
      sent = true;
      // The value stays out of the evidence: it names, at most, another merchant.
      if (value.trim() !== req.merchant.login)
        return fail(`login: is not the login of the merchant of endpoint ${req.match.endpointId}`, {
          field: 'login',
          expected: "the login of the endpoint's merchant",
          actual: 'another login',
        });
    }
    return sent ? PASS : skip('no login field in this request');
  },
});
