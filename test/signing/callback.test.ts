// The gateway's callback control (A-31: SHA-1(status + orderid + client_orderid + merchant_control_key), lowercase
// hex, no amount), its form pairs and its explanation, read whole. Each control is sha1 of a concatenation written
// out here by hand.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { callbackControl, callbackPairs } from '../../src/signing/callback.ts';
import { explainCallback } from '../../src/signing/explain.ts';

const KEY = 'CB-KEY-42';
const sha1 = (text: string): string => createHash('sha1').update(text, 'utf8').digest('hex');
const FACTS = { orderid: '9001', clientOrderId: 'INV-7', amount: '12.30', status: 'declined', type: 'sale' };
const CONTROL = sha1(`declined9001INV-7${KEY}`);
const CONTROL_INPUT = 'declined9001INV-7<merchant_control_key>';

describe('callbackControl', () => {
  it('takes status, orderid and client_orderid from the pairs in that order, never the amount', () => {
    const pairs: [string, string][] = [
      ['amount', '12.30'],
      ['client_orderid', 'INV-7'],
      ['orderid', '9001'],
      ['status', 'declined'],
    ];
    assert.deepEqual(callbackControl(pairs, KEY), {
      fields: [
        { name: 'status', from: 'params', raw: 'declined', value: 'declined', cents: false },
        { name: 'orderid', from: 'params', raw: '9001', value: '9001', cents: false },
        { name: 'client_orderid', from: 'params', raw: 'INV-7', value: 'INV-7', cents: false },
      ],
      controlInput: CONTROL_INPUT,
      control: CONTROL,
    });
  });
});

describe('callbackPairs', () => {
  it('gives every callback field in the order the gateway sends them, control last', () => {
    assert.deepEqual(callbackPairs(FACTS, KEY), [
      ['orderid', '9001'],
      ['merchant_order', 'INV-7'],
      ['client_orderid', 'INV-7'],
      ['amount', '12.30'],
      ['status', 'declined'],
      ['type', 'sale'],
      ['control', CONTROL],
    ]);
  });
});

describe('explainCallback', () => {
  it('names the message, the formula from A-31, the concatenation and the digest, nothing more', () => {
    const pairs: [string, string][] = [
      ['status', 'declined'],
      ['orderid', '9001'],
      ['client_orderid', 'INV-7'],
    ];
    assert.deepEqual(explainCallback(callbackControl(pairs, KEY)), {
      operation: 'CALLBACK',
      path: 'server_callback_url',
      endpointId: '',
      scheme: 'control',
      steps: [
        {
          step: 'message',
          title: 'Gateway callback to server_callback_url (or customer return to redirect_url)',
          value: 'CALLBACK',
          details: [
            'sent by the gateway, checked by the merchant; the amount is not in the formula, so compare it with your order',
          ],
        },
        {
          step: 'formula',
          title: 'Control formula (API family library, docs/assumptions.md A-31)',
          value: 'SHA-1(status + orderid + client_orderid + merchant_control_key)',
          details: ['the merchant control key is appended last and never sent'],
        },
        {
          step: 'concatenation',
          title: 'Plain concatenation, key last',
          value: CONTROL_INPUT,
          details: [
            'status = "declined" (from the form body)',
            'orderid = "9001" (from the form body)',
            'client_orderid = "INV-7" (from the form body)',
          ],
        },
        { step: 'digest', title: 'SHA-1 of the UTF-8 concatenation, lowercase hex', value: CONTROL, details: [] },
      ],
      expected: { controlInput: CONTROL_INPUT, control: CONTROL },
    });
  });
});
