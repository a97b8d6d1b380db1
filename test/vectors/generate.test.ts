import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ENDPOINTS, matchPath, type Endpoint, type Operation } from '../../src/catalogue/index.ts';
import { normalizeUrl } from '../../src/signing/normalize-url.ts';
import { DEFAULT_SEED, generateVectors } from '../../src/vectors/generate.ts';
import { parseVectorFile } from '../../src/vectors/load.ts';

const pem = readFileSync(new URL('../../vectors/keys/test-only-merchant-rsa-2048.pem', import.meta.url), 'utf8');
const committed = readFileSync(new URL('../../vectors/generated.json', import.meta.url), 'utf8');

describe('vectors generate', () => {
  const file = generateVectors({ privateKeyPem: pem });

  it('reproduces the committed vectors/generated.json byte for byte (the vectors cannot drift from the code)', () => {
    assert.equal(`${JSON.stringify(file, null, 2)}\n`, committed, 'run: npm run vectors:generated');
  });

  it('is deterministic for a seed, and a different seed gives different data', () => {
    assert.deepEqual(generateVectors({ privateKeyPem: pem, seed: DEFAULT_SEED }), file);
    assert.notDeepEqual(generateVectors({ privateKeyPem: pem, seed: 7 }), file);
  });

  it('gives a new catalogue row its own vectors and leaves every other vector as it was, byte for byte', () => {
    // A made-up HMAC row in the middle of the catalogue: every row after it used to get other data.
    const fake: Endpoint = {
      operation: 'FAKE_REFUND' as Operation,
      path: '/api/v2/fake-refund/{endpointId}',
      version: 'v2',
      requestSchema: null,
      responseSchema: null,
      auth: { kind: 'oauth-hmac-sha1' },
      endpointGroup: { accepted: false, page: null },
      source: 'table',
      checkedRequestSchema: 'PayoutRequest',
      mockBehaviour: 'payment',
      featureArea: 'payouts',
      movesMoney: true,
    };
    const middle = ENDPOINTS.findIndex((e) => e.operation === 'SALE');
    assert.ok(middle > 0 && middle < ENDPOINTS.length - 1);
    const grown = generateVectors({
      privateKeyPem: pem,
      endpoints: [...ENDPOINTS.slice(0, middle), fake, ...ENDPOINTS.slice(middle)],
    });
    const before = new Map(file.vectors.map((v) => [v.id, JSON.stringify(v, null, 2)]));
    assert.deepEqual(
      grown.vectors.filter((v) => !before.has(v.id)).map((v) => v.id),
      ['fake-refund-001', 'fake-refund-002', 'fake-refund-003'],
    );
    assert.equal(grown.vectors.length, file.vectors.length + 3);
    for (const v of grown.vectors)
      if (before.has(v.id)) assert.equal(JSON.stringify(v, null, 2), before.get(v.id), v.id);
  });

  it("gives a formula field it has no sample for (a new row's) a generic value", () => {
    const sale = ENDPOINTS.find((e) => e.operation === 'SALE')!;
    assert.equal(sale.auth.kind, 'control');
    if (sale.auth.kind !== 'control') return;
    const withNewField: Endpoint = {
      ...sale,
      auth: { kind: 'control', fields: [...sale.auth.fields, { name: 'merchant_data', from: 'params', cents: false }] },
    };
    const vectors = generateVectors({ privateKeyPem: pem, operations: ['SALE'], endpoints: [withNewField] }).vectors;
    for (const id of ['sale-001', 'sale-002', 'sale-003']) {
      assert.match(
        new Map(vectors.find((v) => v.id === id)!.request.params).get('merchant_data') ?? '',
        /^value-[0-9a-f]{6}$/,
        id,
      );
    }
  });

  it('sends one vector of every operation whose public page lists a group URL to …/group/{groupId} (A-3)', () => {
    const grouped = file.vectors.filter((v) => /-group-001$/.test(v.id));
    const expected = ENDPOINTS.filter((e) => e.endpointGroup.accepted && e.auth.kind !== 'unstated')
      .map((e) => e.operation)
      .sort();
    assert.deepEqual(
      grouped.map((v) => matchPath(new URL(v.request.url).pathname).endpoint.operation).sort(),
      expected,
    );
    for (const v of grouped) assert.match(new URL(v.request.url).pathname, /\/group\/[1-9][0-9]*$/, v.id);
    // By hand: sale's formula starts with endpointId, so the group id takes its place.
    const sale = grouped.find((v) => v.id === 'sale-group-001')!;
    const group = /\/group\/(\d+)$/.exec(sale.request.url)![1];
    const p = Object.fromEntries(sale.request.params);
    const cents = String(Math.round(Number(p.amount) * 100));
    const saleInput = `${group}${p.client_orderid}${cents}${p.email}TEST-ONLY-control-key-0f6b2c`;
    assert.equal(sale.expected.control, createHash('sha1').update(saleInput).digest('hex'));
    // status's formula names no endpointId: login + client_orderid + orderid, the group id nowhere in it.
    const status = grouped.find((v) => v.id === 'status-group-001')!;
    const q = Object.fromEntries(status.request.params);
    const statusInput = `payconform-test-merchant${q.client_orderid}${q.orderid}TEST-ONLY-control-key-0f6b2c`;
    assert.equal(status.expected.control, createHash('sha1').update(statusInput).digest('hex'));
  });

  it('passes its own validation', () =>
    assert.equal(parseVectorFile(committed, 'generated.json').vectors.length, file.vectors.length));

  it('covers every endpoint whose scheme is known with at least three vectors', () => {
    const counts = new Map<string, number>();
    for (const v of file.vectors.filter((x) => x.message !== 'callback')) {
      const op = matchPath(normalizeUrl(v.request.url).pathname).endpoint.operation;
      counts.set(op, (counts.get(op) ?? 0) + 1);
    }
    for (const e of ENDPOINTS) {
      if (e.auth.kind === 'unstated') assert.equal(counts.get(e.operation), undefined, e.operation);
      else assert.ok((counts.get(e.operation) ?? 0) >= 3, `${e.operation}: ${counts.get(e.operation) ?? 0}`);
    }
  });

  it('holds nothing JSON would drop: the vectors in memory are the ones written to the file', () => {
    assert.deepEqual(JSON.parse(JSON.stringify(file)), file);
  });

  describe('for chosen operations (a partner pack)', () => {
    const key = 'k$$1$&`x';
    const pack = generateVectors({
      operations: ['SALE', 'PAYOUT', 'PAYOUT_V4'],
      privateKeyPem: pem,
      baseUrl: 'http://h.example/pfx/',
      endpointId: '55',
      login: 'L',
      controlKey: key,
    });
    const byId = new Map(pack.vectors.map((v) => [v.id, v]));

    it('has the three catalogue vectors and the edge cases of each chosen operation, and nothing else', () => {
      const ops = new Set(pack.vectors.map((v) => matchPath(normalizeUrl(v.request.url).pathname).endpoint.operation));
      assert.deepEqual([...ops].sort(), ['PAYOUT', 'PAYOUT_V4', 'SALE']);
      for (const id of [
        'sale-001',
        'sale-003',
        'payout-002',
        'payout-v4-003',
        'sale-edge-amount-0-decimals',
        'sale-edge-amount-zero',
        'sale-edge-int64-endpoint-id',
        'payout-edge-unicode',
        'payout-edge-default-port',
        'payout-edge-realm',
        'payout-v4-edge-unicode',
        'payout-v4-edge-int64-endpoint-id',
      ])
        assert.ok(byId.has(id), id);
      // 3 × 3 catalogue vectors, SALE: 5 amounts + int64 id, each OAuth endpoint: 12 canonicalisation cases.
      assert.equal(pack.vectors.length, 9 + 6 + 12 + 12);
      assert.ok(!byId.has('edge-no-prefix') && !byId.has('edge-unicode'));
    });

    it('uses the one endpointId given, except in the int64 cases', () => {
      for (const v of pack.vectors) {
        const id = v.request.url.split('?')[0]!.split('/').pop();
        assert.equal(id, v.id.endsWith('int64-endpoint-id') ? '9223372036854775807' : '55', v.id);
      }
    });

    it('builds the port and host cases from the base URL (http: default port 80, trailing slash dropped)', () => {
      assert.equal(byId.get('payout-edge-default-port')!.request.url, 'http://h.example:80/pfx/api/v2/payout/55');
      assert.equal(byId.get('payout-edge-explicit-port')!.request.url, 'http://h.example:8443/pfx/api/v2/payout/55');
      assert.equal(byId.get('payout-edge-uppercase-host')!.request.url, 'HTTP://H.EXAMPLE/pfx/api/v2/payout/55');
      const slashes = generateVectors({ operations: ['PAYOUT'], baseUrl: 'https://h.example/pfx//' }).vectors.find(
        (v) => v.id === 'payout-edge-default-port',
      )!;
      assert.equal(slashes.request.url, 'https://h.example:443/pfx/api/v2/payout/1001');
    });

    it('writes the control key as given at the end of controlInput, even one with $ patterns', () => {
      for (const v of pack.vectors.filter((x) => x.scheme === 'control')) {
        const p = new Map(v.request.params);
        const cents = v.id === 'sale-edge-amount-0-decimals' ? '1000' : v.id === 'sale-edge-amount-zero' ? '0' : null;
        const input = v.expected.controlInput!;
        assert.ok(input.endsWith(`${p.get('email')}${key}`), input);
        assert.ok(
          input.startsWith(`${v.id.includes('int64') ? '9223372036854775807' : '55'}${p.get('client_orderid')}`),
          input,
        );
        if (cents !== null) assert.equal(input, `55${p.get('client_orderid')}${cents}${p.get('email')}${key}`);
        assert.equal(v.expected.control, createHash('sha1').update(input).digest('hex'));
      }
    });

    it('gives an operation the same vectors whichever other operations are packed with it', () => {
      const alone = generateVectors({
        operations: ['PAYOUT'],
        privateKeyPem: pem,
        baseUrl: 'http://h.example/pfx/',
        endpointId: '55',
        login: 'L',
        controlKey: key,
      });
      assert.deepEqual(
        pack.vectors.filter((v) => v.id.startsWith('payout-0') || v.id.startsWith('payout-edge-')),
        alone.vectors,
      );
      assert.deepEqual(
        generateVectors({
          operations: ['SALE', 'PAYOUT', 'PAYOUT_V4'],
          privateKeyPem: pem,
          baseUrl: 'http://h.example/pfx/',
          endpointId: '55',
          login: 'L',
          controlKey: key,
        }),
        pack,
      );
    });

    it('signs with the login given', () => {
      for (const v of pack.vectors.filter((x) => x.scheme !== 'control'))
        assert.match(v.expected.authorization!, /oauth_consumer_key="L"/);
    });
  });

  it('has the edge cases the issue names', () => {
    const ids = new Set(file.vectors.map((v) => v.id));
    for (const id of [
      'edge-unicode',
      'edge-reserved-characters',
      'edge-empty-values',
      'edge-repeated-names',
      'edge-mixed-case-names',
      'edge-query-string',
      'edge-default-port',
      'edge-explicit-port',
      'edge-uppercase-host',
      'edge-realm',
      'edge-control-amount-0-decimals',
      'edge-control-amount-1-decimal',
      'edge-control-amount-2-decimals',
      'edge-control-amount-15-digits',
      'edge-int64-endpoint-id',
      'edge-control-int64-endpoint-id',
      'edge-rsa-unicode',
      'edge-no-prefix',
    ])
      assert.ok(ids.has(id), id);
    const byId = new Map(file.vectors.map((v) => [v.id, v]));
    // Hand-checked corners of the edge cases (independent of the generator's own code).
    assert.match(
      byId.get('edge-control-amount-15-digits')!.expected.controlInput!,
      /^1001ORD-\d{6}99999999999999999\D/,
    );
    assert.match(
      byId.get('edge-default-port')!.expected.baseString!,
      /^POST&https%3A%2F%2Fsandbox\.gateway\.example%2Fpaynet%2F/,
    );
    assert.match(
      byId.get('edge-explicit-port')!.expected.baseString!,
      /^POST&https%3A%2F%2Fsandbox\.gateway\.example%3A8443%2F/,
    );
    assert.match(
      byId.get('edge-realm')!.expected.authorization!,
      /^OAuth realm="payconform-test", oauth_consumer_key=/,
    );
    assert.ok(!byId.get('edge-realm')!.expected.baseString!.includes('realm'));
    assert.match(
      byId.get('edge-mixed-case-names')!.expected.baseString!,
      /&AMOUNT%3Dx%26Amount%3D5%26B%3D2%26amount%3D5\.00%26b%3D1%26/,
    );
    assert.match(byId.get('edge-repeated-names')!.expected.baseString!, /item%3Da%26item%3Da%26item%3Db/);
  });
});
