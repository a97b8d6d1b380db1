/** Amounts in integer cents (api-spec.md Scheme A rule 3), against BigInt arithmetic digit by digit. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { PayconformError } from '../../src/errors.ts';
import { toCents } from '../../src/signing/index.ts';
import { digits } from '../arbitraries.ts';
import { centsOracle } from '../oracles.ts';
import { fcParams, seed } from '../seed.ts';

const isAmountFormatError = (err: unknown): boolean =>
  err instanceof PayconformError && err.code === 'ERR_AMOUNT_FORMAT';

describe(`amounts in cents (seed ${seed})`, () => {
  it('is exact against BigInt for 0-15 integer digits and 0-2 decimals', () => {
    fc.assert(
      fc.property(digits(0, 15), fc.option(digits(1, 2), { nil: undefined }), (whole, fraction) => {
        fc.pre(whole !== '' || fraction !== undefined);
        const text = fraction === undefined ? whole : `${whole}.${fraction}`;
        assert.equal(toCents(text), centsOracle(whole, fraction ?? ''), text);
      }),
      fcParams(500),
    );
  });

  it('rejects any amount with 3 or more decimals (ERR_AMOUNT_FORMAT)', () => {
    fc.assert(
      fc.property(digits(0, 15), digits(3, 8), (whole, fraction) => {
        const text = `${whole}.${fraction}`;
        assert.throws(() => toCents(text), isAmountFormatError, text);
      }),
      fcParams(300),
    );
  });

  it('numbers with up to 15 significant digits and 2 decimals convert like their decimal text', () => {
    // Up to 13 + 2 digits: every such decimal is the shortest round-trip form of its double.
    fc.assert(
      fc.property(digits(1, 13), digits(0, 2), (whole, fraction) => {
        const text = fraction === '' ? whole : `${whole}.${fraction}`;
        assert.equal(toCents(Number(text)), centsOracle(whole, fraction), text);
      }),
      fcParams(300),
    );
  });
});
