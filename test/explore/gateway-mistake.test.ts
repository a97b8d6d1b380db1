// The gateway's own mistake, named: observations built by hand, each control a SHA-1 of a concatenation written
// out here (Scheme A for SALE: endpointId, client_orderid, cents, email, the control key), never the signer's.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { SentRequest } from '../../src/client/client.ts';
import { gatewayMistakeLine, gatewayMistakes, type Observation } from '../../src/explore/gateway-mistake.ts';
import type { Pair } from '../../src/signing/form-body.ts';

const credentials = { login: 'merchant', controlKey: 'KEY' };
const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');

/** A SALE of `amount` whose control is SHA-1 of "1001" + "ORD-1" + `centsSigned` + "a@b.example" + "KEY". */
function sale(amount: string, centsSigned: string, accepted: boolean): Observation {
  const params: Pair[] = [
    ['client_orderid', 'ORD-1'],
    ['amount', amount],
    ['email', 'a@b.example'],
    ['control', sha1(`1001ORD-1${centsSigned}a@b.exampleKEY`)],
  ];
  const request: SentRequest = {
    method: 'POST',
    url: 'https://gw.example/paynet/api/v2/sale/1001',
    headers: {},
    params,
    body: '',
  };
  return { operation: 'SALE', endpointId: '1001', request, accepted };
}

describe("the gateway's own mistake", () => {
  it('names truncated cents from the verdicts of a gateway that computes (int)(amount×100), with the example', () => {
    // 8.20 × 100 is 819.9999999999999 as a double: truncated, 819; 10.00 × 100 is exactly 1000.
    const seen = [sale('8.20', '820', false), sale('10.00', '1000', true), sale('8.20', '819', true)];
    const named = gatewayMistakes(seen, credentials);
    assert.deepEqual(
      named.map((m) => m.id),
      ['truncated-cents'],
    );
    assert.equal(named[0]?.example, 'the gateway computes cents as (int)(amount×100): 8.20 → 819');
    assert.match(gatewayMistakeLine(named), /truncated-cents \(the gateway computes cents as \(int\)/);
  });

  it('names the decimal amount where the gateway accepted the amount as sent in the control', () => {
    const seen = [sale('0.29', '29', false), sale('0.29', '0.29', true)];
    const named = gatewayMistakes(seen, credentials);
    assert.deepEqual(
      named.map((m) => m.id),
      ['decimal-amount'],
    );
    assert.equal(
      named[0]?.example,
      'the gateway signs the amount as sent, not in cents: 0.29 → "0.29", where the spec signs 29',
    );
  });

  it('names nothing for a gateway whose verdicts are the spec’s, and says so where no mistake fits', () => {
    assert.deepEqual(gatewayMistakes([sale('8.20', '820', true), sale('8.20', '819', false)], credentials), []);
    // Refusing the right control and the truncated one alike: refusing everything is no known mistake's verdict
    // once a request the mistakes sign differently was refused too.
    const none = gatewayMistakes([sale('10.00', '1000', false), sale('10.00', '10.00', false)], credentials);
    assert.ok(!none.some((m) => m.id === 'decimal-amount'));
    assert.equal(gatewayMistakeLine([]), 'no known mistake reproduces every verdict the gateway gave');
  });
});
