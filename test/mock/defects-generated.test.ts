// The defects only certify's generated checks catch (docs/prove.md) are active: for each, a request the correct
// mock answers one way and the broken mock the other. Controls and signatures are made here by hand with
// node:crypto (the right OAuth base string comes from the reference signer, and each near-miss is cut from it).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac, createPrivateKey, randomUUID, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { endpointByOperation } from '../../src/catalogue/index.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';
import { startMock, type Defect, type RunningMock } from '../../src/mock/index.ts';
import { sampleRequest } from '../../src/schemas/index.ts';
import { buildAuthorizationHeader } from '../../src/signing/authorization-header.ts';
import { encodeForm, type Pair } from '../../src/signing/form-body.ts';
import { signOAuth } from '../../src/signing/oauth.ts';

const merchant = testMerchant();
const KEY = merchant.merchantControlKey;
const PRIVATE_KEY = readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8');
const ENDPOINT_ID = '1001';
const FORM = 'application/x-www-form-urlencoded';

const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');
const sample = (operation: string, ...overrides: Pair[]): Pair[] =>
  sampleRequest(endpointByOperation(operation), overrides);
const without = (pairs: Pair[], name: string): Pair[] => pairs.filter(([n]) => n !== name);

interface Sent {
  readonly status: number;
  readonly code: string | undefined;
}

