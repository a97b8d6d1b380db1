// The control mistakes called directly on hand-built formulas: their candidate concatenations and their explanations
// in the amount that was sent. Every expected value is written out by hand from the formula (api-spec.md Scheme A).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ControlField } from '../../src/catalogue/index.ts';
import type { ControlContext } from '../../src/signing/control.ts';
import {
  concatenation,
  CONTROL_MISTAKES,
  explanationForRequest,
  REFERENCE_CONTROL,
  type ControlMistake,
} from '../../src/signing/diagnose/control-mistakes.ts';
import type { Pair } from '../../src/signing/form-body.ts';

// SALE: endpointId + client_orderid + amount in cents + email; the callback: status + orderid + client_orderid.
const SALE: ControlField[] = [
  { name: 'endpointId', from: 'url', cents: false },
  { name: 'client_orderid', from: 'params', cents: false },
  { name: 'amount', from: 'params', cents: true },
  { name: 'email', from: 'params', cents: false },
];
const CALLBACK: ControlField[] = [
  { name: 'status', from: 'params', cents: false },
  { name: 'orderid', from: 'params', cents: false },
  { name: 'client_orderid', from: 'params', cents: false },
];
const sale = (amount: Pair[]): ControlContext => ({
  operation: 'SALE',
  endpointId: '9876',
  params: [['client_orderid', 'A-7'], ...amount, ['email', 'e@x']],
});
const callback = (params: Pair[]): ControlContext => ({ operation: 'CALLBACK', endpointId: '', params });
/** The concatenations a mistake's variants make for a request, the key left empty; none where a value is missing. */
const candidates = (m: ControlMistake, formula: ControlField[], ctx: ControlContext): string[] =>
  m.variantsFor(formula, ctx).flatMap((v) => concatenation({ ...REFERENCE_CONTROL, ...v }, formula, ctx, '') ?? []);
const byId = (id: string) => {
  const m = CONTROL_MISTAKES.find((x) => x.id === id);
  assert.ok(m, id);
  return m;
};

describe('control mistakes, candidates', () => {
  it('decimal-amount puts the amount in as sent, and has no candidate when the amount is sent twice', () => {
    const m = byId('decimal-amount');
    assert.deepEqual(candidates(m, SALE, sale([['amount', '10.00']])), ['9876A-710.00e@x']);
    assert.deepEqual(
      candidates(
        m,
        SALE,
        sale([
          ['amount', '10.00'],
          ['amount', '20.00'],
        ]),
      ),
      [],
    );
  });

  it('cents-leading-zero writes the cents of 0.05 as "05"', () => {
    assert.deepEqual(candidates(byId('cents-leading-zero'), SALE, sale([['amount', '0.05']])), ['9876A-705e@x']);
  });

  it('amount-in-formula puts the amount as sent, then in cents, last and before each field', () => {
    const ctx = callback([
      ['status', 'approved'],
      ['orderid', '55'],
      ['client_orderid', 'A-7'],
      ['amount', '10.5'],
    ]);
    assert.deepEqual(candidates(byId('amount-in-formula'), CALLBACK, ctx), [
      'approved55A-710.5',
      '10.5approved55A-7',
      'approved10.555A-7',
      'approved5510.5A-7',
      'approved55A-71050',
      '1050approved55A-7',
      'approved105055A-7',
      'approved551050A-7',
    ]);
  });

  it('amount-in-formula puts an amount that has no cents only as sent', () => {
    const ctx = callback([
      ['status', 'approved'],
      ['orderid', '55'],
      ['client_orderid', 'A-7'],
      ['amount', 'ten'],
    ]);
    assert.deepEqual(candidates(byId('amount-in-formula'), CALLBACK, ctx), [
      'approved55A-7ten',
      'tenapproved55A-7',
      'approvedten55A-7',
      'approved55tenA-7',
    ]);
  });

  it('amount-in-formula has no candidate when a formula field is missing or no amount was sent', () => {
    const m = byId('amount-in-formula');
    assert.deepEqual(
      candidates(
        m,
        CALLBACK,
        callback([
          ['status', 'approved'],
          ['client_orderid', 'A-7'],
          ['amount', '10.5'],
        ]),
      ),
      [],
    );
    assert.deepEqual(
      candidates(
        m,
        CALLBACK,
        callback([
          ['status', 'approved'],
          ['orderid', '55'],
          ['client_orderid', 'A-7'],
        ]),
      ),
      [],
    );
  });

  it('a mistake without a source in real code carries no seenIn at all', () => {
    assert.deepEqual(Object.keys(byId('fields-wrong-order')), [
      'scheme',
      'id',
      'step',
      'title',
      'explanation',
      'fix',
      'variantsFor',
    ]);
  });
});

describe('control mistakes, explained in the amount that was sent', () => {
  it('decimal-amount quotes 25.5 and its cents 2550', () => {
    assert.equal(
      explanationForRequest(byId('decimal-amount'), SALE, sale([['amount', '25.5']])),
      'The amount went into the formula as sent (25.5) instead of integer cents (2550).',
    );
  });

  it('truncated-cents shows 19.99 × 100 on a float and its truncation', () => {
    // 19.99 is 19.989999999999998436805981327779591083526611328125 as a double; × 100 rounds to 1998.9999999999998.
    assert.equal(
      explanationForRequest(byId('truncated-cents'), SALE, sale([['amount', '19.99']])),
      'The cents were amount × 100 on a binary float, cut to an integer (Math.floor or Math.trunc in JavaScript, ' +
        '(int) in PHP, (long) in Java, to_i in Ruby): 19.99 × 100 is 1998.9999999999998, so 1998, where the cents ' +
        'are 1999.',
    );
  });

  it('cents-leading-zero shows 0.05 split at the dot', () => {
    assert.equal(
      explanationForRequest(byId('cents-leading-zero'), SALE, sale([['amount', '0.05']])),
      "The cents were the amount's text split at the dot, a zero integer part dropped and the two decimals kept " +
        'as written: 0.05 gives "05", where the cents are 5.',
    );
  });

  it('has none for an amount that is no decimal, a missing amount, a formula without cents or a mistake without one', () => {
    assert.equal(explanationForRequest(byId('decimal-amount'), SALE, sale([['amount', 'ten']])), undefined);
    assert.equal(explanationForRequest(byId('decimal-amount'), SALE, sale([])), undefined);
    assert.equal(explanationForRequest(byId('decimal-amount'), CALLBACK, callback([['amount', '25.5']])), undefined);
    assert.equal(explanationForRequest(byId('fields-wrong-order'), SALE, sale([['amount', '25.5']])), undefined);
  });
});
