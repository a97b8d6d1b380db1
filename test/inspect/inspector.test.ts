import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ENDPOINTS, endpointByOperation } from '../../src/catalogue/index.ts';
import { buildRequest, type SentRequest } from '../../src/client/client.ts';
import { Inspector, type RequestVerdict } from '../../src/inspect/inspector.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';
import { MISTAKES } from '../../src/signing/diagnose/index.ts';
import { encodeForm } from '../../src/signing/form-body.ts';
import { sampleRequest } from '../../src/schemas/index.ts';
import type { Pair } from '../../src/signing/form-body.ts';
import { createPublicKey } from 'node:crypto';

const merchant = testMerchant();
const credentials = {
  login: merchant.login,
  controlKey: merchant.merchantControlKey,
  privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
};
const BASE = 'http://127.0.0.1:8080/paynet';
let serial = 0;

function request(
  operation: string,
  overrides: Pair[] = [],
  options: Parameters<typeof buildRequest>[3] = {},
): SentRequest {
  const endpoint = endpointByOperation(operation);
  const idField = endpoint.version === 'v4' || operation.startsWith('TDS_') ? 'client-order-id' : 'client_orderid';
  const pairs = sampleRequest(endpoint, [[idField, `INS-${++serial}`], ...overrides]);
  return buildRequest(endpoint, { baseUrl: BASE, credentials, endpointId: '1001' }, pairs, {
    unsigned: endpoint.auth.kind === 'unstated',
    ...options,
  });
}

const judge = (inspector: Inspector, r: SentRequest, body: Buffer = Buffer.from(r.body)): RequestVerdict =>
  inspector.judge({ method: r.method, url: r.url, headers: r.headers, body });

interface DiagnosisVector {
  id: string;
  request: { url: string; params: Pair[] };
  credentials: { login: string; merchantControlKey: string; privateKeyPem?: string };
  given: { authorization?: string; control?: string };
  expected: { defect: string | null };
}

const failed = (v: RequestVerdict): string[] => v.checks.filter((c) => c.outcome === 'fail').map((c) => c.id);

