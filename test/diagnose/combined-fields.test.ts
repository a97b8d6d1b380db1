// Formula fields left out or added together (issue 43 item 5): a capture that signs neither amount nor currency, three
// fields left out, fields added at a place, with another mistake, and what is never added. Every control here is
// SHA-1 over a concatenation written out by hand from api-spec.md (Scheme A: capture login + client_orderid + orderid
// + amount in cents + currency, status login + client_orderid + orderid, sale endpointId + client_orderid + amount in
// cents + email; key last).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { matchPath } from '../../src/catalogue/index.ts';
import { diagnoseSent } from '../../src/signing/diagnose/diagnose.ts';
import type { Diagnosis } from '../../src/signing/diagnose/index.ts';
import type { Pair } from '../../src/signing/form-body.ts';

const KEY = 'K3y';
const credentials = { login: 'merchant', controlKey: KEY };
const sha1 = (s: string): string => createHash('sha1').update(s, 'utf8').digest('hex');
const CAPTURE: Pair[] = [
  ['client_orderid', 'A-7'],
  ['orderid', '123'],
  ['amount', '10.00'],
  ['currency', 'EUR'],
];

function diagnosed(operation: string, params: Pair[], control: string): Diagnosis {
  const path = `/api/v2/${operation}/9876`;
  const d = diagnoseSent(
    { request: { url: `https://h.example/paynet${path}`, params }, credentials, given: { control } },
    matchPath(path),
  );
  assert.ok(d);
  return d;
}

describe('formula fields left out together', () => {
  it('names amount and currency for a capture that signs neither (the issue), in its own values', () => {
    const d = diagnosed('capture', CAPTURE, sha1('merchant' + 'A-7' + '123' + KEY));
    assert.deepEqual(d.defects, ['missing-fields']);
    assert.deepEqual(d.compositions, [
      { mistakes: ['missing-fields'], steps: ['fields and their order'], fields: ['amount', 'currency'] },
    ]);
    assert.equal(d.ambiguous, false);
    assert.equal(d.message, 'control does not match the formula; reproduced by: missing-fields (amount, currency)');
    assert.equal(
      d.explanations?.['missing-fields'],
      "The formula's fields amount=1000 (10.00 in cents) and currency=EUR were left out of the concatenation. " +
        'Concatenate login=merchant, client_orderid=A-7, orderid=123, amount=1000 (10.00 in cents), currency=EUR, ' +
        'in this order, then the control key.',
    );
    assert.equal(d.partner?.controlInput, 'merchantA-7123<merchant_control_key>');
  });

  it('names three fields left out', () => {
    const d = diagnosed('capture', CAPTURE, sha1('merchant' + '1000' + KEY));
    assert.deepEqual(d.compositions?.[0]?.fields, ['client_orderid', 'orderid', 'currency']);
    assert.match(d.message, /reproduced by: missing-fields \(client_orderid, orderid, currency\)$/);
  });

  it('names one field left out as missing-field, with that field', () => {
    const d = diagnosed('capture', CAPTURE, sha1('merchant' + 'A-7' + '123' + '1000' + KEY));
    assert.deepEqual(d.compositions, [
      { mistakes: ['missing-field'], steps: ['fields and their order'], fields: ['currency'] },
    ]);
  });

  it('names each set that gives the same value, explaining the first: equal values make it ambiguous', () => {
    // client_orderid and orderid are both 1: leaving out either signs merchant11000EUR.
    const params: Pair[] = [
      ['client_orderid', '1'],
      ['orderid', '1'],
      ['amount', '10.00'],
      ['currency', 'EUR'],
    ];
    const d = diagnosed('capture', params, sha1('merchant' + '1' + '1000' + 'EUR' + KEY));
    assert.deepEqual(
      d.compositions?.map((c) => c.fields),
      [['client_orderid'], ['orderid']],
    );
    assert.equal(d.ambiguous, true);
    assert.equal(
      d.message,
      'control does not match the formula; reproduced by: missing-field (client_orderid), missing-field (orderid) ' +
        '(ambiguous: each of these gives the value sent)',
    );
    assert.match(d.explanations?.['missing-field'] ?? '', /^The formula's field client_orderid=1 was left out/);
  });

  it('combines fields left out with another mistake: uppercase hex', () => {
    const d = diagnosed('capture', CAPTURE, sha1('merchant' + 'A-7' + '123' + KEY).toUpperCase());
    assert.deepEqual(d.defects, ['missing-fields', 'uppercase-hex']);
    assert.match(d.message, /reproduced by: missing-fields \(amount, currency\) \+ uppercase-hex$/);
  });
});

describe('fields the formula does not name, added', () => {
  it('names amount and currency added to a status, as sent and before the key', () => {
    const params: Pair[] = [...CAPTURE];
    const d = diagnosed('status', params, sha1('merchant' + 'A-7' + '123' + '10.00' + 'EUR' + KEY));
    assert.deepEqual(d.compositions, [
      { mistakes: ['added-fields'], steps: ['fields and their order'], fields: ['amount', 'currency'] },
    ]);
    assert.equal(d.message, 'control does not match the formula; reproduced by: added-fields (amount, currency)');
    assert.equal(
      d.explanations?.['added-fields'],
      'The fields amount=10.00 and currency=EUR were concatenated in, though the formula does not name them. ' +
        'Concatenate login=merchant, client_orderid=A-7, orderid=123, in this order, then the control key.',
    );
  });

  it('finds one added field at a place inside the formula', () => {
    const params: Pair[] = [...CAPTURE, ['comment', 'hi']];
    const d = diagnosed('capture', params, sha1('merchant' + 'hi' + 'A-7' + '123' + '1000' + 'EUR' + KEY));
    assert.deepEqual(d.compositions?.[0]?.fields, ['comment']);
    assert.equal(d.partner?.controlInput, 'merchanthiA-71231000EUR<merchant_control_key>');
  });

  it('never adds a card number or CVV, so a control over one is not reproduced and never shown', () => {
    const pan = '4111111111111111';
    const params: Pair[] = [
      ['client_orderid', 'A-7'],
      ['amount', '10.00'],
      ['email', 'e@x'],
      ['credit_card_number', pan],
      ['cvv2', '123'],
    ];
    for (const control of [sha1('9876A-71000e@x' + pan + KEY), sha1('9876A-71000e@x123' + KEY)]) {
      const d = diagnosed('sale', params, control);
      assert.deepEqual(d.defects, []);
      assert.ok(!JSON.stringify(d).includes(pan));
    }
  });
});

describe('a control no field set explains', () => {
  it('still says no known mistake reproduces it', () => {
    const d = diagnosed('capture', [...CAPTURE, ['comment', 'hi']], sha1('unrelated'));
    assert.deepEqual(d.defects, []);
    assert.equal(d.compositions, undefined);
    assert.match(d.message, /; no known mistake reproduces it \(all 24 known control mistakes/);
  });
});
