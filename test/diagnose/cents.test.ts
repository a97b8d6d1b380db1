// The cent mistakes real integrations make, and that naming them masks nothing. Every expected value
// is a concatenation written out by hand here and hashed with node:crypto, never the code's output.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { diagnose } from '../../src/rules/diagnose.ts';
import { controlWithMistake } from '../../src/signing/diagnose/index.ts';
import type { Pair } from '../../src/signing/form-body.ts';

const sha1 = (s: string): string => createHash('sha1').update(s, 'utf8').digest('hex');
// SALE: SHA-1(endpointId + client_orderid + amount in cents + email + key), api-spec.md Scheme A.
const KEY = 'TESTKEY-123';
const url = 'https://h.example/api/v2/sale/9876';
const sale = (amount: string): Pair[] => [
  ['client_orderid', 'A-7'],
  ['amount', amount],
  ['email', 'e@x'],
];
const credentials = { controlKey: KEY };
const check = (amount: string, control: string) =>
  diagnose({ request: { url, params: sale(amount) }, credentials, given: { control } });

describe('diagnose: truncated cents (PHP (int)($amount * 100), Java (long), JavaScript Math.floor)', () => {
  // amount, the cents a truncating integration signs (worked out by hand: amount × 100 as a binary
  // double lies just below the exact value), and the exact cents.
  const cases: Array<[string, string, string]> = [
    ['0.29', '28', '29'], // 0.29 × 100 = 28.999999999999996
    ['19.99', '1998', '1999'], // 1998.9999999999998
    ['1.15', '114', '115'], // 114.99999999999999
    ['4.35', '434', '435'], // 434.99999999999994
  ];

  for (const [amount, truncated, exact] of cases) {
    it(`names truncated-cents for ${amount} signed as ${truncated} cents, and only that`, () => {
      const d = check(amount, sha1(`9876A-7${truncated}e@x${KEY}`));
      assert.deepEqual([d.verdict, d.defects], ['invalid', ['truncated-cents']]);
      assert.equal(d.partner?.controlInput, `9876A-7${truncated}e@x<merchant_control_key>`);
      assert.equal(d.correct.controlInput, `9876A-7${exact}e@x<merchant_control_key>`);
    });
  }

  it('makes the same value on purpose as the hand-written concatenation', () => {
    assert.equal(
      controlWithMistake('truncated-cents', 'SALE', '9876', { url, params: sale('0.29') }, credentials),
      sha1(`9876A-728e@x${KEY}`),
    );
  });

  it('masks no correct control: where truncating gives the exact cents (10.00, 0.50) the control is valid and no mistake applies', () => {
    for (const [amount, cents] of [
      ['10.00', '1000'],
      ['0.50', '50'],
      ['7', '700'],
    ]) {
      const d = check(amount!, sha1(`9876A-7${cents}e@x${KEY}`));
      assert.deepEqual([d.verdict, d.defects], ['valid', []], amount);
      assert.equal(
        controlWithMistake('truncated-cents', 'SALE', '9876', { url, params: sale(amount!) }, credentials),
        undefined,
        amount,
      );
    }
  });

  it('accepts the published example of a white-label copy of the API (10.42 → 1042), which no cent mistake changes', () => {
    // https://apidoc.instanttransfer.tech/doc-778348: "1111902B4FF51042john.smith@gmail.comB17F59B4-A7DC-41B4-8FF9-37D986B43D20"
    // gives c6bdd88a78834ef4b863b088827a459f039e8257 (10.42 × 100 is exactly 1042 as a double).
    const request = {
      url: 'https://h.example/paynet/api/v2/sale/1111',
      params: [
        ['client_orderid', '902B4FF5'],
        ['amount', '10.42'],
        ['email', 'john.smith@gmail.com'],
      ] as Pair[],
    };
    const published = { controlKey: 'B17F59B4-A7DC-41B4-8FF9-37D986B43D20' };
    assert.equal(
      diagnose({ request, credentials: published, given: { control: 'c6bdd88a78834ef4b863b088827a459f039e8257' } })
        .verdict,
      'valid',
    );
    for (const id of ['truncated-cents', 'cents-leading-zero'])
      assert.equal(controlWithMistake(id, 'SALE', '1111', request, published), undefined, id);
  });

  it('takes rounded cents (Math.round, toFixed(0), PHP round) as the exact ones: valid, no mistake', () => {
    // Math.round(0.29 * 100) and (0.29 * 100).toFixed(0) give 29, the exact cents.
    assert.equal(check('0.29', sha1(`9876A-729e@x${KEY}`)).verdict, 'valid');
    assert.equal(check('4.35', sha1(`9876A-7435e@x${KEY}`)).verdict, 'valid');
  });

  it('keeps float-cents and truncated-cents apart: "28.999999999999996" is float-cents only', () => {
    assert.deepEqual(check('0.29', sha1(`9876A-728.999999999999996e@x${KEY}`)).defects, ['float-cents']);
  });

  it('adds no cent mistake to a shipped vector of another mistake (vectors/diagnoses.json)', () => {
    const vectors = JSON.parse(readFileSync(new URL('../../vectors/diagnoses.json', import.meta.url), 'utf8'))
      .vectors as Array<{
      id: string;
      operation?: string;
      message?: string;
      request: { url: string; params: Pair[] };
      credentials: { login?: string; merchantControlKey: string };
      given: { control?: string };
      expected: { defect: string | null };
    }>;
    for (const v of vectors.filter((x) => x.given.control !== undefined)) {
      const d = diagnose({
        request: v.request,
        credentials: { login: v.credentials.login, controlKey: v.credentials.merchantControlKey },
        given: v.given,
        ...(v.operation === undefined ? {} : { operation: v.operation }),
        callback: v.message === 'callback',
      });
      for (const id of ['truncated-cents', 'cents-leading-zero'])
        if (v.expected.defect !== id) assert.ok(!d.defects.includes(id), `${v.id}: ${id}`);
    }
  });
});