describe('Inspector', () => {
  it("passes every check of a correct request of every endpoint, as payconform's own client sends it", () => {
    const inspector = new Inspector({ merchants: [merchant] });
    for (const endpoint of ENDPOINTS) {
      const v = judge(inspector, request(endpoint.operation));
      assert.deepEqual(
        failed(v),
        [],
        `${endpoint.operation}: ${JSON.stringify(v.checks.filter((c) => c.outcome === 'fail'))}`,
      );
      assert.equal(v.passed, true);
      assert.equal(v.operation, endpoint.operation);
    }
  });

  it("passes status, capture and return sent to the merchant's group URL, as the vendor library sends them (A-3)", () => {
    const inspector = new Inspector({ merchants: [merchant] });
    for (const operation of ['STATUS', 'CAPTURE', 'RETURN']) {
      const v = judge(inspector, request(operation, [], { endpointId: '2001', groupUrl: true }));
      assert.deepEqual(failed(v), [], `${operation}: ${JSON.stringify(v.checks.filter((c) => c.outcome === 'fail'))}`);
    }
  });

  it("passes an HMAC-SHA1 payout whose body repeats the header's oauth_* values, as the public HMAC page asks (A-26)", () => {
    // "OAuth parameters must be included in request body" (doc.payneteasy.com integration_helpers/oauth.html),
    // as the spec's own HMAC-SHA1 example does; the body repeats exactly what the header says.
    const v = judge(
      new Inspector({ merchants: [merchant] }),
      request(
        'PAYOUT',
        [
          ['oauth_nonce', 'repeat-1'],
          ['oauth_version', '1.0'],
          ['oauth_signature_method', 'HMAC-SHA1'],
        ],
        { nonce: 'repeat-1' },
      ),
    );
    assert.deepEqual(failed(v), [], JSON.stringify(v.checks.filter((c) => c.outcome === 'fail')));
    assert.equal(v.checks.find((c) => c.id === 'no-oauth-in-body')?.outcome, 'skip');
  });

  const cases: Array<[string, () => { r: SentRequest; body?: Buffer; method?: string }, string[], RegExp?]> = [
    [
      'an unknown path',
      () => {
        const r = request('SALE');
        return { r: { ...r, url: r.url.replace('/sale/', '/sell/') } };
      },
      ['endpoint-known'],
      /is no endpoint of this gateway/,
    ],
    [
      'an endpoint id of no merchant',
      () => ({ r: request('SALE', [], { endpointId: '999' }) }),
      ['endpoint-owner'],
      /999 is not an endpoint of any merchant/,
    ],
    // create-recurring-payment's public page lists …/ENDPOINTID only, so the merchant's group 2001 is refused there.
    [
      'a group URL where the public page lists none',
      () => ({ r: request('CREATE_RP_V4', [], { endpointId: '2001', groupUrl: true }) }),
      ['endpoint-owner'],
      /CREATE_RP_V4 does not accept an endpoint group id/,
    ],
    ['wrong method', () => ({ r: request('SALE'), method: 'PUT' }), ['method-post']],
    // The evidence is said once: "(got GET) (got GET)" was the rule's message and inspect's suffix both.
    [
      'an API request by GET',
      () => ({ r: request('SALE'), method: 'GET' }),
      ['method-post'],
      /^method: only POST is allowed \(got GET\)$/,
    ],
    [
      'no Accept',
      () => ({ r: request('SALE', [], { headers: { accept: null } }) }),
      ['accept-header'],
      /accept: must be application\/vnd\.pay\+json \(got no Accept header\)/,
    ],
    [
      'JSON content type',
      () => ({ r: request('SALE', [], { headers: { 'content-type': 'application/json' } }) }),
      ['content-type'],
    ],
    [
      'body not UTF-8',
      () => ({ r: request('SALE'), body: Buffer.from([0x61, 0x3d, 0xff]) }),
      ['form-encoding'],
      /not UTF-8/,
    ],
    // order_desc is outside the SALE formula, so the signature still holds.
    [
      'body encoded twice',
      () => {
        const r = request('SALE', [['order_desc', 'a b']]);
        return { r, body: Buffer.from(r.body.replace('order_desc=a%20b', 'order_desc=a%2520b')) };
      },
      ['encoded-once'],
      /encoded twice/,
    ],
    [
      'missing mandatory field',
      () => ({
        r: request('PAYOUT_V4', [], {}),
        body: Buffer.from(request('PAYOUT_V4').body.replace(/(^|&)currency=[^&]*/, '')),
      }),
      ['oauth-signature', 'required-fields'],
      /does not match|reproduced by|no known mistake/,
    ],
    [
      'amount with three decimals',
      () => ({ r: request('PAYOUT', [['amount', '1.005']]) }),
      ['required-fields', 'amount-format'],
    ],
    [
      'oauth_* in the body of an RSA-SHA256 request',
      () => ({ r: request('PAYOUT_V4', [['oauth_version', '1.0']]) }),
      ['no-oauth-in-body'],
    ],
    [
      'no Authorization header',
      () => ({ r: request('PAYOUT_V4', [], { unsigned: true }) }),
      ['oauth-header-present'],
      /an OAuth Authorization header is required/,
    ],
    // get-card-info's control is the public page's: an integration that leaves it out is told so.
    [
      'get-card-info without its control',
      () => ({ r: request('CARDINFO', [], { unsigned: true }) }),
      ['control-present'],
      /control: missing/,
    ],
  ];
  for (const [what, make, expected, message] of cases) {
    it(`reports ${what} under ${expected.join(' and ')}`, () => {
      const { r, body, method } = make();
      const v = new Inspector({ merchants: [merchant] }).judge({
        method: method ?? 'POST',
        url: r.url,
        headers: r.headers,
        body: body ?? Buffer.from(r.body),
      });
      assert.deepEqual(failed(v), expected, JSON.stringify(v.checks.filter((c) => c.outcome === 'fail')));
      if (message) assert.match(v.checks.find((c) => c.id === expected[0])!.message ?? '', message);
      for (const c of v.checks.filter((check) => check.actual !== undefined)) {
        assert.equal(c.message!.split(`(got ${c.actual})`).length - 1, 1, `${c.id} says what came once: ${c.message}`);
      }
      assert.equal(v.passed, false);
    });
  }

  // One request per diagnosis id: the published vectors/diagnoses.json, each signed with its mistake
  // on purpose. The signature check fails and names that id; a valid vector passes it.
  // The callback vectors sign the gateway's callback, not a request: inspect judges those by --callback-checks.
  const allDiagnosisVectors = (
    JSON.parse(readFileSync(new URL('../../vectors/diagnoses.json', import.meta.url), 'utf8')) as {
      vectors: Array<DiagnosisVector & { message?: string }>;
    }
  ).vectors;
  const diagnosisVectors = allDiagnosisVectors.filter((v) => v.message !== 'callback');
  it('the diagnosis vectors cover every diagnosis id (amount-in-formula only by a callback: every request formula without an amount has no amount field)', () => {
    assert.deepEqual(
      new Set(diagnosisVectors.map((v) => v.expected.defect).filter((d) => d !== null)),
      new Set(MISTAKES.map((m) => m.id).filter((id) => id !== 'amount-in-formula')),
    );
    assert.ok(allDiagnosisVectors.some((v) => v.expected.defect === 'amount-in-formula'));
  });
  for (const vector of diagnosisVectors) {
    it(`judges the signature of diagnosis vector ${vector.id}: ${vector.expected.defect ?? 'valid'}`, () => {
      const { login, merchantControlKey, privateKeyPem } = vector.credentials;
      const publicKeyPem =
        privateKeyPem === undefined
          ? merchant.publicKeyPem
          : createPublicKey(privateKeyPem).export({ type: 'spki', format: 'pem' }).toString();
      const inspector = new Inspector({
        merchants: [{ login, merchantControlKey, publicKeyPem, endpointIds: ['1001'], endpointGroupIds: [] }],
        now: () => Number(/oauth_timestamp="(\d+)"/.exec(vector.given.authorization ?? '')?.[1] ?? 0) * 1000,
      });
      const params: Pair[] = [
        ...vector.request.params,
        ...(vector.given.control === undefined ? [] : [['control', vector.given.control] as const]),
      ];
      const headers = {
        accept: 'application/vnd.pay+json',
        'content-type': 'application/x-www-form-urlencoded',
        ...(vector.given.authorization ? { authorization: vector.given.authorization } : {}),
      };
      const v = inspector.judge({
        method: 'POST',
        url: vector.request.url,
        headers,
        body: Buffer.from(encodeForm(params)),
      });
      const signature = v.checks.find(
        (c) => (c.id === 'control-signature' || c.id === 'oauth-signature') && c.outcome !== 'skip',
      )!;
      if (vector.expected.defect === null) assert.equal(signature.outcome, 'pass', signature.message);
      else {
        assert.equal(signature.outcome, 'fail');
        assert.ok(
          signature.signature?.diagnoses.includes(vector.expected.defect),
          `${vector.id}: ${signature.message}`,
        );
        // The correct value, or (a formula field spelt wrong, so none can be computed) what was signed.
        const shown = { ...signature.signature!.sent, ...signature.signature!.correct };
        assert.ok(shown.baseString ?? shown.controlInput, 'a base string or control input is shown');
      }
    });
  }

  it('fails a reused nonce, a stale timestamp, a reused client order id and a blind retry', () => {
    const now = Date.now();
    const inspector = new Inspector({ merchants: [merchant], now: () => now });
    const first = request('PAYOUT_V4', [['client-order-id', 'SAME-1']], { nonce: 'n-1' });
    assert.deepEqual(failed(judge(inspector, first)), []);
    const again = request('PAYOUT_V4', [['client-order-id', 'SAME-1']], { nonce: 'n-1' });
    assert.deepEqual(failed(judge(inspector, again)), ['nonce-unique', 'order-id-unique', 'no-blind-retry']);
    const stale = request('PAYOUT_V4', [], { timestamp: String(Math.floor(now / 1000) - 3600) });
    assert.deepEqual(failed(judge(inspector, stale)), ['oauth-timestamp-window']);
    // A timestamp in milliseconds is the usual way to be that far off: the check says so.
    const ms = judge(inspector, request('PAYOUT_V4', [], { timestamp: String(now) }));
    const window = ms.checks.find((c) => c.id === 'oauth-timestamp-window')!;
    assert.equal(window.outcome, 'fail');
    assert.match(window.message!, new RegExp(`; ${now} looks like milliseconds, and oauth_timestamp is in seconds`));
    assert.doesNotMatch(
      judge(inspector, request('PAYOUT_V4', [], { timestamp: String(Math.floor(now / 1000) - 3600) })).checks.find(
        (c) => c.id === 'oauth-timestamp-window',
      )!.message!,
      /milliseconds/,
    );
  });

  it("a signature no known mistake reproduces says what was tried, what that leaves, and which key was tried: signed with another merchant's", () => {
    const inspector = new Inspector({ merchants: [merchant] });
    const endpoint = endpointByOperation('SALE');
    const other = buildRequest(
      endpoint,
      { baseUrl: BASE, credentials: { ...credentials, controlKey: "another merchant's key" }, endpointId: '1001' },
      sampleRequest(endpoint, [['client_orderid', `INS-${++serial}`]]),
    );
    const check = judge(inspector, other).checks.find((c) => c.id === 'control-signature')!;
    assert.equal(check.outcome, 'fail');
    assert.deepEqual(check.signature?.diagnoses, []);
    assert.match(
      check.message!,
      /no known mistake reproduces it \(all 24 known control mistakes of docs\/diagnoses\.md tried, up to 2 together before the search's budget ran out\); that leaves a control key other than the one given, a formula value other than the one sent .*, or a formula payconform does not know; the key tried is merchant payconform-test-merchant's from the merchants file, for endpoint 1001$/,
    );
    assert.doesNotMatch(check.message!, /the key may be the wrong one/);
  });

  it('a status request between two sends of a client order id clears the blind-retry check, not the uniqueness one', () => {
    const inspector = new Inspector({ merchants: [merchant] });
    judge(inspector, request('SALE', [['client_orderid', 'R-1']]));
    judge(
      inspector,
      request('STATUS', [
        ['client_orderid', 'R-1'],
        ['orderid', '123'],
      ]),
    );
    assert.deepEqual(failed(judge(inspector, request('SALE', [['client_orderid', 'R-1']]))), ['order-id-unique']);
  });
});
