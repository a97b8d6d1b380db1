/**
 * vectors/diagnoses.json: for every diagnosis id, a verification vector holding the value a partner
 * with that mistake sends, and the verdict and defect `diagnose` must reach. Requests are built so
 * that every mistake changes the result (reserved characters, a space, ö, repeated names, an empty
 * value, a query, an uppercase host with :443, a realm, a key that needs encoding, amount 0.29).
 */
import { packageFile } from '../package-root.ts';
import { present } from '../present.ts';
import { readFileSync } from 'node:fs';
import { OP, type Operation } from '../catalogue/index.ts';
import {
  callbackControlWithMistake,
  controlWithMistake,
  MISTAKES,
  oauthHeaderWithMistake,
  WRONG_SIGNATURE_METHOD,
} from '../signing/diagnose/index.ts';
import { callbackControl } from '../signing/callback.ts';
import type { Pair } from '../signing/form-body.ts';
import type { RequestInput } from '../signing/request.ts';
import { signRequest } from '../signing/sign.ts';
import { TEST_LOGIN } from './generate.ts';
import { VECTOR_FORMAT, type Vector, type VectorFile } from './types.ts';

const KEY = 'TEST-ONLY key&1/b'; // reserved characters, so "key not encoded" makes a difference
const PEM = readFileSync(packageFile('vectors/keys/test-only-merchant-rsa-2048.pem'), 'utf8');
const HOST = 'https://Sandbox.Gateway.EXAMPLE:443/paynet';
const OAUTH_BODY: Pair[] = [
  ['order_desc', "Jörg's order (2*3)! now"],
  ['amount', '10.00'],
  ['item', 'b'],
  ['item', 'a'],
  ['Zeta', '1'],
  ['note', ''],
];
const OAUTH = { nonce: 'n0nce-7f3a', timestamp: '1700000000', realm: 'payconform' };

/** The value a mistake gives: every id here is one of MISTAKES, so a missing one is a bug of this file. */
const appliedMistake = (id: string, value: string | undefined): string => present(value, `the value of mistake ${id}`);

function oauthVector(
  id: string,
  defect: string | null,
  path: string,
  method: 'HMAC-SHA1' | 'RSA-SHA256',
  scheme: Vector['scheme'],
  variant = 0,
): Vector {
  const request = { method: 'POST', url: `${HOST}${path}?ref=a%3Ab`, params: OAUTH_BODY };
  const credentials = { login: TEST_LOGIN, merchantControlKey: KEY, privateKeyPem: PEM };
  // Signing with the other method is the reference recipe under the wrong method.
  const recipe = defect === null || defect === WRONG_SIGNATURE_METHOD.id ? 'none' : defect;
  const input = { request, credentials: { login: TEST_LOGIN, controlKey: KEY, privateKeyPem: PEM }, method, ...OAUTH };
  const header = appliedMistake(recipe, oauthHeaderWithMistake(recipe, input, variant));
  const creds = scheme === 'oauth-rsa-sha256' ? credentials : { login: TEST_LOGIN, merchantControlKey: KEY };
  return {
    id,
    description: `${method} signed with the mistake: ${defect ?? 'none'}`,
    scheme,
    request,
    credentials: creds,
    given: { authorization: header },
    expected: { verdict: defect === null ? 'valid' : 'invalid', defect },
  };
}

interface ControlCase {
  operation: Operation;
  path: string;
  params: Pair[];
}
const SALE: ControlCase = {
  operation: OP.SALE,
  path: '/api/v2/sale/1001',
  params: [
    ['client_orderid', 'ORD-1'],
    ['amount', '0.29'],
    ['email', 'jane@example.com'],
  ],
};
const TDS: ControlCase = {
  operation: OP.TDS_UPLOAD_CRES_RESULT,
  path: '/api/3ds/v1/upload-cres-result/1001',
  params: [
    ['client_orderid', 'ORD-1'],
    ['orderid', '555'],
  ],
};

function controlVector(id: string, defect: string | null, c: ControlCase): Vector {
  const request = { method: 'POST', url: `https://sandbox.gateway.example/paynet${c.path}`, params: c.params };
  const given =
    defect === null
      ? signedControl(request)
      : appliedMistake(
          defect,
          controlWithMistake(defect, c.operation, '1001', request, { login: TEST_LOGIN, controlKey: KEY }),
        );
  return {
    id,
    description: `${c.operation} control with the mistake: ${defect ?? 'none'}`,
    scheme: 'control',
    operation: c.operation,
    request,
    credentials: { login: TEST_LOGIN, merchantControlKey: KEY },
    given: { control: given },
    expected: { verdict: defect === null ? 'valid' : 'invalid', defect },
  };
}

/** The reference signer's control for a request on a control endpoint. */
function signedControl(request: RequestInput): string {
  const signed = signRequest(request, { login: TEST_LOGIN, controlKey: KEY });
  if (signed.scheme !== 'control') throw new Error(`${request.url} is no control endpoint`);
  return signed.control.control;
}

