// The mock leaves out of a catalogue row's rules those that cannot judge it (rulesFor, worked out once per row):
// the left-out sets are written here by hand from the spec's schemes, and each left-out rule is seen to skip on
// that row whatever the request carries, so leaving it out changes no refusal.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ENDPOINTS, matchPath } from '../../src/catalogue/index.ts';
import { testMerchant } from '../../src/gateway/merchants.ts';
import { BODY_RULES, HEAD_RULES } from '../../src/rules/book.ts';
import { NonceStore } from '../../src/rules/nonces.ts';
import { RequestUnderTest, type RuleContext } from '../../src/rules/request.ts';
import { rulesFor, type RequestRule } from '../../src/rules/run.ts';

const CONTROL_RULES = ['control-present', 'control-format', 'control-signature'];
const OAUTH_RULES = [
  'oauth-header-present',
  'oauth-header-format',
  'oauth-body-consistent',
  'consumer-key-known',
  'signature-method',
  'oauth-version',
  'oauth-timestamp-window',
  'oauth-signature',
  'nonce-unique',
];

const merchant = testMerchant();
const endpointId = merchant.endpointIds[0] ?? '1001';
const context: RuleContext = {
  merchants: [merchant],
  windowSeconds: 300,
  now: () => 0,
  nonces: new NonceStore(300),
  maxBodyBytes: 65536,
  explain: false,
};
const bodyRules: readonly RequestRule[] = BODY_RULES;
const leftOut = (path: string): string[] => {
  const { endpoint } = matchPath(path);
  const kept = new Set(rulesFor(bodyRules, endpoint));
  return bodyRules.filter((r) => !kept.has(r)).map((r) => r.id);
};

describe('the rules of a catalogue row', () => {
  it('leave the OAuth rules out of a control row, the control rules out of an OAuth row, both where none is stated', () => {
    assert.deepEqual(leftOut(`/api/v2/sale/${endpointId}`), OAUTH_RULES);
    assert.deepEqual(leftOut(`/api/v2/payout/${endpointId}`), CONTROL_RULES);
    assert.deepEqual(leftOut(`/api/v4/create-card-ref/${endpointId}`), CONTROL_RULES);
    assert.deepEqual(leftOut(`/api/v2/payment-form/${endpointId}`), [...CONTROL_RULES, ...OAUTH_RULES]);
    assert.equal(rulesFor(HEAD_RULES, matchPath(`/api/v2/sale/${endpointId}`).endpoint).length, HEAD_RULES.length);
  });

  it('leave out only rules that skip on that row, for a request that carries both a control and an OAuth header', () => {
    const authorization =
      'OAuth oauth_consumer_key="x", oauth_nonce="n", oauth_signature_method="HMAC-SHA1", ' +
      'oauth_timestamp="0", oauth_signature="s", oauth_version="1.0"';
    for (const endpoint of ENDPOINTS) {
      const path = endpoint.path.replace('{endpointId}', endpointId);
      const kept = new Set(rulesFor(bodyRules, endpoint));
      for (const rule of bodyRules.filter((r) => !kept.has(r))) {
        const req = new RequestUnderTest(
          {
            method: 'POST',
            url: `http://h${path}`,
            headers: { authorization },
            body: Buffer.from(`amount=1.00&control=${'a'.repeat(40)}&oauth_nonce=m`),
          },
          context,
        );
        assert.equal(rule.check(req).outcome, 'skip', `${rule.id} on ${endpoint.operation}`);
      }
    }
  });
});