/** POSTs a body to a mock and reads its answer's status and error code. */
async function postBody(
  mock: RunningMock,
  path: string,
  body: string,
  type: string,
  headers: Record<string, string> = {},
): Promise<Sent> {
  const res = await request(`${mock.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': type, accept: 'application/vnd.pay+json', ...headers },
    body,
  });
  const answer = (await res.body.json()) as { 'error-code'?: string };
  return { status: res.statusCode, code: answer['error-code'] };
}

/** POSTs a form. */
const post = (mock: RunningMock, path: string, params: readonly Pair[], headers: Record<string, string> = {}) =>
  postBody(mock, path, encodeForm(params), FORM, headers);

const ACCEPTED: Sent = { status: 200, code: undefined };
const refused = (status: number, code: string): Sent => ({ status, code });

/** The SALE or PREAUTH control by hand: SHA-1(endpointId + client_orderid + amount + email + key). */
const amountControl = (params: Pair[], amount: string): string => {
  const field = (name: string) => params.find(([n]) => n === name)?.[1] ?? '';
  return sha1(`${ENDPOINT_ID}${field('client_orderid')}${amount}${field('email')}${KEY}`);
};

type Scheme = 'HMAC-SHA1' | 'RSA-SHA256';

/** The right OAuth signature's base string (the reference signer) and its protocol parameters, for `url`. */
function signedFor(url: string, params: readonly Pair[], scheme: Scheme) {
  const protocol = {
    consumerKey: merchant.login,
    nonce: randomUUID(),
    timestamp: String(Math.floor(Date.now() / 1000)),
  };
  const key =
    scheme === 'HMAC-SHA1'
      ? ({ method: scheme, consumerSecret: KEY } as const)
      : ({ method: scheme, privateKey: createPrivateKey(PRIVATE_KEY) } as const);
  // The reference signer's base string only; the signature over it (or over a near-miss of it) is made below.
  return signOAuth({ method: 'POST', url, params }, { ...protocol, version: '1.0' }, key, undefined, () => '');
}

/** An Authorization header signing `base` by hand: HMAC-SHA1 with key "control key&", or RSA-SHA256. */
function authorization(protocol: readonly Pair[], base: string, scheme: Scheme): string {
  const signature =
    scheme === 'HMAC-SHA1'
      ? createHmac('sha1', `${KEY}&`).update(base).digest('base64')
      : sign('sha256', Buffer.from(base), PRIVATE_KEY).toString('base64');
  return buildAuthorizationHeader([...protocol, ['oauth_signature', signature]]);
}

/** Sends an OAuth request to `path` on `mock`, signed over `signedUrl` (the addressed URL by default), near-missed. */
async function sendOAuth(
  mock: RunningMock,
  path: string,
  params: readonly Pair[],
  scheme: Scheme,
  nearMiss: (base: string) => string = (base) => base,
  signedUrl = `${mock.url}${path}`,
): Promise<Sent> {
  const { baseString, protocol } = signedFor(signedUrl, params, scheme);
  return post(mock, path, params, { authorization: authorization(protocol, nearMiss(baseString), scheme) });
}

const PAYOUT = `/api/v2/payout/${ENDPOINT_ID}`;
const PAYOUT_V4 = `/api/v4/payout/${ENDPOINT_ID}`;
const SALE = `/api/v2/sale/${ENDPOINT_ID}`;
const PREAUTH = `/api/v2/preauth/${ENDPOINT_ID}`;
const FORBIDDEN_SIGNATURE = refused(403, 'SIGNATURE_INVALID');

let correct: RunningMock;
const broken = new Map<Defect, RunningMock>();
const mockWith = (defect: Defect): RunningMock => {
  const mock = broken.get(defect);
  assert.ok(mock, defect);
  return mock;
};

const DEFECTS_PROBED: Defect[] = [
  'truncated-float-cents',
  'decimal-amount-elsewhere',
  'control-prefix-compare',
  'encodeuricomponent-unfixed',
  'accept-lowercase-escapes',
  'query-not-signed',
  'url-scheme-not-signed',
  'method-not-signed',
  'accept-oauth-on-control',
  'multipart-as-form',
];

before(async () => {
  correct = await startMock({});
  for (const defect of DEFECTS_PROBED) broken.set(defect, await startMock({ defect }));
});
after(async () => {
  await correct.close();
  for (const mock of broken.values()) await mock.close();
});

/** What the correct mock and the broken one answer to the same request. */
async function both(defect: Defect, send: (mock: RunningMock) => Promise<Sent>): Promise<[Sent, Sent]> {
  return [await send(correct), await send(mockWith(defect))];
}

describe('defects the generated checks catch', () => {
  it('truncated-float-cents: 8.20 signed as 820 cents is refused, as 819 accepted', async () => {
    const params = sample('SALE', ['amount', '8.20']);
    const withControl = (control: string) => [...params, ['control', control] as Pair];
    assert.deepEqual(
      await both('truncated-float-cents', (m) => post(m, SALE, withControl(amountControl(params, '820')))),
      [ACCEPTED, refused(400, 'CONTROL_INVALID')],
    );
    assert.deepEqual(
      await both('truncated-float-cents', (m) => post(m, SALE, withControl(amountControl(params, '819')))),
      [refused(400, 'CONTROL_INVALID'), ACCEPTED],
    );
    // 10.00 survives the float: both accept it.
    const ten = sample('SALE');
    assert.deepEqual(
      await both('truncated-float-cents', (m) => post(m, SALE, [...ten, ['control', amountControl(ten, '1000')]])),
      [ACCEPTED, ACCEPTED],
    );
  });

  it('decimal-amount-elsewhere: a PREAUTH control over "8.20" passes, a SALE one does not', async () => {
    for (const [path, operation, expected] of [
      [PREAUTH, 'PREAUTH', ACCEPTED],
      [SALE, 'SALE', refused(400, 'CONTROL_INVALID')],
    ] as const) {
      const params = sample(operation, ['amount', '8.20']);
      const decimal: Pair[] = [...params, ['control', amountControl(params, '8.20')]];
      assert.deepEqual(await both('decimal-amount-elsewhere', (m) => post(m, path, decimal)), [
        refused(400, 'CONTROL_INVALID'),
        expected,
      ]);
    }
  });

  it('control-prefix-compare: a start of 8 or more right hex digits passes, a wrong one or 7 digits do not', async () => {
    const params = sample('SALE');
    const right = amountControl(params, '1000');
    const withControl = (control: string): Pair[] => [...params, ['control', control]];
    for (const length of [8, 12, 39])
      assert.deepEqual(
        await both('control-prefix-compare', (m) => post(m, SALE, withControl(right.slice(0, length)))),
        [refused(400, 'CONTROL_MALFORMED'), ACCEPTED],
      );
    const wrong = `${right.slice(0, 11)}${right[11] === '0' ? '1' : '0'}`;
    assert.deepEqual(await both('control-prefix-compare', (m) => post(m, SALE, withControl(wrong))), [
      refused(400, 'CONTROL_MALFORMED'),
      refused(400, 'CONTROL_INVALID'),
    ]);
    assert.deepEqual(await both('control-prefix-compare', (m) => post(m, SALE, withControl(right.slice(0, 7)))), [
      refused(400, 'CONTROL_MALFORMED'),
      refused(400, 'CONTROL_MALFORMED'),
    ]);
    // A formula field missing is still that field's refusal (a first version answered 500 here).
    const noEmail: Pair[] = [...without(params, 'email'), ['control', right.slice(0, 12)]];
    assert.deepEqual(await both('control-prefix-compare', (m) => post(m, SALE, noEmail)), [
      refused(400, 'CONTROL_MALFORMED'),
      refused(400, 'FIELD_MISSING'),
    ]);
  });

  it("encodeuricomponent-unfixed: a right signature over a name holding !'()* is refused, both schemes", async () => {
    for (const [path, operation, scheme] of [
      [PAYOUT, 'PAYOUT', 'HMAC-SHA1'],
      [PAYOUT_V4, 'PAYOUT_V4', 'RSA-SHA256'],
    ] as const) {
      const special = sample(operation, ['card_printed_name', "O'NEIL (JR)! *"]);
      assert.deepEqual(
        await both('encodeuricomponent-unfixed', (m) => sendOAuth(m, path, special, scheme)),
        [ACCEPTED, FORBIDDEN_SIGNATURE],
        scheme,
      );
      // Without them the two encoders agree.
      const plain = sample(operation, ['card_printed_name', 'JANE DOE']);
      assert.deepEqual(await both('encodeuricomponent-unfixed', (m) => sendOAuth(m, path, plain, scheme)), [
        ACCEPTED,
        ACCEPTED,
      ]);
    }
  });

  it('accept-lowercase-escapes: a signature over %2f-style escapes is accepted', async () => {
    const lower = (base: string) => base.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase());
    for (const [path, operation, scheme] of [
      [PAYOUT, 'PAYOUT', 'HMAC-SHA1'],
      [PAYOUT_V4, 'PAYOUT_V4', 'RSA-SHA256'],
    ] as const) {
      const params = sample(operation);
      assert.deepEqual(await both('accept-lowercase-escapes', (m) => sendOAuth(m, path, params, scheme, lower)), [
        FORBIDDEN_SIGNATURE,
        ACCEPTED,
      ]);
    }
  });

  it('query-not-signed: the query left out of the base string passes, the right one does not', async () => {
    const params = sample('PAYOUT');
    const query = `${PAYOUT}?lang=de`;
    assert.deepEqual(await both('query-not-signed', (m) => sendOAuth(m, query, params, 'HMAC-SHA1')), [
      ACCEPTED,
      FORBIDDEN_SIGNATURE,
    ]);
    const leftOut = (m: RunningMock) => sendOAuth(m, query, params, 'HMAC-SHA1', undefined, `${m.url}${PAYOUT}`);
    assert.deepEqual(await both('query-not-signed', leftOut), [FORBIDDEN_SIGNATURE, ACCEPTED]);
  });

  it('url-scheme-not-signed: a signature over https for the http mock is accepted', async () => {
    const params = sample('PAYOUT');
    const https = (m: RunningMock) =>
      sendOAuth(m, PAYOUT, params, 'HMAC-SHA1', undefined, `${m.url.replace(/^http:/, 'https:')}${PAYOUT}`);
    assert.deepEqual(await both('url-scheme-not-signed', https), [FORBIDDEN_SIGNATURE, ACCEPTED]);
  });

  it('method-not-signed: a signature whose base string starts GET& is accepted', async () => {
    const overGet = (base: string) => base.replace(/^POST&/, 'GET&');
    for (const [path, operation, scheme] of [
      [PAYOUT, 'PAYOUT', 'HMAC-SHA1'],
      [PAYOUT_V4, 'PAYOUT_V4', 'RSA-SHA256'],
    ] as const) {
      const params = sample(operation);
      assert.deepEqual(await both('method-not-signed', (m) => sendOAuth(m, path, params, scheme, overGet)), [
        FORBIDDEN_SIGNATURE,
        ACCEPTED,
      ]);
    }
  });

  it('accept-oauth-on-control: a SALE with an HMAC-SHA1 header and no control is accepted', async () => {
    const params = sample('SALE');
    assert.deepEqual(await both('accept-oauth-on-control', (m) => sendOAuth(m, SALE, params, 'HMAC-SHA1')), [
      refused(400, 'CONTROL_MISSING'),
      ACCEPTED,
    ]);
    // Signed with another key, it is still refused.
    const other = (base: string) => `${base}x`;
    assert.deepEqual(await both('accept-oauth-on-control', (m) => sendOAuth(m, SALE, params, 'HMAC-SHA1', other)), [
      refused(400, 'CONTROL_MISSING'),
      refused(400, 'CONTROL_MISSING'),
    ]);
  });

  it('multipart-as-form: a multipart/form-data body is read as the form, and served', async () => {
    const params = sample('SALE');
    const signed: Pair[] = [...params, ['control', amountControl(params, '1000')]];
    const parts = signed.map(([n, v]) => `--b0undary\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`);
    const multipart = (m: RunningMock) =>
      postBody(m, SALE, `${parts.join('')}--b0undary--\r\n`, 'multipart/form-data; boundary=b0undary');
    assert.deepEqual(await both('multipart-as-form', multipart), [refused(415, 'UNSUPPORTED_MEDIA_TYPE'), ACCEPTED]);
    // The same form under its own label, and under another wrong one.
    const form = encodeForm(signed);
    assert.deepEqual(await both('multipart-as-form', (m) => postBody(m, SALE, form, FORM)), [ACCEPTED, ACCEPTED]);
    assert.deepEqual(await both('multipart-as-form', (m) => postBody(m, SALE, form, 'application/json')), [
      refused(415, 'UNSUPPORTED_MEDIA_TYPE'),
      refused(415, 'UNSUPPORTED_MEDIA_TYPE'),
    ]);
  });
});