/**
 * A sale of another amount: 19.99 truncates to 1998; 10.00 is exact in binary too, so truncating changes nothing; 0.05
 * splits to "05".
 */
const saleOf = (amount: string): ControlCase => ({
  ...SALE,
  params: SALE.params.map(([n, v]): Pair => [n, n === 'amount' ? amount : v]),
});

/**
 * Control mistakes the sale of 0.29 gives no room: the spelling needs a formula with client-order-id, the leading zero
 * an amount under 0.10, a field added one the formula does not name.
 */
const OWN_CASE: Readonly<Record<string, ControlCase>> = {
  'client-order-id-spelling': TDS,
  'added-fields': { ...SALE, params: [...SALE.params, ['currency', 'USD']] },
  'cents-leading-zero': saleOf('0.05'),
  'amount-value-wrong': saleOf('1000'),
};

/** A callback to the merchant (docs/callbacks.md): its amount is not in the formula. */
const CALLBACK: Pair[] = [
  ['orderid', '100000123'],
  ['merchant_order', 'ORD-1'],
  ['client_orderid', 'ORD-1'],
  ['amount', '10.29'],
  ['status', 'approved'],
  ['type', 'sale'],
];

function callbackVector(id: string, defect: string | null): Vector {
  const given =
    defect === null
      ? callbackControl(CALLBACK, KEY).control
      : appliedMistake(defect, callbackControlWithMistake(defect, CALLBACK, KEY));
  return {
    id,
    description: `merchant callback control with the mistake: ${defect ?? 'none'}`,
    scheme: 'control',
    message: 'callback',
    request: { method: 'POST', url: 'https://merchant.example/payment/callback', params: CALLBACK },
    credentials: { merchantControlKey: KEY },
    given: { control: given },
    expected: { verdict: defect === null ? 'valid' : 'invalid', defect },
  };
}

/**
 * The callback mistakes handlers and their tests make (issue: fields out of order, the amount added, uppercase hex).
 */
const CALLBACK_MISTAKES = ['fields-wrong-order', 'amount-in-formula', 'uppercase-hex', 'missing-field', 'key-not-last'];

// Every mistake has a recipe, and each control mistake a candidate for these requests: an undefined
// value above would leave `given` empty, which the format's schema rejects (`vectors check`, and the
// test that regenerates vectors/diagnoses.json).
export function diagnosisVectors(): VectorFile {
  const vectors: Vector[] = [
    oauthVector('hmac-valid', null, '/api/v2/payout/1001', 'HMAC-SHA1', 'oauth-hmac-sha1'),
    oauthVector('rsa-valid', null, '/api/v4/payout/1001', 'RSA-SHA256', 'oauth-rsa-sha256'),
  ];
  for (const m of MISTAKES) {
    if (m.id === WRONG_SIGNATURE_METHOD.id) {
      vectors.push(oauthVector(`${m.id}-hmac-on-v4`, m.id, '/api/v4/payout/1001', 'HMAC-SHA1', 'oauth-rsa-sha256'));
    } else if (m.scheme === 'oauth') {
      const rsa = m.id === 'rsa-sha1-instead-of-sha256';
      vectors.push(
        oauthVector(
          m.id,
          m.id,
          rsa ? '/api/v4/payout/1001' : '/api/v2/payout/1001',
          rsa ? 'RSA-SHA256' : 'HMAC-SHA1',
          rsa ? 'oauth-rsa-sha256' : 'oauth-hmac-sha1',
        ),
      );
    } else if (m.id === 'amount-in-formula') {
      // Every request formula of the API that signs an amount has it: the callback's has none.
      vectors.push(callbackVector(m.id, m.id));
    } else {
      vectors.push(controlVector(m.id, m.id, OWN_CASE[m.id] ?? SALE));
    }
  }
  vectors.push(
    callbackVector('callback-valid', null),
    ...CALLBACK_MISTAKES.filter((id) => id !== 'amount-in-formula').map((id) => callbackVector(`callback-${id}`, id)),
  );
  // Where truncating gives the exact cents, the correct control must stay valid and name no mistake.
  vectors.push(
    controlVector('truncated-cents-1999', 'truncated-cents', saleOf('19.99')),
    controlVector('control-valid-whole-amount', null, saleOf('10.00')),
  );
  vectors.push(
    oauthVector(
      'repeated-params-collapsed-keep-last',
      'repeated-params-collapsed',
      '/api/v2/payout/1001',
      'HMAC-SHA1',
      'oauth-hmac-sha1',
      1,
    ),
  );
  return {
    format: VECTOR_FORMAT,
    description:
      'One or more verification vectors per diagnosis id (docs/diagnoses.md), made with TEST-ONLY ' +
      'credentials by src/vectors/diagnosis-vectors.ts.',
    vectors,
  };
}
