// Issue 42: the mock never compared a request's login field with the endpoint's merchant, so a suite that sent
// another merchant's login was served. A merchant whose login is not the built-in one: its own login is
// served, another is refused 400 FIELD_INVALID naming the field (rule login-of-merchant, A-35).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PayClient, type Exchange } from '../../src/client/client.ts';
import { prepareRequest } from '../../src/client/prepare.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';
import { startMock, type RunningMock } from '../../src/mock/server.ts';

const merchant = { ...testMerchant(), login: 'acme-shop' };
let mock: RunningMock;
let client: PayClient;
before(async () => {
  mock = await startMock({ prefix: '/paynet', merchants: [merchant] });
  client = new PayClient({
    baseUrl: `${mock.url}/paynet`,
    credentials: {
      login: merchant.login,
      controlKey: merchant.merchantControlKey,
      privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
    },
    endpointId: '1001',
  });
});
after(async () => {
  await client.close();
  await mock.close();
});

const body = (x: Exchange) => x.body as Record<string, string | undefined>;
let serial = 0;

/** A STATUS (after its SALE) and a CAPTURE (after its PREAUTH) with this login in the form, signed correctly. */
async function sent(operation: 'STATUS' | 'CAPTURE', login: string): Promise<Exchange> {
  const params = await prepareRequest(client, operation, [], () => `LOM-${++serial}`);
  return client.send(
    operation,
    params.map(([name, value]) => [name, name === 'login' ? login : value]),
  );
}

describe('the mock and a login field', () => {
  it("serves the endpoint's merchant's login", async () => {
    for (const operation of ['STATUS', 'CAPTURE'] as const) {
      const x = await sent(operation, 'acme-shop');
      assert.equal(x.status, 200, JSON.stringify(x.body));
    }
  });

  it("refuses another merchant's login, 400 FIELD_INVALID naming the field, whatever the control says", async () => {
    for (const operation of ['STATUS', 'CAPTURE'] as const)
      for (const login of ['payconform-test-merchant', 'ACME-SHOP']) {
        const x = await sent(operation, login);
        assert.equal(x.status, 400, `${operation} ${login}: ${JSON.stringify(x.body)}`);
        assert.equal(body(x)['error-code'], 'FIELD_INVALID');
        assert.equal(body(x).field, 'login');
        assert.equal(body(x)['error-message'], 'login: is not the login of the merchant of endpoint 1001');
      }
  });
});
