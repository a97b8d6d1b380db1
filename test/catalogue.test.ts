// The catalogue checked against the spec's own endpoint table (docs/spec/api-spec.md, a copy of
// the shared spec): parsed from the Markdown here, so the table and the code are two sources.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { ENDPOINTS, endpointByOperation, endpointTarget, endpointUrl, matchPath } from '../src/catalogue/index.ts';

const spec = readFileSync(new URL('../docs/spec/api-spec.md', import.meta.url), 'utf8');
const tableRows = spec
  .split('\n')
  .filter((l) => l.startsWith('| /api/'))
  .map((l) =>
    l
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim()),
  );

function expectedAuth(text: string): { kind: string; fields?: string[]; cents?: string[]; page?: string } {
  if (text === 'none stated') return { kind: 'unstated' };
  if (text === 'OAuth 1.0a, HMAC-SHA1') return { kind: 'oauth-hmac-sha1' };
  if (text === 'OAuth 1.0a, RSA-SHA256') return { kind: 'oauth-rsa-sha256' };
  const m = /^control = SHA-1\((.*)\)(, amount in cents)?$/.exec(text);
  assert.ok(m, `unrecognised authentication cell: ${text}`);
  const names = m[1]!.split(' + ');
  assert.equal(names.pop(), 'merchant_control_key', 'the key is last in every formula');
  return { kind: 'control', fields: names, cents: m[2] ? ['amount'] : [] };
}

// Where the spec says "none stated" and the family's public page states a control formula,
// read off the page by hand: "1. Request parameter: login 2. Request parameter: cardrefid 3. merchant_control".
const PUBLIC_FORMULAS: Record<string, { kind: string; fields: string[]; cents: string[]; page: string }> = {
  CARDINFO: {
    kind: 'control',
    fields: ['login', 'cardrefid'],
    cents: [],
    page: 'https://doc.payneteasy.eu/integration/API_commands/api_v2_get-card-info.html',
  },
};

