// 10,000 random and mutated requests: the mock never crashes and never answers 500 to a client
// mistake; every answer is a 4xx ValidationErrorResponse or a 200 body valid against its schema.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { Agent, request } from 'undici';
import { ENDPOINTS, matchPath } from '../../src/catalogue/index.ts';
import { buildRequest } from '../../src/client/client.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';
import { customerPageOf } from '../../src/gateway/customer-pages.ts';
import { startMock, type RunningMock } from '../../src/mock/server.ts';
import { validateResponse } from '../../src/schemas/index.ts';
import { fcParams, seed } from '../seed.ts';

const m = testMerchant();
const credentials = {
  login: m.login,
  controlKey: m.merchantControlKey,
  privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
};
let mock: RunningMock;
const agent = new Agent({ connections: 8 });
before(async () => {
  mock = await startMock();
});
after(async () => {
  await agent.close();
  await mock.close();
});

const signable = ENDPOINTS.filter((e) => e.auth.kind !== 'unstated');
const text = fc.string({ unit: 'binary', maxLength: 40 });
const body = fc.oneof(
  fc
    .array(
      fc.tuple(
        fc.oneof(fc.constantFrom('amount', 'client_orderid', 'control', 'orderid', 'email', 'oauth_nonce'), text),
        text,
      ),
      { maxLength: 8 },
    )
    .map((pairs) =>
      pairs
        .map(
          ([n, v]) =>
            `${encodeURIComponent(n.replace(/[\ud800-\udfff]/g, ''))}=${encodeURIComponent(v.replace(/[\ud800-\udfff]/g, ''))}`,
        )
        .join('&'),
    ),
  fc.string({ maxLength: 60 }),
  fc.constantFrom('a=%', 'a=%E0%A4%A', '%%%', '&&&=', 'a=1&a=2&a=3', 'amount=1e3', 'x'.repeat(70_000)),
  fc.uint8Array({ maxLength: 40 }).map((bytes) => Buffer.from(bytes)),
);
const mutatedSigned = fc
  .record({ endpoint: fc.constantFrom(...signable), flip: fc.nat(), drop: fc.boolean() })
  .map(({ endpoint, flip, drop }) => {
    const sent = buildRequest(endpoint, { baseUrl: mock.url, credentials, endpointId: '1001' }, [
      ['client_orderid', 'F-1'],
      ['client-order-id', 'F-1'],
      ['orderid', '1'],
      ['cardrefid', 'C'],
      ['amount', '1.00'],
      ['currency', 'EUR'],
      ['email', 'e@x'],
    ]);
    const b = drop ? sent.body.replace(/&[^&]*$/, '') : sent.body;
    const i = flip % Math.max(b.length, 1);
    return {
      method: 'POST',
      path: new URL(sent.url).pathname,
      headers: sent.headers,
      body: b.slice(0, i) + (b[i] === 'a' ? 'b' : 'a') + b.slice(i + 1),
    };
  });
const anyRequest = fc.record({
  method: fc.constantFrom('POST', 'POST', 'POST', 'GET', 'PUT', 'DELETE'),
  path: fc.oneof(
    fc.constantFrom(...ENDPOINTS.map((e) => e.path.replace('{endpointId}', '1001'))),
    fc.constantFrom(
      '/',
      '/api/v2/sale/',
      '/api/v2/sale/0',
      '/api/v2/sale/99999999999999999999',
      '/api/v2/sale/1001/x',
      '/api//v2/sale/1',
    ),
    fc.webPath(),
  ),
  headers: fc.record({
    accept: fc.constantFrom('application/vnd.pay+json', 'application/json', '*/*', ''),
    'content-type': fc.constantFrom(
      'application/x-www-form-urlencoded',
      'application/x-www-form-urlencoded; charset=utf-8',
      'text/plain',
      '',
    ),
    authorization: fc.option(
      fc.oneof(
        fc.string({ maxLength: 80 }).map((s) => `OAuth ${s}`),
        fc.constant('OAuth oauth_consumer_key="payconform-test-merchant", oauth_nonce="n"'),
      ),
      { nil: undefined },
    ),
  }),
  body,
});

describe(`mock fuzz (seed ${seed})`, () => {
  it('answers 10,000 random and mutated requests with a 4xx error body or a valid 200, never a 500', async () => {
    let count = 0;
    await fc.assert(
      fc.asyncProperty(fc.oneof(anyRequest, mutatedSigned), async (r) => {
        const headers = Object.fromEntries(
          Object.entries(r.headers).filter(([, v]) => v !== undefined && v !== ''),
        ) as Record<string, string>;
        // The customer's pages answer HTML, not the API's JSON: a random path that names one is left out.
        const path = /^[\x21-\x7e]*$/.test(r.path) && customerPageOf(r.path) === undefined ? r.path : '/x';
        const res = await request(`${mock.url}${path}`, {
          method: r.method as 'POST',
          headers,
          body: r.method === 'GET' ? null : r.body,
          dispatcher: agent,
        });
        const answer = (await res.body.json()) as Record<string, unknown>;
        count++;
        assert.ok(
          res.statusCode === 200 || (res.statusCode >= 400 && res.statusCode < 500),
          `${res.statusCode} for ${r.method} ${path}: ${JSON.stringify(answer)}`,
        );
        assert.equal(res.headers['content-type'], 'application/vnd.pay+json');
        const schema =
          res.statusCode === 200
            ? (matchPath(path).endpoint.responseSchema ?? 'AsyncResponse')
            : 'ValidationErrorResponse';
        assert.deepEqual(validateResponse(schema, answer), { valid: true });
      }),
      fcParams(10_000),
    );
    assert.equal(count, 10_000);
  });
});
