// Known answers computed outside the code: each expected digest is `printf '%s' '<concatenation>' | sha1sum`
// of the concatenation written by hand in the comment above it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { signRequest } from '../../src/signing/sign.ts';
import { verifyRequest } from '../../src/rules/verify.ts';
import type { Pair } from '../../src/signing/form-body.ts';
import { readFileSync } from 'node:fs';
import { endpointByOperation, ENDPOINTS } from '../../src/catalogue/index.ts';
import { createHash, hash } from 'node:crypto';
import { computeControl, formulaText, sha1HexWith } from '../../src/signing/control.ts';

const key = 'TESTKEY-123';
const login = 'merchant-test';
const base = 'https://sandbox.gateway.example/paynet';

function control(path: string, params: Pair[]): { controlInput: string; control: string } {
  const result = signRequest({ url: `${base}${path}`, params }, { login, controlKey: key });
  assert.equal(result.scheme, 'control');
  return result.scheme === 'control' ? result.control : assert.fail();
}

describe('control = SHA-1 of the formula, key last (spec Scheme A)', () => {
  it("hashes UTF-8 text in lowercase hex, with node's one-shot hash and without it (Node before 20.12)", () => {
    for (const sha1Hex of [sha1HexWith(hash), sha1HexWith(undefined)]) {
      assert.equal(sha1Hex('abc'), 'a9993e364706816aba3e25717850c26c9cd0d89d'); // FIPS 180-2, example 1
      assert.equal(sha1Hex('\u00e9'), 'bf15be717ac1b080b4f1c456692825891ff5073d'); // printf '\xc3\xa9' | sha1sum
    }
  });

  it('hands the text to the one-shot hash where node has one, asking for SHA-1 in hex', () => {
    const oneShot = ((algorithm: string, text: string, encoding: string) =>
      `${algorithm}(${text}) as ${encoding}`) as typeof hash;
    assert.equal(sha1HexWith(oneShot)('abc'), 'sha1(abc) as hex');
  });

  it('endpointId + client_orderid + email (account-verification)', () => {
    // printf '%s' '9876A-7jane@example.comTESTKEY-123' | sha1sum
    const r = control('/api/v2/account-verification/9876', [
      ['client_orderid', 'A-7'],
      ['email', 'jane@example.com'],
    ]);
    assert.equal(r.controlInput, '9876A-7jane@example.com<merchant_control_key>');
    assert.equal(r.control, '129625a8774353f7232007795e8eca3cd66ac351');
  });

  it('endpointId + client_orderid + amount in cents + email (sale), whatever the parameter order', () => {
    // printf '%s' '9876A-712345jane@example.comTESTKEY-123' | sha1sum
    const r = control('/api/v2/sale/9876', [
      ['email', 'jane@example.com'],
      ['amount', '123.45'],
      ['currency', 'EUR'],
      ['client_orderid', 'A-7'],
    ]);
    assert.equal(r.control, '7bdd7979a5aed21b747e2c3084cb874ef842ed5d');
  });

  it('login + client_orderid + orderid (status)', () => {
    // printf '%s' 'merchant-testA-7PNX-55TESTKEY-123' | sha1sum
    const r = control('/api/v2/status/9876', [
      ['client_orderid', 'A-7'],
      ['orderid', 'PNX-55'],
    ]);
    assert.equal(r.control, '6809ededeeb6c9e34191cc8eabe2f242be4f648f');
  });

  it('login + client_orderid + orderid + amount in cents + currency (capture)', () => {
    // printf '%s' 'merchant-testA-7PNX-5512345EURTESTKEY-123' | sha1sum
    const r = control('/api/v2/capture/9876', [
      ['client_orderid', 'A-7'],
      ['orderid', 'PNX-55'],
      ['amount', '123.45'],
      ['currency', 'EUR'],
    ]);
    assert.equal(r.control, 'dbc8f6b925e8100a9ee5fe00bec62c1ba2444898');
  });

  it('login + client_orderid + cardrefid + amount in cents + currency (make-rebill)', () => {
    // printf '%s' 'merchant-testR-9CARD-1100EURTESTKEY-123' | sha1sum
    const r = control('/api/v2/make-rebill/9876', [
      ['client_orderid', 'R-9'],
      ['cardrefid', 'CARD-1'],
      ['amount', '1.00'],
      ['currency', 'EUR'],
    ]);
    assert.equal(r.control, 'cbb609dcd9d082c427f8a090de540b5b08729ff5');
  });

  it('login + client-order-id + orderid (3-D Secure upload, hyphenated field)', () => {
    // printf '%s' 'merchant-test3DS-1PNX-9TESTKEY-123' | sha1sum
    const r = control('/api/3ds/v1/upload-cres-result/9876', [
      ['client-order-id', '3DS-1'],
      ['orderid', 'PNX-9'],
    ]);
    assert.equal(r.control, '9fef9570a1f8f138a9de6009c3a68fdf206a5a81');
    assert.throws(
      () =>
        control('/api/3ds/v1/upload-cres-result/9876', [
          ['client_orderid', '3DS-1'],
          ['orderid', 'PNX-9'],
        ]),
      { code: 'ERR_MISSING_FIELD', field: 'client-order-id' },
    );
  });

  it('names a missing formula field, and a repeated one', () => {
    assert.throws(
      () =>
        control('/api/v2/sale/9876', [
          ['client_orderid', 'A-7'],
          ['email', 'e'],
        ]),
      (err: Error & { code: string; field: string }) =>
        err.code === 'ERR_MISSING_FIELD' &&
        err.field === 'amount' &&
        /^amount: is missing; the SALE control formula is SHA-1\(endpointId/.test(err.message),
    );
    assert.throws(
      () =>
        control('/api/v2/status/1', [
          ['client_orderid', 'A'],
          ['client_orderid', 'B'],
          ['orderid', 'O'],
        ]),
      { code: 'ERR_MISSING_FIELD', field: 'client_orderid' },
    );
    assert.throws(
      () =>
        signRequest(
          {
            url: `${base}/api/v2/status/1`,
            params: [
              ['client_orderid', 'A'],
              ['orderid', 'O'],
            ],
          },
          { controlKey: key },
        ),
      { code: 'ERR_MISSING_FIELD', field: 'login' },
    );
    assert.throws(
      () =>
        signRequest(
          {
            url: `${base}/api/v2/status/1`,
            params: [
              ['client_orderid', 'A'],
              ['orderid', 'O'],
            ],
          },
          { login },
        ),
      { code: 'ERR_CREDENTIALS', field: 'control key' },
    );
  });

  it('verifies the right value and rejects a changed field, an uppercase digest and a wrong key', () => {
    const url = `${base}/api/v2/sale/9876`;
    const params: Pair[] = [
      ['client_orderid', 'A-7'],
      ['amount', '123.45'],
      ['email', 'jane@example.com'],
    ];
    const good = '7bdd7979a5aed21b747e2c3084cb874ef842ed5d';
    assert.equal(verifyRequest({ url, params }, { controlKey: key }, { control: good }).reason, 'valid');
    assert.equal(
      verifyRequest({ url, params: [...params, ['control', good]] }, { controlKey: key }, {}).reason,
      'valid',
    );
    assert.equal(
      verifyRequest(
        {
          url,
          params: [
            ['client_orderid', 'A-7'],
            ['amount', '123.46'],
            ['email', 'jane@example.com'],
          ],
        },
        { controlKey: key },
        { control: good },
      ).reason,
      'mismatch',
    );
    assert.equal(
      verifyRequest({ url, params }, { controlKey: key }, { control: good.toUpperCase() }).reason,
      'malformed',
    );
    assert.equal(verifyRequest({ url, params }, { controlKey: 'TESTKEY-124' }, { control: good }).reason, 'mismatch');
    assert.equal(verifyRequest({ url, params }, { controlKey: key }, {}).reason, 'missing');
  });
});

describe('formulaText writes the formula as api-spec.md states it', () => {
  // Rows of the spec's endpoint table: | /api/.../{endpointId} | OPERATION | ... | control = SHA-1(...)[, amount in cents] |
  const spec = readFileSync(new URL('../../docs/spec/api-spec.md', import.meta.url), 'utf8'); // the repository's copy of the spec
  const rows = [...spec.matchAll(/^\| (\/api\/\S+\/\{endpointId\}) \|[^\n]*\| control = ([^|\n]+?) \|$/gm)];

  it('for every control endpoint of the spec table', () => {
    assert.ok(rows.length >= 10, `found ${rows.length} control rows`);
    assert.ok(rows.some((r) => r[2]!.endsWith('in cents')) && rows.some((r) => !r[2]!.endsWith('in cents')));
    for (const [, path, formula] of rows) {
      const endpoint = ENDPOINTS.find((e) => e.path === path);
      assert.ok(endpoint !== undefined && endpoint.auth.kind === 'control', path);
      if (endpoint.auth.kind === 'control') assert.equal(formulaText(endpoint.auth.fields), formula, path);
    }
  });

  it('lists every cents field, comma-separated', () => {
    const formula = [
      { name: 'amount', from: 'params', cents: true },
      { name: 'fee', from: 'params', cents: true },
      { name: 'currency', from: 'params', cents: false },
    ] as const;
    assert.equal(formulaText(formula), 'SHA-1(amount + fee + currency + merchant_control_key), amount, fee in cents');
  });
});

describe('control field errors name the field and the formula', () => {
  it('a repeated field: how many times, and that it must appear once', () => {
    assert.throws(
      () =>
        control('/api/v2/status/1', [
          ['client_orderid', 'A'],
          ['client_orderid', 'B'],
          ['orderid', 'O'],
        ]),
      (err: Error & { code: string; field: string }) => {
        assert.equal(err.code, 'ERR_MISSING_FIELD');
        assert.match(err.message, /^client_orderid: appears 2 times;/);
        assert.match(
          err.message,
          /STATUS control formula is SHA-1\(login \+ client_orderid \+ orderid \+ merchant_control_key\)/,
        );
        assert.match(err.message, /must appear once/);
        return true;
      },
    );
  });

  it('signs a status by client_orderid alone without orderid, as the status page allows (A-61)', () => {
    // printf '%s' 'merchant-testA-7TESTKEY-123' | sha1sum; with orderid=100: 'merchant-testA-7100TESTKEY-123'
    assert.equal(
      control('/api/v2/status/1', [['client_orderid', 'A-7']]).control,
      '80116d2525b06432c7e8af97e086d4259f2cd5b8',
    );
    assert.equal(
      control('/api/v2/status/1', [
        ['client_orderid', 'A-7'],
        ['orderid', '100'],
      ]).control,
      '7ee3cc6caf5faabbad11743f036529a3de4b087f',
    );
  });

  it('a missing login says how to give it; a missing form field does not', () => {
    const noLogin = () =>
      signRequest(
        {
          url: `${base}/api/v2/status/1`,
          params: [
            ['client_orderid', 'A'],
            ['orderid', 'O'],
          ],
        },
        { controlKey: key },
      );
    assert.throws(noLogin, (err: Error) =>
      /^login: is missing \(give --login or PAYCONFORM_LOGIN\); the STATUS control formula/.test(err.message),
    );
    assert.throws(
      () => control('/api/v2/capture/1', [['client_orderid', 'A']]),
      (err: Error) =>
        /^orderid: is missing; the CAPTURE control formula/.test(err.message) && !err.message.includes('--login'),
    );
  });
});

describe('computeControl with the amount already in cents', () => {
  it("uses the caller's cents instead of converting the amount again", () => {
    // SALE: endpointId + client_orderid + amount in cents + email + key; 999 is not 1.00 in cents, so a
    // digest over 999 shows the given cents were used.
    const fields = endpointByOperation('SALE').auth;
    assert.ok(fields.kind === 'control');
    const params: [string, string][] = [
      ['client_orderid', 'A'],
      ['amount', '1.00'],
      ['email', 'e@x.example'],
    ];
    const ctx = { operation: 'SALE', endpointId: '7', params, amountCents: '999' };
    assert.equal(
      computeControl(fields.fields, ctx, 'K').control,
      createHash('sha1').update('7A999e@x.exampleK').digest('hex'),
    );
  });

  it("converts any other cents field itself: the caller's cents are the amount's alone", () => {
    const formula = [
      { name: 'fee', from: 'params', cents: true },
      { name: 'amount', from: 'params', cents: true },
    ] as const;
    const params: [string, string][] = [
      ['fee', '0.50'],
      ['amount', '1.00'],
    ];
    assert.deepEqual(computeControl(formula, { operation: 'X', endpointId: '', params, amountCents: '999' }, 'K'), {
      fields: [
        { name: 'fee', from: 'params', raw: '0.50', value: '50', cents: true },
        { name: 'amount', from: 'params', raw: '1.00', value: '999', cents: true },
      ],
      controlInput: '50999<merchant_control_key>',
      control: createHash('sha1').update('50999K').digest('hex'),
    });
  });
});

// The return page: "4. Request parameter: amount (in minor units, if sent). 5. Request parameter: currency (if sent)."
// https://doc2.payneteasy.com/integration/API_commands/api_v2_return.html. Known answers by hand (node's SHA-1 of
// the concatenation written out), not the signer's.
describe('return: amount and currency enter the control only when sent', () => {
  const path = '/api/v2/return/1001';
  const order: Pair[] = [
    ['client_orderid', 'R-7'],
    ['orderid', '900100'],
  ];
  const byHand = (text: string): string => createHash('sha1').update(text).digest('hex');

  it('signs login + client_orderid + orderid + key without them', () => {
    assert.equal(control(path, order).control, byHand(`${login}R-7900100${key}`));
    assert.equal(
      control(path, [...order, ['amount', ''], ['currency', '']]).control,
      byHand(`${login}R-7900100${key}`),
    );
  });

  it("signs the spec's full formula when both are sent, amount in cents", () => {
    const both = control(path, [...order, ['amount', '10.50'], ['currency', 'EUR']]).control;
    assert.equal(both, byHand(`${login}R-79001001050EUR${key}`));
  });

  it('still needs a formula field that is not optional: capture without amount is refused', () => {
    assert.throws(() => control('/api/v2/capture/1001', order), /amount: is missing/);
  });
});
