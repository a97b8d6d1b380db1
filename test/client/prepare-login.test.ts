// Issue 42: the suite's requests carried the schema's example login (the mock's merchant) in their form
// body whatever PAYCONFORM_LOGIN said. Against a mock whose one merchant has another login, every request
// the suite's request building makes, prerequisites included, carries only the configured login.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ENDPOINTS } from '../../src/catalogue/index.ts';
import { PayClient, type SendOptions } from '../../src/client/client.ts';
import { prepareRequest } from '../../src/client/prepare.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';
import { startMock, type RunningMock } from '../../src/mock/server.ts';
import type { Pair } from '../../src/signing/form-body.ts';

const LOGIN = 'acme-shop-live-login';
const merchant = { ...testMerchant(), login: LOGIN };
let mock: RunningMock;
let client: PayClient;
const sent: Array<{ operation: string; params: readonly Pair[] }> = [];

before(async () => {
  mock = await startMock({ prefix: '/paynet', merchants: [merchant] });
  client = new PayClient({
    baseUrl: `${mock.url}/paynet`,
    credentials: {
      login: LOGIN,
      controlKey: merchant.merchantControlKey,
      privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
    },
    endpointId: merchant.endpointIds[0],
  });
  // Every request the building sends on the way (the prerequisites) is recorded as it leaves.
  const send = client.send.bind(client);
  client.send = (operation: string, params: readonly Pair[], options?: SendOptions) => {
    sent.push({ operation, params });
    return send(operation, params, options);
  };
});
after(async () => {
  await client.close();
  await mock.close();
});

describe('the suite request building (prepareRequest)', () => {
  it('puts the configured login, never the example merchant, in every form body', async () => {
    let n = 0;
    for (const { operation } of ENDPOINTS) {
      const params = await prepareRequest(client, operation, [], () => `LOGIN-${++n}`);
      sent.push({ operation, params });
    }
    const logins = sent.flatMap(({ operation, params }) =>
      params.filter(([name]) => name === 'login').map(([, value]) => `${operation}: ${value}`),
    );
    // The order moves, card info and rebill take a login: at least those seven carry one.
    assert.ok(logins.length >= 7, logins.join('\n'));
    assert.deepEqual(
      logins.filter((line) => !line.endsWith(`: ${LOGIN}`)),
      [],
    );
  });

  it('keeps a login the caller gives on purpose (a negative scenario)', async () => {
    const params = await prepareRequest(client, 'STATUS', [
      ['orderid', '1'],
      ['login', 'someone-else'],
    ]);
    assert.deepEqual(
      params.filter(([name]) => name === 'login'),
      [['login', 'someone-else']],
    );
  });
});
