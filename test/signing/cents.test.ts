import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { toCents } from '../../src/signing/cents.ts';

describe('amount in cents (spec Scheme A rule 3)', () => {
  const cases: Array<[string | number, string]> = [
    ['10.00', '1000'],
    ['10', '1000'],
    ['10.5', '1050'],
    ['0.01', '1'],
    ['0.5', '50'],
    ['0', '0'],
    ['.5', '50'],
    ['0.29', '29'],
    ['007.10', '710'],
    // 15 integer digits: beyond float precision once multiplied by 100 (9.99e16 > 2^53).
    ['999999999999999.99', '99999999999999999'],
    ['123456789012345.67', '12345678901234567'],
    // The largest amount of plain integer arithmetic (13 integer digits), and one digit more (2^53 < 10^16).
    ['9999999999999.99', '999999999999999'],
    ['99999999999999.99', '9999999999999999'],
    ['00000000000000000001.00', '100'],
    [10, '1000'],
    [10.5, '1050'],
    [0.29, '29'],
    [1.1, '110'],
    [0, '0'],
  ];
  for (const [input, cents] of cases) {
    it(`${JSON.stringify(input)} → ${cents}`, () => assert.equal(toCents(input), cents));
  }

  it('differs from the floating-point mistake (0.29 × 100 in JavaScript)', () => {
    assert.equal(String(0.29 * 100), '28.999999999999996');
    assert.notEqual(toCents('0.29'), String(0.29 * 100));
  });

  const rejected: Array<[string | number, RegExp]> = [
    ['1.234', /at most 2 decimals are allowed \(got 3\)/],
    ['', /must not be empty/],
    ['-1.00', /must not be negative/],
    ['+1.00', /leading "\+"/],
    ['1e3', /exponent notation/],
    ['1E-2', /exponent notation/],
    ['abc', /non-negative decimal/],
    ['NaN', /finite/],
    ['Infinity', /finite/],
    ['1,000.00', /thousands separators/],
    ['1 000', /thousands separators/],
    ["1'000", /thousands separators/],
    ['10.', /decimal point/],
    [' 10', /spaces/],
    ['.', /decimal point/],
    ['1.2.3', /non-negative decimal/],
    ['0x10', /non-negative decimal/],
    ['１０', /non-negative decimal/],
    [Number.NaN, /finite/],
    [Number.POSITIVE_INFINITY, /finite/],
    [-5, /negative/],
    [1e21, /exponent notation/],
    [1e-7, /exponent notation/],
    // -Infinity is not finite (before being negative); -0 is negative although it prints as "0".
    [Number.NEGATIVE_INFINITY, /finite/],
    [-0, /must not be negative/],
    // Only blanks: empty, not "spaces".
    ['   ', /must not be empty/],
    // Each rule matches the whole text: a word around NaN, an exponent or a separated number is just not a number.
    ['xInfinity', /non-negative decimal/],
    ['NaNx', /non-negative decimal/],
    ['a1e5', /non-negative decimal/],
    ['1e5x', /non-negative decimal/],
    ['x1,000', /non-negative decimal/],
    ['1,000x', /non-negative decimal/],
    ['12e3', /exponent notation/],
    ['12,345', /thousands separators/],
    ['1,000,000', /thousands separators/],
    ['12.345', /at most 2 decimals are allowed \(got 3\)/],
  ];
  for (const [input, message] of rejected) {
    it(`rejects ${JSON.stringify(String(input))} with a one-line reason naming the field`, () => {
      assert.throws(
        () => toCents(input),
        (err: Error & { code?: string; field?: string }) => {
          assert.equal(err.code, 'ERR_AMOUNT_FORMAT');
          assert.equal(err.field, 'amount');
          assert.match(err.message, /^amount: /);
          assert.match(err.message, message);
          assert.ok(!err.message.includes('\n'));
          return true;
        },
      );
    });
  }
});
