// The family's public documentation publishes one worked control, with its concatenation and its digest:
// https://doc.payneteasy.com/integration/general_api_usage/request_authentication_methods/sha.html (and the same
// text on doc2.payneteasy.com and doc.payneteasy.eu, "Request Authentication Methods"): endpointid=1111,
// client_orderid=902B4FF5, amount=10.42, email=john.smith@gmail.com, merchant_control=B17F59B4-…-37D986B43D20
// concatenate to "1111902B4FF51042john.smith@gmail.comB17F59B4-A7DC-41B4-8FF9-37D986B43D20", whose SHA-1 the
// page's copy at apidoc.instanttransfer.tech (a white-label copy of the same API) prints as
// c6bdd88a78834ef4b863b088827a459f039e8257 (lowercase hex, as the page's Java example writes it: A-1).
// A known answer from outside this project: the signer and verify must reproduce it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { signRequest } from '../../src/signing/sign.ts';
import { verifyRequest } from '../../src/rules/verify.ts';
import type { Pair } from '../../src/signing/form-body.ts';

const PUBLISHED_KEY = 'B17F59B4-A7DC-41B4-8FF9-37D986B43D20';
const PUBLISHED_CONTROL = 'c6bdd88a78834ef4b863b088827a459f039e8257';
const params: Pair[] = [
  ['client_orderid', '902B4FF5'],
  ['amount', '10.42'],
  ['email', 'john.smith@gmail.com'],
];

describe("the public documentation's worked sale control", () => {
  for (const url of [
    'https://sandbox.payneteasy.com/paynet/api/v2/sale/1111',
    'https://sandbox.payneteasy.com/paynet/api/v2/sale/group/1111',
  ]) {
    it(`signs to the published digest (${url.includes('/group/') ? 'endpoint group URL' : 'endpoint URL'})`, () => {
      const signed = signRequest({ url, params }, { login: 'merchantlogin', controlKey: PUBLISHED_KEY });
      assert.equal(signed.scheme, 'control');
      if (signed.scheme !== 'control') return;
      assert.equal(signed.control.controlInput, '1111902B4FF51042john.smith@gmail.com<merchant_control_key>');
      assert.equal(signed.control.control, PUBLISHED_CONTROL);
    });
  }

  it('verifies the published digest and refuses it with one character changed', () => {
    const url = 'https://sandbox.payneteasy.com/paynet/api/v2/sale/1111';
    const ok = verifyRequest(
      { url, params: [...params, ['control', PUBLISHED_CONTROL]] },
      { login: 'merchantlogin', controlKey: PUBLISHED_KEY },
      {},
    );
    assert.equal(ok.valid, true);
    const bad = verifyRequest(
      { url, params: [...params, ['control', `${PUBLISHED_CONTROL.slice(0, -1)}8`]] },
      { login: 'merchantlogin', controlKey: PUBLISHED_KEY },
      {},
    );
    assert.equal(bad.valid, false);
  });
});
