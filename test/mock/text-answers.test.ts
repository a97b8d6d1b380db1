// The mock with the public gateways' answers (profiles/family-text.json's settings): form text,
// refusals as HTTP 200 with their type, no Accept needed; and the suite's client reading them by
// media type, each departure from the spec a deviation named by its profile key, never a pass.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { endpointByOperation } from '../../src/catalogue/index.ts';
import { PayClient } from '../../src/client/client.ts';
import { exchangeText } from '../../src/client/exchange-text.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';
import { startMock, type RunningMock } from '../../src/mock/server.ts';
import { sampleRequest } from '../../src/schemas/index.ts';
import { encodeForm } from '../../src/signing/form-body.ts';

const merchant = testMerchant();
const credentials = {
  login: merchant.login,
  controlKey: merchant.merchantControlKey,
  privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
};
const answers = { format: 'form', mediaType: 'text/plain', errorStatus: 200 } as const;
let textMock: RunningMock;
let specMock: RunningMock;
before(async () => {
  textMock = await startMock({ answers, acceptRequired: false });
  specMock = await startMock();
});
after(async () => {
  await textMock.close();
  await specMock.close();
});

const sale = () => sampleRequest(endpointByOperation('SALE'));

describe('mock with form-text answers', () => {
  it('serves a request without Accept and answers form text with its media type', async () => {
    const client = new PayClient({ baseUrl: textMock.url, credentials, endpointId: '1001' });
    const built = await client.send('SALE', sale(), { headers: { accept: null } });
    await client.close();
    assert.equal(built.status, 200);
    assert.equal(built.contentType, 'text/plain;charset=utf-8');
  });

  it('answers a refusal HTTP 200 with type=validation-error, as the public gateways do', async () => {
    const res = await request(`${textMock.url}/api/v2/status/1001`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: encodeForm([
        ['login', merchant.login],
        ['client_orderid', 'x'],
        ['orderid', '1'],
      ]),
    });
    const text = await res.body.text();
    assert.equal(res.statusCode, 200);
    assert.match(
      text,
      /^type=validation-error\n&error-code=CONTROL_MISSING\n&error-message=[^\n]+\n&serial-number=mock-[0-9]+\n&field=control\n$/,
    );
  });

  it("keeps 403 for a failed OAuth check and HTTP's own 405: errorStatus stands in for 400 and 500 only (A-21)", async () => {
    // The public OAuth helper page: "403 Forbidden error received from the API server is due to a bad signature".
    const payout = await request(`${textMock.url}/api/v2/payout/1001`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'amount=1.00',
    });
    assert.equal(payout.statusCode, 403);
    assert.match(await payout.body.text(), /^type=validation-error\n&error-code=AUTH_HEADER_MISSING\n/);
    const get = await request(`${textMock.url}/api/v2/sale/1001`, { method: 'GET' });
    assert.equal(get.statusCode, 405);
    await get.body.dump();
  });

  it('the default mock still refuses a request without Accept (406)', async () => {
    const client = new PayClient({ baseUrl: specMock.url, credentials, endpointId: '1001' });
    const x = await client.send('SALE', sale(), { headers: { accept: null } });
    await client.close();
    assert.equal(x.status, 406);
  });
});

describe('the client reading form text', () => {
  it("with the profile's format: the fields, and the media type a deviation of answers.format and answers.mediaType", async () => {
    const client = new PayClient({ baseUrl: textMock.url, credentials, endpointId: '1001', answers });
    const x = await client.send('SALE', sale());
    await client.close();
    assert.equal((x.body as Record<string, string>).type, 'async-response');
    assert.match((x.body as Record<string, string>)['paynet-order-id']!, /^[0-9]+$/);
    assert.deepEqual(
      x.problems.map((p) => [p.deviation, p.assumption]),
      [['answers.format, answers.mediaType', undefined]],
    );
  });

  it('a refusal in a 200 counts as its spec status, with the status a deviation of answers.errorStatus', async () => {
    const client = new PayClient({ baseUrl: textMock.url, credentials, endpointId: '1001', answers });
    const x = await client.send('SALE', sale(), { unsigned: true });
    await client.close();
    assert.deepEqual(
      [x.status, x.httpStatus, (x.body as Record<string, string>)['error-code']],
      [400, 200, 'CONTROL_MISSING'],
    );
    assert.ok(
      x.problems.some((p) => p.deviation === 'answers.errorStatus' && p.message.includes('the spec answers it 400')),
    );
    assert.match(exchangeText(x), /^HTTP 200 \(a refusal: the spec's 400\)$/m);
  });

  it("without the profile's format: a breach of the spec, the text left unread", async () => {
    const client = new PayClient({ baseUrl: textMock.url, credentials, endpointId: '1001' });
    const x = await client.send('SALE', sale());
    await client.close();
    assert.equal(typeof x.body, 'string');
    assert.ok(
      x.problems.some(
        (p) =>
          p.assumption === undefined &&
          p.deviation === undefined &&
          p.message.startsWith('content-type: must be application/vnd.pay+json'),
      ),
    );
  });
});

describe('every answer’s fields, in JSON and in form text alike', () => {
  /** A paid sale's final status, its card reference and the card info, as the client read each. */
  async function answersOf(mock: RunningMock, format?: typeof answers) {
    const client = new PayClient({ baseUrl: mock.url, credentials, endpointId: '1001', answers: format });
    const send = (operation: string, ...pairs: Array<[string, string]>) =>
      client.send(operation, sampleRequest(endpointByOperation(operation), pairs));
    const field = (x: { body: unknown }, name: string) => (x.body as Record<string, string>)[name] ?? '';
    const sold = await send('SALE');
    const ids: Array<[string, string]> = [
      ['client_orderid', field(sold, 'merchant-order-id')],
      ['orderid', field(sold, 'paynet-order-id')],
    ];
    await send('STATUS', ...ids);
    const status = await send('STATUS', ...ids);
    const cardRef = await send('CARDREF', ...ids);
    const cardInfo = await send('CARDINFO', ['cardrefid', field(cardRef, 'card-ref-id')]);
    await client.close();
    return { status, cardRef, cardInfo };
  }

  it('status names transaction-type and the masked card, get-card-info answers its own type, in both', async () => {
    const json = await answersOf(specMock);
    const text = await answersOf(textMock, answers);
    for (const name of ['status', 'cardRef', 'cardInfo'] as const) {
      assert.deepEqual(Object.keys(text[name].body as object), Object.keys(json[name].body as object), name);
      assert.deepEqual(json[name].problems, [], `${name}: the JSON answer passes its schema`);
      assert.deepEqual(
        text[name].problems.map((p) => p.deviation),
        ['answers.format, answers.mediaType'],
        `${name}: the form text only departs in its format`,
      );
    }
    const status = text.status.body as Record<string, string>;
    assert.deepEqual([status.status, status['transaction-type'], status.bin], ['approved', 'sale', '411111']);
    const info = text.cardInfo.body as Record<string, string>;
    assert.equal(info.type, 'get-card-info-response');
    assert.equal(info['paynet-order-id'], undefined, 'get-card-info starts no order');
  });
});