describe('diagnose: cents with a leading zero (the early PHP library split the amount at the dot)', () => {
  it('names cents-leading-zero for 0.05 signed as "05", and 0.00 as "00"', () => {
    for (const [amount, written, exact] of [
      ['0.05', '05', '5'],
      ['0.07', '07', '7'],
      ['0.00', '00', '0'],
    ]) {
      const d = check(amount!, sha1(`9876A-7${written}e@x${KEY}`));
      assert.deepEqual([d.verdict, d.defects], ['invalid', ['cents-leading-zero']], amount);
      assert.equal(d.correct.controlInput, `9876A-7${exact}e@x<merchant_control_key>`);
    }
    assert.equal(
      controlWithMistake('cents-leading-zero', 'SALE', '9876', { url, params: sale('0.05') }, credentials),
      sha1(`9876A-705e@x${KEY}`),
    );
  });

  it('has no room where splitting gives the exact cents (0.29, 10.05, 10.5, 7): the correct control stays valid', () => {
    for (const [amount, cents] of [
      ['0.29', '29'],
      ['10.05', '1005'],
      ['10.5', '1050'],
      ['7', '700'],
    ]) {
      assert.deepEqual(check(amount!, sha1(`9876A-7${cents}e@x${KEY}`)).defects, [], amount);
      assert.equal(
        controlWithMistake('cents-leading-zero', 'SALE', '9876', { url, params: sale(amount!) }, credentials),
        undefined,
        amount,
      );
    }
  });

  it('leaves an amount that is no decimal ("10,00") to decimal-amount: no cent mistake guesses its cents', () => {
    for (const id of ['truncated-cents', 'cents-leading-zero']) {
      assert.equal(controlWithMistake(id, 'SALE', '9876', { url, params: sale('10,00') }, credentials), undefined, id);
    }
  });
});
