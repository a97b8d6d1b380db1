// The mock gateway verifies real signatures: every endpoint accepts what the client signs, and each
// corrupted variant is refused with its own error code.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { request } from 'undici';
import { endpointByOperation, ENDPOINTS, THREE_DS_CARD } from '../../src/catalogue/index.ts';
import { PayClient, type Exchange } from '../../src/client/client.ts';
import { prepareRequest } from '../../src/client/prepare.ts';
import { THREE_DS_FAIL } from '../../src/mock/magic.ts';
import { buildAuthorizationHeader, parseAuthorizationHeader } from '../../src/signing/authorization-header.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';
import { startMock, type RunningMock } from '../../src/mock/server.ts';
import { sampleRequest, validateResponse } from '../../src/schemas/index.ts';
import type { Pair } from '../../src/signing/form-body.ts';
import { runCli } from '../support/cli.ts';

const merchant = testMerchant();
const credentials = {
  login: merchant.login,
  controlKey: merchant.merchantControlKey,
  privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
};
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

const code = (x: Exchange) => (x.body as { 'error-code'?: string })['error-code'];
/** A valid request of an operation (its schema's examples), with some fields replaced. */
const sample = (operation: string, ...overrides: Pair[]) => sampleRequest(endpointByOperation(operation), overrides);
async function start(operation: string, card?: string, amount = '10.00'): Promise<string> {
  const x = await client.send(
    operation,
    sample(operation, ['amount', amount], ...(card ? [['credit_card_number', card] as Pair] : [])),
  );
  assert.equal(x.status, 200, JSON.stringify(x.body));
  return answer(x, 'paynet-order-id');
}
const move = (operation: string, orderid: string, amount?: string, ...more: Pair[]) =>
  client.send(
    operation,
    sample(operation, ['orderid', orderid], ...(amount ? [['amount', amount] as Pair] : []), ...more),
  );
const statusOf = async (orderid: string) =>
  ((await client.send('STATUS', sample('STATUS', ['orderid', orderid]))).body as { status: string }).status;
/** A field the answer must carry: its absence fails the test where it is read. */
function answer(x: { readonly body: unknown }, name: string): string {
  const value = (x.body as Record<string, string | undefined>)[name];
  assert.ok(value !== undefined, `the answer has no ${name}: ${JSON.stringify(x.body)}`);
  return value;
}

