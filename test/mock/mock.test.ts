// The mock gateway verifies real signatures: every endpoint accepts what the client signs, and each
// corrupted variant is refused with its own error code.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { ENDPOINTS } from '../../src/catalogue/index.ts';
import { PayClient, type Exchange } from '../../src/client/client.ts';
import { buildAuthorizationHeader, parseAuthorizationHeader } from '../../src/signing/authorization-header.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/mock/merchants.ts';
import { startMock, type RunningMock } from '../../src/mock/server.ts';
import { validateResponse } from '../../src/schemas/index.ts';
import type { Pair } from '../../src/signing/form-body.ts';

const merchant = testMerchant();
const credentials = { login: merchant.login, controlKey: merchant.merchantControlKey, privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8') };
let mock: RunningMock;
let client: PayClient;
before(async () => {
  mock = await startMock({ prefix: '/paynet' });
  client = new PayClient({ baseUrl: `${mock.url}/paynet`, credentials, endpointId: '1001' });
});
after(async () => {
  await client.close();
  await mock.close();
});

/** Formula fields and a few more, so any endpoint's control can be computed. */
const PARAMS: Pair[] = [['client_orderid', 'A-1'], ['client-order-id', 'A-1'], ['orderid', '1'], ['cardrefid', 'CR1'], ['amount', '10.00'], ['currency', 'EUR'], ['email', 'jane@example.com']];
const code = (x: Exchange) => (x.body as { 'error-code'?: string })['error-code'];
const THREE_DS_CARD = '4000000000003220';
/** The order an operation acts on: a preauth to capture, a sale to void or return, a 3-D Secure sale. */
const PARENTS: Record<string, { operation: string; card?: string }> = {
  CAPTURE: { operation: 'PREAUTH' }, VOID: { operation: 'SALE' }, RETURN: { operation: 'SALE' }, STATUS: { operation: 'SALE' },
  TDS_UPLOAD_CRES_RESULT: { operation: 'SALE', card: THREE_DS_CARD }, TDS_UPLOAD_METHOD_URL_RESULT: { operation: 'SALE', card: THREE_DS_CARD },
  TDS_UPLOAD_PARES_RESULT: { operation: 'SALE', card: THREE_DS_CARD },
};
async function start(operation: string, card?: string, amount = '10.00'): Promise<string> {
  const params: Pair[] = [['client_orderid', 'A-1'], ['amount', amount], ['currency', 'EUR'], ['email', 'jane@example.com'], ...(card ? [['credit_card_number', card] as Pair] : [])];
  const x = await client.send(operation, params);
  assert.equal(x.status, 200, JSON.stringify(x.body));
  return (x.body as Record<string, string>)['paynet-order-id']!;
}
const move = (operation: string, orderid: string, amount?: string) =>
  client.send(operation, [['client_orderid', 'A-1'], ['client-order-id', 'A-1'], ['orderid', orderid], ...(amount ? [['amount', amount] as Pair, ['currency', 'EUR'] as Pair] : [])]);
const statusOf = async (orderid: string) => ((await client.send('STATUS', [['client_orderid', 'A-1'], ['orderid', orderid]])).body as { status: string }).status;

describe('mock gateway', () => {
  for (const endpoint of ENDPOINTS) {
    const how = endpoint.auth.kind === 'unstated' ? 'an unsigned' : 'a signed';
    it(`accepts ${how} ${endpoint.operation} (${endpoint.auth.kind}) with a 200 body valid against its schema`, async () => {
      const parent = PARENTS[endpoint.operation];
      const params = parent ? [...PARAMS.filter(([n]) => n !== 'orderid'), ['orderid', await start(parent.operation, parent.card)] as Pair] : PARAMS;
      const x = await client.send(endpoint.operation, params, { unsigned: endpoint.auth.kind === 'unstated' });
      assert.equal(x.status, 200, JSON.stringify(x.body));
      assert.deepEqual(x.problems, []);
      assert.deepEqual(validateResponse(endpoint.responseSchema ?? 'AsyncResponse', x.body), { valid: true });
    });
  }

  it('reports a sale as processing, then approved, on a fixed schedule', async () => {
    const sale = await client.send('SALE', PARAMS);
    const orderid = (sale.body as Record<string, string>)['paynet-order-id']!;
    const poll = () => client.send('STATUS', [['client_orderid', 'A-1'], ['orderid', orderid]]);
    assert.equal(((await poll()).body as { status: string }).status, 'processing');
    const final = await poll();
    assert.equal((final.body as { status: string }).status, 'approved');
    assert.deepEqual(final.problems, []);
    assert.equal(code(await client.send('STATUS', [['client_orderid', 'A-1'], ['orderid', '42']])), 'ORDER_UNKNOWN');
  });

  it('preauth → capture (partial) → return part → return the rest; over-capture and over-refund refused without change', async () => {
    const preauth = await start('PREAUTH', undefined, '100.00');
    assert.equal(code(await move('CAPTURE', preauth, '100.01')), 'AMOUNT_EXCEEDS');
    assert.equal((await move('CAPTURE', preauth, '60.00')).status, 200);
    assert.equal(code(await move('RETURN', preauth, '60.01')), 'AMOUNT_EXCEEDS');
    assert.equal((await move('RETURN', preauth, '20.00')).status, 200);
    assert.equal((await move('RETURN', preauth, '40.00')).status, 200);
    assert.equal(code(await move('RETURN', preauth, '0.01')), 'AMOUNT_EXCEEDS');
    assert.equal(code(await move('VOID', preauth)), 'ORDER_STATE');
  });

  it('sale → void; then capture, a second void and a return are refused; declined and foreign orders cannot be moved', async () => {
    const sale = await start('SALE');
    assert.equal(code(await move('CAPTURE', sale, '1.00')), 'ORDER_STATE');
    assert.equal((await move('VOID', sale)).status, 200);
    assert.equal(code(await move('VOID', sale)), 'ORDER_STATE');
    assert.equal(code(await move('RETURN', sale, '1.00')), 'ORDER_STATE');
    const preauth = await start('PREAUTH');
    assert.equal((await move('VOID', preauth)).status, 200);
    assert.equal(code(await move('CAPTURE', preauth, '1.00')), 'ORDER_STATE');
    const declined = await start('PREAUTH', '4000000000000002');
    assert.equal(code(await move('CAPTURE', declined, '1.00')), 'ORDER_STATE');
    assert.equal(await statusOf(declined), 'processing');
    assert.equal(await statusOf(declined), 'declined');
    assert.equal(code(await move('VOID', '99999999')), 'ORDER_UNKNOWN');
  });

  it('3-D Secure: the magic card waits, with a form in status, until a result is uploaded', async () => {
    const sale = await start('SALE', THREE_DS_CARD);
    await statusOf(sale);
    const waiting = await client.send('STATUS', [['client_orderid', 'A-1'], ['orderid', sale]]);
    assert.deepEqual([(waiting.body as { status: string }).status, waiting.problems], ['processing', []]);
    assert.match((waiting.body as { html: string }).html, /<form/);
    assert.equal((await move('TDS_UPLOAD_CRES_RESULT', sale)).status, 200);
    assert.equal(await statusOf(sale), 'approved');
    assert.equal(code(await move('TDS_UPLOAD_PARES_RESULT', sale)), 'ORDER_STATE');
  });

  it('magic data: error and stays-processing cards, and a client_orderid that gets a 500 ServerErrorResponse', async () => {
    const failing = await start('SALE', '4000000000000119');
    await statusOf(failing);
    assert.equal(await statusOf(failing), 'error');
    const stuck = await start('SALE', '4000000000000259');
    await statusOf(stuck);
    assert.equal(await statusOf(stuck), 'processing');
    const x = await client.send('SALE', [['client_orderid', 'MOCK-SERVER-ERROR'], ['amount', '1.00'], ['email', 'e@x']]);
    assert.deepEqual([x.status, code(x), x.problems], [500, 'SERVER_ERROR', []]);
  });

  it('gives 200 parallel sales 200 distinct order ids, and lets exactly one of a concurrent capture and void succeed', async () => {
    const ids = await Promise.all(Array.from({ length: 200 }, () => start('SALE')));
    assert.equal(new Set(ids).size, 200);
    for (let round = 0; round < 5; round++) {
      const preauth = await start('PREAUTH');
      const answers = await Promise.all([move('CAPTURE', preauth, '10.00'), move('VOID', preauth)]);
      assert.deepEqual(answers.map((a) => a.status).sort(), [200, 400]);
    }
  });

  it('hosted checkout: a -form order waits for its page, which completes it; then status shows the outcome', async () => {
    const form = await client.send('SALEFORM', [['client_orderid', '<b>A&1</b>'], ['amount', '12.50'], ['currency', 'EUR'], ['email', 'e@x']]);
    const redirect = (form.body as Record<string, string>)['redirect-url']!;
    const orderid = (form.body as Record<string, string>)['paynet-order-id']!;
    assert.ok(redirect.startsWith(`${mock.url}/paynet/checkout/`));
    const get = await request(redirect);
    const html = await get.body.text();
    assert.equal(get.statusCode, 200);
    assert.match(String(get.headers['content-type']), /^text\/html/);
    assert.match(html, /EUR 12\.50/);
    assert.match(html, /name="credit_card_number"/);
    assert.match(html, /<button type="submit">Pay EUR 12\.50<\/button>/);
    assert.match(html, /&#60;b&#62;A&#38;1&#60;\/b&#62;/, 'merchant data is escaped');
    assert.equal(await statusOf(orderid), 'processing');
    assert.equal(await statusOf(orderid), 'processing', 'waiting for the checkout');
    const post = (card: string) => request(redirect, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `credit_card_number=${card}&cvv2=123` });
    const paid = await post('4000000000000002');
    const done = await paid.body.text();
    assert.equal(paid.statusCode, 200);
    assert.match(done, /declined/);
    assert.ok(!done.includes('4000000000000002'), 'the card number is never shown back');
    assert.equal(await statusOf(orderid), 'declined');
    assert.equal((await post('4111111111111111')).statusCode, 409);
    assert.equal((await request(`${mock.url}/paynet/checkout/1`)).statusCode, 404);
  });

  it('refuses control mistakes, each with its own code', async () => {
    const sale: Pair[] = [['client_orderid', 'A-1'], ['amount', '10.00'], ['email', 'jane@example.com']];
    assert.equal(code(await client.send('SALE', sale, { unsigned: true })), 'CONTROL_MISSING');
    assert.equal(code(await client.send('SALE', [...sale, ['control', 'ABC']], { unsigned: true })), 'CONTROL_MALFORMED');
    // One formula field changed after signing.
    const other = new PayClient({ baseUrl: `${mock.url}/paynet`, credentials: { ...credentials, controlKey: 'not-the-key' }, endpointId: '1001' });
    const wrong = await other.send('SALE', sale);
    await other.close();
    assert.deepEqual([wrong.status, code(wrong)], [400, 'CONTROL_INVALID']);
    // A formula field left out after signing.
    const signed = (await client.send('SALE', sale)).request.params;
    assert.equal(code(await client.send('SALE', signed.filter(([n]) => n !== 'email'), { unsigned: true })), 'FIELD_MISSING');
    assert.equal(code(await client.send('SALE', sale, { endpointId: '9999' })), 'ENDPOINT_UNKNOWN');
    assert.equal((await client.send('SALE', sale, { endpointId: '2001' })).status, 200, 'a group id where the catalogue allows it');
    assert.equal(code(await client.send('STATUS', [['client_orderid', 'A'], ['orderid', '1']], { endpointId: '2001' })), 'ENDPOINT_GROUP_NOT_ALLOWED');
  });

  it('refuses OAuth mistakes, each with its own code', async () => {
    const payout: Pair[] = [['amount', '1.00']];
    assert.equal(code(await client.send('PAYOUT', payout, { unsigned: true })), 'AUTH_HEADER_MISSING');
    assert.equal(code(await client.send('PAYOUT', payout, { headers: { authorization: 'OAuth nonsense' } })), 'AUTH_HEADER_MALFORMED');
    const stranger = new PayClient({ baseUrl: `${mock.url}/paynet`, credentials: { ...credentials, login: 'stranger' }, endpointId: '1001' });
    assert.equal(code(await stranger.send('PAYOUT', payout)), 'CONSUMER_KEY_UNKNOWN');
    await stranger.close();
    const stale = await client.send('PAYOUT', payout, { timestamp: String(Math.floor(Date.now() / 1000) - 301) });
    assert.equal(code(stale), 'TIMESTAMP_OUT_OF_WINDOW');
    const first = await client.send('PAYOUT', payout, { nonce: 'once-only' });
    assert.equal(first.status, 200);
    assert.equal(code(await client.send('PAYOUT', payout, { nonce: 'once-only' })), 'NONCE_REPLAYED');
    // HMAC on an RSA endpoint: the header of a valid HMAC payout, sent to /api/v4/payout.
    const hmac = parseAuthorizationHeader(first.request.headers.authorization!);
    assert.equal(code(await client.send('PAYOUT_V4', payout, { headers: { authorization: buildAuthorizationHeader(hmac.pairs) } })), 'SIGNATURE_METHOD_WRONG');
    const flipped = hmac.pairs.map(([n, v]) => (n === 'oauth_signature' ? [n, Buffer.from(Buffer.from(v, 'base64').map((b) => b ^ 0x5a)).toString('base64')] : n === 'oauth_nonce' ? [n, 'fresh'] : [n, v]) as Pair);
    assert.equal(code(await client.send('PAYOUT', payout, { headers: { authorization: buildAuthorizationHeader(flipped) } })), 'SIGNATURE_INVALID');
    const v2 = hmac.pairs.map(([n, v]) => (n === 'oauth_version' ? [n, '2.0'] : [n, v]) as Pair);
    assert.equal(code(await client.send('PAYOUT', payout, { headers: { authorization: buildAuthorizationHeader(v2) } })), 'OAUTH_VERSION_WRONG');
  });

  it('refuses HTTP-level mistakes with their own statuses and codes, always as vnd.pay+json', async () => {
    const post = (path: string, headers: Record<string, string>, body = 'a=1', method = 'POST') =>
      request(`${mock.url}${path}`, { method, headers, body: method === 'GET' ? null : body });
    const form = { accept: 'application/vnd.pay+json', 'content-type': 'application/x-www-form-urlencoded' };
    const cases: Array<[Promise<Awaited<ReturnType<typeof request>>>, number, string]> = [
      [post('/paynet/api/v2/sale/1001', form, '', 'GET'), 405, 'METHOD_NOT_ALLOWED'],
      [post('/paynet/api/v2/refund/1001', form), 404, 'NOT_FOUND'],
      [post('/api/v2/sale/1001', form), 404, 'NOT_FOUND'],
      [post('/paynet/api/v2/sale/0', form), 400, 'ENDPOINT_UNKNOWN'],
      [post('/paynet/api/v2/sale/1001', { ...form, accept: 'application/json' }), 406, 'NOT_ACCEPTABLE'],
      [post('/paynet/api/v2/sale/1001', { ...form, 'content-type': 'application/json' }), 415, 'UNSUPPORTED_MEDIA_TYPE'],
      [post('/paynet/api/v2/sale/1001', form, `a=${'x'.repeat(70_000)}`), 413, 'BODY_TOO_LARGE'],
      [post('/paynet/api/v2/sale/1001', form, 'a=%E0%A4%A'), 400, 'BODY_MALFORMED'],
    ];
    for (const [pending, status, errorCode] of cases) {
      const res = await pending;
      const body = await res.body.json() as Record<string, string>;
      assert.deepEqual([res.statusCode, body['error-code']], [status, errorCode]);
      assert.equal(res.headers['content-type'], 'application/vnd.pay+json');
      assert.deepEqual(validateResponse('ValidationErrorResponse', body), { valid: true });
    }
  });
});
