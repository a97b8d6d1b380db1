// A diagnosis about the amount quotes the amount that was sent, not the spec's example (10.00):
// the user reads the explanation against their own request.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { runCli } from '../support/cli.ts';

const KEY = 'K-sent-amount';
const url = 'https://sandbox.gateway.example/paynet/api/v2/sale/1';
const sha1 = (s: string): string => createHash('sha1').update(s).digest('hex');
// SALE: endpointId + client_orderid + amount + email + key; each control below is written by hand.
const diagnose = (amount: string, control: string) =>
  runCli(
    [
      'diagnose',
      '--url',
      url,
      '--param',
      'client_orderid=A',
      '--param',
      `amount=${amount}`,
      '--param',
      'email=a@b.c',
      '--control',
      control,
    ],
    { PAYCONFORM_CONTROL_KEY: KEY },
  );

describe('diagnose quotes the amount that was sent', () => {
  it('decimal-amount: 25.5 as sent instead of 2550 cents', async () => {
    const r = await diagnose('25.5', sha1(`1A25.5a@b.c${KEY}`));
    assert.equal(r.code, 1, r.out + r.err);
    assert.match(r.out, /as sent \(25\.5\) instead of integer cents \(2550\)/);
    assert.doesNotMatch(r.out, /10\.00/);
  });

  it('float-cents: 1.15 × 100 gives 114.99999999999999 on a float, where the cents are 115', async () => {
    const r = await diagnose('1.15', sha1(`1A114.99999999999999a@b.c${KEY}`));
    assert.equal(r.code, 1, r.out + r.err);
    assert.match(r.out, /float-cents/);
    assert.match(r.out, /1\.15 × 100 gives 114\.99999999999999/);
    assert.match(r.out, /the cents are 115/);
  });

  it('--json carries the same explanation', async () => {
    const r = await runCli(
      [
        'diagnose',
        '--json',
        '--url',
        url,
        '--param',
        'client_orderid=A',
        '--param',
        'amount=25.5',
        '--param',
        'email=a@b.c',
        '--control',
        sha1(`1A25.5a@b.c${KEY}`),
      ],
      { PAYCONFORM_CONTROL_KEY: KEY },
    );
    assert.match(r.out, /as sent \(25\.5\) instead of integer cents \(2550\)/);
  });
});
