// Issue 42: inspect judges a merchant's requests by the book's request rules, so it names a login field that is
// not the endpoint's merchant's (rule login-of-merchant, A-35) and passes the right one.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { endpointByOperation } from '../../src/catalogue/index.ts';
import { buildRequest } from '../../src/client/client.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';
import { Inspector } from '../../src/inspect/inspector.ts';
import { sampleRequest } from '../../src/schemas/index.ts';

const merchant = { ...testMerchant(), login: 'acme-shop' };
const credentials = {
  login: merchant.login,
  controlKey: merchant.merchantControlKey,
  privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
};

/** A correctly signed STATUS (the control over the merchant's login) whose form carries `login`. */
function judged(login: string) {
  const endpoint = endpointByOperation('STATUS');
  const r = buildRequest(
    endpoint,
    { baseUrl: 'http://127.0.0.1:8080/paynet', credentials, endpointId: '1001' },
    sampleRequest(endpoint, [['login', login]]),
  );
  return new Inspector({ merchants: [merchant] }).judge({
    method: r.method,
    url: r.url,
    headers: r.headers,
    body: Buffer.from(r.body),
  });
}

describe('inspect and a login field', () => {
  it("passes the endpoint's merchant's login", () => {
    const v = judged('acme-shop');
    assert.deepEqual(
      v.checks.filter((c) => c.outcome === 'fail'),
      [],
    );
    assert.equal(v.checks.find((c) => c.id === 'login-of-merchant')?.outcome, 'pass');
  });

  it('fails another login under its rule, naming the field', () => {
    const v = judged('payconform-test-merchant');
    assert.equal(v.passed, false);
    const failed = v.checks.filter((c) => c.outcome === 'fail');
    assert.deepEqual(
      failed.map((c) => c.id),
      ['login-of-merchant'],
    );
    assert.match(JSON.stringify(failed[0]), /login: is not the login of the merchant of endpoint 1001/);
  });
});
