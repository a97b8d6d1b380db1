// The bench's limit peer must verify, or the mock ÷ minimal ratio compares the mock with a server
// that does less than any verifying mock must. Controls here are SHA-1 of strings written out by
// hand from the spec's SALE formula (endpointId + client_orderid + cents + email + key).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { cents, minimalVerifyingServer } from '../../bench/minimal-verifying-server.ts';

const server = minimalVerifyingServer({ endpointId: '77', controlKey: 'K-1' });
let base = '';
const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');

async function post(path: string, form: Record<string, string>): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${base}${path}`, { method: 'POST', body: new URLSearchParams(form) });
  return { status: res.status, body: await res.json() };
}

describe('minimal verifying server (bench peer)', () => {
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  it('cents as the spec writes them', () => {
    assert.deepEqual(['10.00', '10.5', '.5', '0', '007.10', '', '1,00', '1.234'].map(cents), [
      '1000',
      '1050',
      '50',
      '0',
      '710',
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('accepts a SALE whose control is the spec formula over cents, each with a new order id', async () => {
    const form = { client_orderid: 'A-1', amount: '10.50', email: 'j@x.test' };
    const control = sha1('77A-11050j@x.testK-1');
    const first = await post('/api/v2/sale/77', { ...form, control });
    assert.equal(first.status, 200);
    assert.deepEqual(first.body, {
      type: 'async-response',
      status: 'processing',
      'paynet-order-id': '1',
      'merchant-order-id': 'A-1',
    });
    const second = await post('/api/v2/sale/77', { ...form, control });
    assert.equal((second.body as Record<string, string>)['paynet-order-id'], '2');
  });

  it('refuses a control over the amount as written (not cents), a wrong key, or none', async () => {
    const form = { client_orderid: 'A-1', amount: '10.50', email: 'j@x.test' };
    for (const control of [sha1('77A-110.50j@x.testK-1'), sha1('77A-11050j@x.testK-2'), '']) {
      const r = await post('/api/v2/sale/77', { ...form, control });
      assert.equal(r.status, 400, control);
      assert.equal((r.body as Record<string, string>)['error-code'], 'CONTROL_INVALID');
    }
  });

  it("refuses another endpoint id's path and a GET", async () => {
    assert.equal((await post('/api/v2/sale/78', {})).status, 404);
    assert.equal((await fetch(`${base}/api/v2/sale/77`)).status, 405);
  });
});
