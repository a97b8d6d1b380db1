// An integration written the way the family's public docs and libraries write it (modelled on
// payneteasy/php-library-payneteasy-api Transport/GatewayClient.php and node-payneteasy src/pne/req.js):
// POST a form with the control and no Accept of its own (curl adds its default `Accept: */*`,
// node's https.request none), read the body with a form parser and trim each
// value, and treat any HTTP status but 200 as a transport error. Sale, status until final, return:
// against `payconform mock --profile profiles/family-text.json` with no change at all, and, to see
// why the profile exists, refused by the default mock (406 for the missing Accept).
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { testMerchant } from '../../src/gateway/merchants.ts';

const bin = new URL('../../bin/payconform.js', import.meta.url).pathname;
const profile = new URL('../../profiles/family-text.json', import.meta.url).pathname;
const children: ChildProcess[] = [];

after(() => {
  for (const child of children) child.kill('SIGTERM');
});

/** `payconform mock` as a merchant starts it in CI: a process, its URL from the listening line. */
async function mockProcess(args: string[]): Promise<string> {
  const child = spawn(process.execPath, [bin, 'mock', '--port', '0', '--quiet', ...args], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  children.push(child);
  child.stdout.setEncoding('utf8');
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      const m = /^listening on (\S+)$/m.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', () => reject(new Error(`mock exited: ${out}`)));
  });
}

class TransportError extends Error {}

const sha1 = (text: string): string => createHash('sha1').update(text, 'utf8').digest('hex');

/** The public library's makeRequest: http_build_query, curl POST with curl's default Accept, 200 or an error, parse_str, trim. */
async function makeRequest(
  gateway: string,
  apiMethod: string,
  endpoint: string,
  fields: Record<string, string>,
): Promise<Record<string, string>> {
  const response = await fetch(`${gateway}/${apiMethod}/${endpoint}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'user-agent': 'PaynetEasy-Client/1.0',
      accept: '*/*',
    },
    body: new URLSearchParams(fields).toString(),
  });
  const text = await response.text();
  if (response.status !== 200) throw new TransportError(`Error occured. HTTP code: ${response.status}`);
  const parsed: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) parsed[name] = value.trim();
  if (Object.keys(parsed).length === 0) throw new Error(`Can not parse response: ${text}`);
  return parsed;
}

const m = testMerchant();
const endpoint = m.endpointIds[0];

/** Sale, then status until final (as the docs say: poll with paynet-order-id), then a full return. */
async function saleStatusReturn(
  gateway: string,
): Promise<{ sale: Record<string, string>; final: Record<string, string>; refund: Record<string, string> }> {
  const clientOrderId = `shop-${Date.now()}`;
  // The docs' control for sale: SHA-1(endpointid + client_orderid + amount in cents + email + merchant_control_key).
  const sale = await makeRequest(gateway, 'sale', endpoint!, {
    client_orderid: clientOrderId,
    order_desc: 'Order 42',
    amount: '10.42',
    currency: 'USD',
    address1: '1 Main St',
    city: 'Springfield',
    zip_code: '12345',
    country: 'US',
    phone: '+15550100',
    ipaddress: '203.0.113.7',
    email: 'buyer@example.com',
    redirect_url: 'https://shop.example/return',
    card_printed_name: 'JOHN SMITH',
    credit_card_number: '4111111111111111',
    expire_month: '12',
    expire_year: '30',
    cvv2: '123',
    control: sha1(`${endpoint}${clientOrderId}1042buyer@example.com${m.merchantControlKey}`),
  });
  const orderid = sale['paynet-order-id'];
  assert.ok(orderid !== undefined, JSON.stringify(sale));
  assert.equal(sale.type, 'async-response', JSON.stringify(sale));
  let final: Record<string, string> = {};
  for (let poll = 0; poll < 20; poll++) {
    final = await makeRequest(gateway, 'status', endpoint!, {
      login: m.login,
      client_orderid: clientOrderId,
      orderid,
      control: sha1(`${m.login}${clientOrderId}${orderid}${m.merchantControlKey}`),
    });
    if (final.status !== 'processing') break;
  }
  const refund = await makeRequest(gateway, 'return', endpoint!, {
    login: m.login,
    client_orderid: clientOrderId,
    orderid,
    amount: '10.42',
    currency: 'USD',
    comment: 'customer request',
    control: sha1(`${m.login}${clientOrderId}${sale['paynet-order-id']}1042USD${m.merchantControlKey}`),
  });
  return { sale, final, refund };
}

describe('an integration written like the public libraries', () => {
  it('runs sale, status polling and a return against mock --profile profiles/family-text.json unchanged', async () => {
    const url = await mockProcess(['--profile', profile]);
    const { sale, final, refund } = await saleStatusReturn(`${url}/api/v2`);
    assert.match(sale['paynet-order-id']!, /^[0-9]+$/);
    assert.equal(sale['merchant-order-id']!.startsWith('shop-'), true);
    assert.ok(sale['serial-number']);
    assert.deepEqual(
      [final.type, final.status, final.amount, final.currency],
      ['status-response', 'approved', '10.42', 'USD'],
    );
    assert.deepEqual([refund.type, refund.status], ['async-response', 'processing']);
  });

  it('reads a refusal the way the library does: HTTP 200, type=validation-error, error-message', async () => {
    const url = await mockProcess(['--profile', profile]);
    const refused = await makeRequest(`${url}/api/v2`, 'status', endpoint!, {
      login: m.login,
      client_orderid: 'x',
      orderid: '1',
      control: 'not-a-control',
    });
    assert.equal(refused.type, 'validation-error');
    assert.ok(refused['error-message']!.length > 0);
  });

  it("is refused by the default mock, which requires the spec's Accept header (406)", async () => {
    const url = await mockProcess([]);
    await assert.rejects(
      saleStatusReturn(`${url}/api/v2`),
      (err: Error) => err instanceof TransportError && err.message === 'Error occured. HTTP code: 406',
    );
  });
});