describe('endpoint catalogue', () => {
  it('the spec copy in docs/spec is the shared spec, where the shared folder is present', (t) => {
    const shared = new URL('../../shared/api-spec.md', import.meta.url);
    if (!existsSync(shared)) return t.skip('../shared/api-spec.md is not beside this checkout');
    assert.equal(spec, readFileSync(shared, 'utf8'));
  });

  it('has the 25 rows of the spec table plus the three endpoints of the signing examples', () => {
    assert.equal(tableRows.length, 25);
    assert.equal(ENDPOINTS.filter((e) => e.source === 'table').length, 25);
    assert.equal(ENDPOINTS.length, 28);
    assert.deepEqual(
      ENDPOINTS.filter((e) => e.source === 'signing-example')
        .map((e) => e.path)
        .sort(),
      [
        '/api/v2/pan-eligibility/send/{endpointId}',
        '/api/v4/transfer-by-ref/{endpointId}',
        '/api/v4/transfer/{endpointId}',
      ],
    );
    assert.equal(new Set(ENDPOINTS.map((e) => e.operation)).size, 28, 'operation names are unique');
    assert.equal(new Set(ENDPOINTS.map((e) => e.path)).size, 28, 'paths are unique');
  });

  for (const [path, operation, requestSchema, responseSchema, auth] of tableRows) {
    it(`matches the spec row ${operation} ${path}`, () => {
      const row = endpointByOperation(operation!);
      assert.equal(row.path, path);
      assert.equal(row.requestSchema, requestSchema === 'not shown' ? null : requestSchema);
      assert.equal(row.responseSchema, responseSchema === 'not shown' ? null : responseSchema);
      const want = PUBLIC_FORMULAS[operation!] ?? expectedAuth(auth!);
      if (PUBLIC_FORMULAS[operation!])
        assert.equal(auth, 'none stated', 'a public formula only fills what the spec leaves open');
      assert.equal(row.auth.kind, want.kind);
      assert.equal(row.auth.kind === 'control' ? row.auth.fromPublicPage : undefined, want.page);
      if (row.auth.kind === 'control') {
        assert.deepEqual(
          row.auth.fields.map((f) => f.name),
          want.fields,
        );
        assert.deepEqual(
          row.auth.fields.filter((f) => f.cents).map((f) => f.name),
          want.cents,
        );
      }
      assert.equal(row.version, path!.split('/')[2] === '3ds' ? '3ds/v1' : path!.split('/')[2]);
    });
  }

  it('spells client-order-id with hyphens on the three 3-D Secure uploads only', () => {
    const hyphenated = ENDPOINTS.filter(
      (e) => e.auth.kind === 'control' && e.auth.fields.some((f) => f.name === 'client-order-id'),
    );
    assert.deepEqual(hyphenated.map((e) => e.operation).sort(), [
      'TDS_UPLOAD_CRES_RESULT',
      'TDS_UPLOAD_METHOD_URL_RESULT',
      'TDS_UPLOAD_PARES_RESULT',
    ]);
  });

  it('uses HMAC-SHA1 for payout and pan-eligibility and RSA-SHA256 for every /api/v4/ endpoint', () => {
    for (const e of ENDPOINTS) {
      if (e.path.startsWith('/api/v4/')) assert.equal(e.auth.kind, 'oauth-rsa-sha256', e.operation);
      else if (e.operation === 'PAYOUT' || e.operation === 'PAN_ELIGIBILITY_SEND')
        assert.equal(e.auth.kind, 'oauth-hmac-sha1');
      else assert.ok(e.auth.kind === 'control' || e.auth.kind === 'unstated', e.operation);
    }
  });

  it('accepts endpoint group ids exactly where the public page of the operation lists a group URL (A-3)', () => {
    // Read off the "API URLs" tables of doc.payneteasy.com / doc2.payneteasy.com / doc.payneteasy.eu, page by page.
    const withGroups = ENDPOINTS.filter((e) => e.endpointGroup.accepted)
      .map((e) => e.operation)
      .sort();
    assert.deepEqual(withGroups, [
      'ACCOUNT_VERIFICATION',
      'ACCOUNT_VERIFICATION_FORM',
      'CAPTURE',
      'CARDINFO',
      'CARDREF',
      'CARDREF_V4',
      'PAYOUTFORM',
      'PAYOUT_V4',
      'PAYOUT_V4_PAY',
      'PREAUTH',
      'PREAUTHFORM',
      'REBILL',
      'RETURN',
      'SALE',
      'SALEFORM',
      'STATUS',
      'TDS_UPLOAD_CRES_RESULT',
      'TDS_UPLOAD_METHOD_URL_RESULT',
      'TDS_UPLOAD_PARES_RESULT',
      'TRANSFER_BY_REF_V4',
      'TRANSFER_V4',
      'VOID',
    ]);
    // Each row names its page: a public one wherever a group id is accepted; null only where the family publishes none.
    for (const e of ENDPOINTS) {
      if (e.endpointGroup.accepted)
        assert.match(
          e.endpointGroup.page ?? '',
          /^https:\/\/doc2?\.payneteasy\.(com|eu)\/integration\/API_commands\/.+\.html$/,
          e.operation,
        );
    }
    assert.deepEqual(
      ENDPOINTS.filter((e) => e.endpointGroup.page === null)
        .map((e) => e.operation)
        .sort(),
      ['PAYMENTFORM', 'PAYOUT', 'PAYOUT_V4_CHECK'],
    );
  });

  it('resolves paths with and without a prefix, and rejects what is not an endpoint', () => {
    assert.deepEqual(
      { ...matchPath('/paynet/api/v2/sale/1234'), endpoint: undefined },
      { endpoint: undefined, endpointId: '1234', prefix: '/paynet' },
    );
    assert.equal(matchPath('/paynet/api/v2/sale/1234').endpoint.operation, 'SALE');
    assert.equal(matchPath('/api/v2/pan-eligibility/send/9').endpoint.operation, 'PAN_ELIGIBILITY_SEND');
    assert.equal(matchPath('/x/api/y/api/3ds/v1/upload-cres-result/5').prefix, '/x/api/y');
    assert.equal(matchPath('/api/v2/sale/9223372036854775807').endpointId, '9223372036854775807');
    assert.throws(() => matchPath('/api/v2/sale/9223372036854775808'), { code: 'ERR_ENDPOINT_ID' });
    for (const bad of ['0', '-1', '012', '1.5', 'abc', '']) {
      assert.throws(() => matchPath(`/api/v2/sale/${bad}`), { code: 'ERR_ENDPOINT_ID' }, bad);
    }
    assert.throws(() => matchPath('/api/v2/refund/1'), { code: 'ERR_UNKNOWN_ENDPOINT' });
    assert.throws(() => endpointByOperation('REFUND'), { code: 'ERR_UNKNOWN_OPERATION' });
  });

  it("resolves the vendor library's endpoint-group URLs, …/{operation}/group/{groupId} (A-3)", () => {
    // As api-family-notes.md quotes GatewayClient::getUrl: https://sandbox.example/paynet/api/v2/sale-form/group/4343.
    assert.deepEqual(
      { ...matchPath('/paynet/api/v2/sale-form/group/4343'), endpoint: undefined },
      { endpoint: undefined, endpointId: '4343', prefix: '/paynet', group: true },
    );
    assert.equal(matchPath('/paynet/api/v2/sale-form/group/4343').endpoint.operation, 'SALEFORM');
    assert.equal(matchPath('/api/v2/status/group/7').endpoint.operation, 'STATUS');
    assert.equal(
      matchPath('/api/v4/create-recurring-payment/group/7').endpoint.operation,
      'CREATE_RP_V4',
      'resolved; the endpoint-owner rule refuses a group there',
    );
    assert.equal(matchPath('/api/v2/sale/7').group, undefined);
    assert.throws(() => matchPath('/api/v2/sale/group/x'), { code: 'ERR_ENDPOINT_ID' });
    assert.equal(
      endpointUrl('https://h.example/paynet', endpointByOperation('SALEFORM'), '4343', 'endpointId', 'group'),
      'https://h.example/paynet/api/v2/sale-form/group/4343',
    );
  });

  it('joins base URLs that carry a prefix before /api/', () => {
    const sale = endpointByOperation('SALE');
    assert.equal(endpointUrl('https://h.example/paynet/', sale, '7'), 'https://h.example/paynet/api/v2/sale/7');
    assert.equal(endpointUrl('https://h.example', sale, '7'), 'https://h.example/api/v2/sale/7');
    assert.throws(() => endpointUrl('https://h.example/paynet/api/v2', sale, '7'), { code: 'ERR_URL' });
    assert.throws(() => endpointUrl('not a url', sale, '7'), { code: 'ERR_URL' });
  });

  it('gives with the URL the match it was built from, as matching that URL would (the client hands it to the signer)', () => {
    const form = endpointByOperation('SALEFORM');
    const target = endpointTarget('https://h.example/paynet/', form, '4343', 'endpointId', 'group');
    assert.equal(target.url, 'https://h.example/paynet/api/v2/sale-form/group/4343');
    assert.deepEqual(target.match, { endpoint: form, endpointId: '4343', prefix: '/paynet', group: true });
    assert.deepEqual(target.match, matchPath('/paynet/api/v2/sale-form/group/4343'));
    const sale = endpointTarget('https://h.example', endpointByOperation('SALE'), '7');
    assert.deepEqual(sale.match, { endpoint: endpointByOperation('SALE'), endpointId: '7', prefix: '' });
  });
});