describe('mock gateway', () => {
  for (const endpoint of ENDPOINTS) {
    const how = endpoint.auth.kind === 'unstated' ? 'an unsigned' : 'a signed';
    it(`accepts ${how} ${endpoint.operation} (${endpoint.auth.kind}) with a 200 body valid against its schema`, async () => {
      const params = await prepareRequest(client, endpoint.operation);
      const x = await client.send(endpoint.operation, params, { unsigned: endpoint.auth.kind === 'unstated' });
      assert.equal(x.status, 200, JSON.stringify(x.body));
      assert.deepEqual(x.problems, []);
      assert.deepEqual(validateResponse(endpoint.responseSchema ?? 'AsyncResponse', x.body), { valid: true });
    });
  }

  it('reports a sale as processing, then approved, on a fixed schedule', async () => {
    const orderid = await start('SALE');
    const poll = () => client.send('STATUS', sample('STATUS', ['orderid', orderid]));
    assert.equal(((await poll()).body as { status: string }).status, 'processing');
    const final = await poll();
    assert.equal((final.body as { status: string }).status, 'approved');
    assert.deepEqual(final.problems, []);
    assert.equal(code(await client.send('STATUS', sample('STATUS', ['orderid', '42']))), 'ORDER_UNKNOWN');
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
    const waiting = await client.send('STATUS', sample('STATUS', ['orderid', sale]));
    assert.deepEqual([(waiting.body as { status: string }).status, waiting.problems], ['processing', []]);
    assert.match((waiting.body as { html: string }).html, /<form/);
    assert.equal((await move('TDS_UPLOAD_CRES_RESULT', sale)).status, 200);
    assert.equal(await statusOf(sale), 'approved');
    assert.equal(code(await move('TDS_UPLOAD_PARES_RESULT', sale)), 'ORDER_STATE');
    const failed = await start('SALE', THREE_DS_CARD);
    assert.equal((await move('TDS_UPLOAD_PARES_RESULT', failed, undefined, ['pares', THREE_DS_FAIL])).status, 200);
    await statusOf(failed);
    assert.equal(await statusOf(failed), 'declined', 'a failed authentication declines the order');
  });

  it('card reference → card info (masked) → rebill; a foreign or unknown card ref is refused', async () => {
    const ref = answer(await move('CARDREF', await start('SALE')), 'card-ref-id');
    // The public page's control, computed here by hand: SHA-1(login + cardrefid + merchant_control).
    const byHand = createHash('sha1').update(`${merchant.login}${ref}${merchant.merchantControlKey}`).digest('hex');
    const info = await client.send(
      'CARDINFO',
      sample('CARDINFO', ['login', merchant.login], ['cardrefid', ref], ['control', byHand]),
      { unsigned: true },
    );
    assert.deepEqual(
      [info.status, info.problems, answer(info, 'bin'), answer(info, 'last-four-digits')],
      [200, [], '411111', '1111'],
    );
    assert.equal(
      code(await client.send('CARDINFO', sample('CARDINFO', ['cardrefid', ref]), { unsigned: true })),
      'CONTROL_MISSING',
      'the mock asks for the control (A-24)',
    );
    const otherRef = createHash('sha1').update(`${merchant.login}1${merchant.merchantControlKey}`).digest('hex');
    assert.equal(
      code(
        await client.send(
          'CARDINFO',
          sample('CARDINFO', ['login', merchant.login], ['cardrefid', ref], ['control', otherRef]),
          { unsigned: true },
        ),
      ),
      'CONTROL_INVALID',
    );
    const rebill = await client.send('REBILL', sample('REBILL', ['cardrefid', ref]));
    assert.deepEqual([rebill.status, rebill.problems], [200, []]);
    assert.equal(code(await client.send('REBILL', sample('REBILL', ['cardrefid', '1']))), 'CARD_REF_UNKNOWN');
    const declinedRef = answer(
      await client.send('CARDREF_V4', sample('CARDREF_V4', ['credit_card_number', '4000000000000002'])),
      'card-ref-id',
    );
    const declinedRebill = answer(
      await client.send('REBILL', sample('REBILL', ['cardrefid', declinedRef])),
      'paynet-order-id',
    );
    await statusOf(declinedRebill);
    assert.equal(await statusOf(declinedRebill), 'declined', "a card ref keeps its card's outcome");
    const declinedSale = await start('SALE', '4000000000000002');
    assert.equal(code(await move('CARDREF', declinedSale)), 'ORDER_STATE');
  });

  it('recurring payment: create with a card ref, then process; an unknown plan is refused', async () => {
    const ref = answer(await client.send('CARDREF_V4', sample('CARDREF_V4')), 'card-ref-id');
    const created = await client.send('CREATE_RP_V4', sample('CREATE_RP_V4', ['cardrefid', ref], ['amount', '9.99']));
    assert.deepEqual([created.status, created.problems], [200, []]);
    const processed = await client.send(
      'PROCESS_RP_V4',
      sample('PROCESS_RP_V4', ['recurring-payment-id', answer(created, 'recurring-payment-id')]),
    );
    assert.deepEqual([processed.status, processed.problems], [200, []]);
    const charge = answer(processed, 'paynet-order-id');
    await statusOf(charge);
    const final = await client.send('STATUS', sample('STATUS', ['orderid', charge]));
    assert.deepEqual([answer(final, 'status'), answer(final, 'amount')], ['approved', '9.99']);
    assert.equal(
      code(await client.send('PROCESS_RP_V4', sample('PROCESS_RP_V4', ['recurring-payment-id', '1']))),
      'RECURRING_PAYMENT_UNKNOWN',
    );
    assert.equal(
      code(await client.send('CREATE_RP_V4', sample('CREATE_RP_V4', ['cardrefid', '1']))),
      'CARD_REF_UNKNOWN',
    );
  });

  it('payout-check → payout-pay once; paying a declined check or another order is refused', async () => {
    const check = await start('PAYOUT_V4_CHECK');
    assert.equal((await move('PAYOUT_V4_PAY', check)).status, 200);
    assert.equal(code(await move('PAYOUT_V4_PAY', check)), 'ORDER_STATE');
    assert.equal(code(await move('PAYOUT_V4_PAY', await start('PAYOUT_V4_CHECK', '4000000000000002'))), 'ORDER_STATE');
    assert.equal(code(await move('PAYOUT_V4_PAY', await start('SALE'))), 'ORDER_STATE');
  });

  it('checks request fields against the request schema: missing, malformed and duplicated fields have their own codes', async () => {
    const x = await client.send(
      'SALE',
      sample('SALE').filter(([n]) => n !== 'cvv2'),
    );
    assert.deepEqual([x.status, code(x), (x.body as Record<string, string>).field], [400, 'FIELD_MISSING', 'cvv2']);
    const bad = await client.send('SALE', sample('SALE', ['expire_month', '13']));
    assert.deepEqual([code(bad), (bad.body as Record<string, string>).field], ['FIELD_INVALID', 'expire_month']);
    assert.match(answer(bad, 'error-message'), /^expire_month: must match/);
    assert.equal(code(await client.send('SALE', [...sample('SALE'), ['cvv2', '123']])), 'FIELD_DUPLICATE');
    assert.equal(code(await client.send('PAYOUT_V4', sample('PAYOUT_V4', ['currency', 'euro']))), 'FIELD_INVALID');
  });

  it('magic data: error and stays-processing cards, and a client_orderid that gets a 500 ServerErrorResponse', async () => {
    const failing = await start('SALE', '4000000000000119');
    await statusOf(failing);
    assert.equal(await statusOf(failing), 'error');
    const stuck = await start('SALE', '4000000000000259');
    await statusOf(stuck);
    assert.equal(await statusOf(stuck), 'processing');
    const x = await client.send('SALE', sample('SALE', ['client_orderid', 'MOCK-SERVER-ERROR']));
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
    const form = await client.send(
      'SALEFORM',
      sample('SALEFORM', ['client_orderid', '<b>A&1</b>'], ['amount', '12.50']),
    );
    const redirect = (form.body as Record<string, string>)['redirect-url'];
    const orderid = (form.body as Record<string, string>)['paynet-order-id'];
    assert.ok(redirect!.startsWith(`${mock.url}/paynet/checkout/`));
    const get = await request(redirect!);
    const html = await get.body.text();
    assert.equal(get.statusCode, 200);
    assert.match(String(get.headers['content-type']), /^text\/html/);
    assert.match(html, /EUR 12\.50/);
    assert.match(html, /name="credit_card_number"/);
    assert.match(html, /<button type="submit">Pay EUR 12\.50<\/button>/);
    assert.match(html, /&lt;b&gt;A&amp;1&lt;\/b&gt;/, 'merchant data is escaped');
    assert.equal(await statusOf(orderid!), 'processing');
    assert.equal(await statusOf(orderid!), 'processing', 'waiting for the checkout');
    const post = (card: string) =>
      request(redirect!, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `credit_card_number=${card}&cvv2=123`,
      });
    const paid = await post('4000000000000002');
    const done = await paid.body.text();
    assert.equal(paid.statusCode, 200);
    assert.match(done, /declined/);
    assert.ok(!done.includes('4000000000000002'), 'the card number is never shown back');
    assert.equal(await statusOf(orderid!), 'declined');
    assert.equal((await post('4111111111111111')).statusCode, 409);
    assert.equal((await request(`${mock.url}/paynet/checkout/1`)).statusCode, 404);
  });

  it('send --prepare fills mandatory fields and creates the preauth a capture needs', async () => {
    const env = { PAYCONFORM_CONTROL_KEY: merchant.merchantControlKey, PAYCONFORM_LOGIN: merchant.login };
    const args = [
      'send',
      'CAPTURE',
      '--base-url',
      `${mock.url}/paynet`,
      '--endpoint-id',
      '1001',
      '--param',
      'amount=5.00',
      '--json',
    ];
    const bare = await runCli(args, env);
    assert.deepEqual(
      [bare.code, /client_orderid/.test(bare.err)],
      [2, true],
      'without --prepare the formula fields are missing',
    );
    const prepared = await runCli([...args, '--prepare'], env);
    assert.equal(prepared.code, 0, prepared.out + prepared.err);
    const json = JSON.parse(prepared.out);
    assert.deepEqual([json.status, json.body.type], [200, 'async-response']);
    assert.ok(
      json.request.params.some(([n, v]: [string, string]) => n === 'amount' && v === '5.00'),
      'a given field wins over the test value',
    );
  });

  it('refuses control mistakes, each with its own code', async () => {
    const sale = sample('SALE');
    assert.equal(code(await client.send('SALE', sale, { unsigned: true })), 'CONTROL_MISSING');
    assert.equal(
      code(await client.send('SALE', [...sale, ['control', 'ABC']], { unsigned: true })),
      'CONTROL_MALFORMED',
    );
    // One formula field changed after signing.
    const other = new PayClient({
      baseUrl: `${mock.url}/paynet`,
      credentials: { ...credentials, controlKey: 'not-the-key' },
      endpointId: '1001',
    });
    const wrong = await other.send('SALE', sale);
    await other.close();
    assert.deepEqual([wrong.status, code(wrong)], [400, 'CONTROL_INVALID']);
    // A formula field left out after signing.
    const signed = (await client.send('SALE', sale)).request.params;
    assert.equal(
      code(
        await client.send(
          'SALE',
          signed.filter(([n]) => n !== 'email'),
          { unsigned: true },
        ),
      ),
      'FIELD_MISSING',
    );
    assert.equal(code(await client.send('SALE', sale, { endpointId: '9999' })), 'ENDPOINT_UNKNOWN');
    assert.equal(
      (await client.send('SALE', sale, { endpointId: '2001' })).status,
      200,
      'a group id where the catalogue allows it',
    );
    // pan-eligibility/send: its public page lists only …/ENDPOINTID, so a group id is refused there.
    assert.equal(
      code(await client.send('PAN_ELIGIBILITY_SEND', sample('PAN_ELIGIBILITY_SEND'), { endpointId: '2001' })),
      'ENDPOINT_GROUP_NOT_ALLOWED',
    );
    // The vendor library's endpoint-group URL, …/sale/group/{groupId}, signed with the group id in the formula.
    const grouped = await client.send('SALE', sample('SALE'), { endpointId: '2001', groupUrl: true });
    assert.equal(grouped.request.url, `${mock.url}/paynet/api/v2/sale/group/2001`);
    assert.equal(grouped.status, 200, JSON.stringify(grouped.body));
    assert.equal(
      code(
        await client.send('PAN_ELIGIBILITY_SEND', sample('PAN_ELIGIBILITY_SEND'), {
          endpointId: '2001',
          groupUrl: true,
        }),
      ),
      'ENDPOINT_GROUP_NOT_ALLOWED',
    );
    assert.equal(
      code(await client.send('SALE', sample('SALE'), { endpointId: '1001', groupUrl: true })),
      'ENDPOINT_UNKNOWN',
      'an endpoint id is no group id',
    );
  });

  it('reaches a payment made through the group URL for status, capture and return through the group URL (A-3)', async () => {
    // The public pages of status, capture and return list …/{operation}/group/ENDPOINTGROUPID, as the vendor library sends them.
    const byGroup = { endpointId: '2001', groupUrl: true };
    const sendByGroup = (operation: string, ...fields: Pair[]) =>
      client.send(operation, sample(operation, ...fields), byGroup);
    const preauth = await sendByGroup('PREAUTH', ['amount', '30.00']);
    assert.equal(preauth.status, 200, JSON.stringify(preauth.body));
    const orderid = answer(preauth, 'paynet-order-id');
    const status = async () => {
      const x = await sendByGroup('STATUS', ['orderid', orderid]);
      assert.equal(x.status, 200, JSON.stringify(x.body));
      assert.equal(x.request.url, `${mock.url}/paynet/api/v2/status/group/2001`);
      return answer(x, 'status');
    };
    while ((await status()) === 'processing');
    assert.equal(await status(), 'approved');
    const capture = await sendByGroup('CAPTURE', ['orderid', orderid], ['amount', '30.00']);
    assert.equal(capture.status, 200, JSON.stringify(capture.body));
    const back = await sendByGroup('RETURN', ['orderid', orderid], ['amount', '10.00']);
    assert.equal(back.status, 200, JSON.stringify(back.body));
    // The same order through the endpoint id: one merchant's order, whichever of its ids reached it.
    assert.notEqual(await statusOf(orderid), undefined);
  });

  it('logs a request to the group URL in the form it was sent, …/sale/group/{id}', async () => {
    const lines: string[] = [];
    const logged = await startMock({ prefix: '/paynet', log: (line) => lines.push(line) });
    const c = new PayClient({ baseUrl: `${logged.url}/paynet`, credentials, endpointId: '1001' });
    try {
      await c.send('SALE', sample('SALE'), { endpointId: '2001', groupUrl: true });
      await c.send('SALE', sample('SALE'), { endpointId: '2001' });
    } finally {
      await c.close();
      await logged.close();
    }
    assert.match(lines[0]!, / POST \/paynet\/api\/v2\/sale\/group\/2001 200 SALE /);
    assert.match(lines[1]!, / POST \/paynet\/api\/v2\/sale\/2001 200 SALE /);
  });

  it('refuses OAuth mistakes 403 Forbidden, each with its own code (A-21: the public docs\' "403 Forbidden … due to a bad signature")', async () => {
    const payout = sample('PAYOUT');
    // Status and code together: the family's gateways answer a failed OAuth check 403, and so does the mock.
    const code = (x: { status: number; body: unknown }): string => {
      assert.equal(x.status, 403, `an OAuth refusal is 403 (got ${x.status})`);
      return answer(x, 'error-code');
    };
    assert.equal(code(await client.send('PAYOUT', payout, { unsigned: true })), 'AUTH_HEADER_MISSING');
    assert.equal(
      code(await client.send('PAYOUT', payout, { headers: { authorization: 'OAuth nonsense' } })),
      'AUTH_HEADER_MALFORMED',
    );
    const stranger = new PayClient({
      baseUrl: `${mock.url}/paynet`,
      credentials: { ...credentials, login: 'stranger' },
      endpointId: '1001',
    });
    assert.equal(code(await stranger.send('PAYOUT', payout)), 'CONSUMER_KEY_UNKNOWN');
    await stranger.close();
    const stale = await client.send('PAYOUT', payout, { timestamp: String(Math.floor(Date.now() / 1000) - 301) });
    assert.equal(code(stale), 'TIMESTAMP_OUT_OF_WINDOW');
    const first = await client.send('PAYOUT', payout, { nonce: 'once-only' });
    assert.equal(first.status, 200);
    assert.equal(code(await client.send('PAYOUT', payout, { nonce: 'once-only' })), 'NONCE_REPLAYED');
    // oauth_* repeated in the body, as in the spec's HMAC example: accepted when it says what the header says.
    assert.equal(
      (await client.send('PAYOUT', [...payout, ['oauth_nonce', 'echo-1']], { nonce: 'echo-1' })).status,
      200,
    );
    assert.equal(
      code(await client.send('PAYOUT', [...payout, ['oauth_nonce', 'other']], { nonce: 'echo-2' })),
      'OAUTH_PARAM_CONFLICT',
    );
    // HMAC on an RSA endpoint: the header of a valid HMAC payout, sent to /api/v4/payout.
    const hmac = parseAuthorizationHeader(first.request.headers.authorization!);
    assert.equal(
      code(
        await client.send('PAYOUT_V4', payout, { headers: { authorization: buildAuthorizationHeader(hmac.pairs) } }),
      ),
      'SIGNATURE_METHOD_WRONG',
    );
    const flipped = hmac.pairs.map(
      ([n, v]) =>
        (n === 'oauth_signature'
          ? [n, Buffer.from(Buffer.from(v, 'base64').map((b) => b ^ 0x5a)).toString('base64')]
          : n === 'oauth_nonce'
            ? [n, 'fresh']
            : [n, v]) as Pair,
    );
    assert.equal(
      code(await client.send('PAYOUT', payout, { headers: { authorization: buildAuthorizationHeader(flipped) } })),
      'SIGNATURE_INVALID',
    );
    const v2 = hmac.pairs.map(([n, v]) => (n === 'oauth_version' ? [n, '2.0'] : [n, v]) as Pair);
    assert.equal(
      code(await client.send('PAYOUT', payout, { headers: { authorization: buildAuthorizationHeader(v2) } })),
      'OAUTH_VERSION_WRONG',
    );
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
      [
        post('/paynet/api/v2/sale/1001', { ...form, 'content-type': 'application/json' }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      ],
      [post('/paynet/api/v2/sale/1001', form, `a=${'x'.repeat(70_000)}`), 413, 'BODY_TOO_LARGE'],
      [post('/paynet/api/v2/sale/1001', form, 'a=%E0%A4%A'), 400, 'BODY_MALFORMED'],
    ];
    for (const [pending, status, errorCode] of cases) {
      const res = await pending;
      const body = (await res.body.json()) as Record<string, string>;
      assert.deepEqual([res.statusCode, body['error-code']], [status, errorCode]);
      assert.equal(res.headers['content-type'], 'application/vnd.pay+json');
      assert.deepEqual(validateResponse('ValidationErrorResponse', body), { valid: true });
    }
  });
});
