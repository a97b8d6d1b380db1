// The transaction-type of the mock's status answers, as the vendor's WooCommerce plugin reads it
// (payneteasy/php-plugin-woocommerce, get_payment_status: "{transaction-type}/{status}"): sale/approved
// is paid, reversal/approved refunded, anything else failed. Written out here from the plugin, by hand.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { endpointByOperation } from '../../src/catalogue/index.ts';
import { PayClient } from '../../src/client/client.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';
import { startMock } from '../../src/mock/server.ts';
import { sampleRequest } from '../../src/schemas/index.ts';
import type { Pair } from '../../src/signing/form-body.ts';

const merchant = testMerchant();
const mock = await startMock();
const client = new PayClient({
  baseUrl: mock.url,
  endpointId: '1001',
  credentials: {
    login: merchant.login,
    controlKey: merchant.merchantControlKey,
    privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
  },
});
after(async () => {
  await client.close();
  await mock.close();
});

const send = (operation: string, ...pairs: Pair[]) =>
  client.send(operation, sampleRequest(endpointByOperation(operation), pairs));
const text = (x: { body: unknown }, name: string) => (x.body as Record<string, string>)[name] ?? '';

/** The order's ids, and what the shop plugin books it as: "transaction-type/status" after it is final. */
async function booked(ids: Pair[]): Promise<string> {
  await send('STATUS', ...ids);
  const x = await send('STATUS', ...ids);
  return `${text(x, 'transaction-type')}/${text(x, 'status')}`;
}
const idsOf = (x: { body: unknown }): Pair[] => [
  ['client_orderid', text(x, 'merchant-order-id')],
  ['orderid', text(x, 'paynet-order-id')],
];

describe("status's transaction-type, as the vendor's shop plugin books it", () => {
  it('a paid sale is sale/approved (paid); once returned, reversal/approved (refunded)', async () => {
    const ids = idsOf(await send('SALE'));
    assert.equal(await booked(ids), 'sale/approved');
    assert.equal((await send('RETURN', ...ids)).status, 200);
    assert.equal(await booked(ids), 'reversal/approved');
  });

  it('a preauth is no sale: the plugin would not book it as paid', async () => {
    assert.equal(await booked(idsOf(await send('PREAUTH'))), 'preauth/approved');
  });
});
