// The run's target: one reading of the PAYCONFORM_* variables, the choice checked before any credential
// is read, and the way the steps find it (worldParameters, else the environment).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';
import { profileOf } from '../../src/suite/profile.ts';
import { resolveTarget, TARGET_PARAMETER, targetFromEnv, targetOf, targetParameters } from '../../src/suite/target.ts';

const gatewayEnv = {
  PAYCONFORM_ENDPOINT_ID: '77',
  PAYCONFORM_LOGIN: 'merchant',
  PAYCONFORM_CONTROL_KEY: 'key',
  PAYCONFORM_PRIVATE_KEY_FILE: TEST_MERCHANT_PRIVATE_KEY_FILE,
};

describe('resolveTarget', () => {
  it('without a base URL is the embedded mock with its TEST-ONLY merchant, polling without delay', () => {
    const t = resolveTarget({ live: false }, {});
    assert.equal(t.baseUrl, undefined);
    assert.equal(t.credentials.login, testMerchant().login);
    assert.deepEqual(
      [t.endpointId, t.live, t.maxAmountCents, t.pollIntervalMs, t.pollDeadlineMs],
      [testMerchant().endpointIds[0], false, '1000', 0, 5_000],
    );
  });

  it('against a gateway takes the credentials and settings from the environment', () => {
    const t = resolveTarget(
      { baseUrl: 'https://sandbox.example/paynet', live: true },
      { ...gatewayEnv, PAYCONFORM_MAX_AMOUNT: '2.50', PAYCONFORM_POLL_INTERVAL_MS: '250' },
    );
    assert.deepEqual(
      [
        t.endpointId,
        t.credentials.login,
        t.credentials.controlKey,
        t.live,
        t.maxAmountCents,
        t.pollIntervalMs,
        t.pollDeadlineMs,
      ],
      ['77', 'merchant', 'key', true, '250', 250, 120_000],
    );
    assert.match(t.credentials.privateKeyPem!, /BEGIN PRIVATE KEY/);
  });

  it('is strict against the embedded mock always, against a gateway only when asked', () => {
    assert.equal(resolveTarget({ live: false }, {}).strict, true);
    assert.equal(resolveTarget({ baseUrl: 'http://127.0.0.1:9', live: false }, gatewayEnv).strict, false);
    assert.equal(resolveTarget({ baseUrl: 'http://127.0.0.1:9', live: false, strict: true }, gatewayEnv).strict, true);
    assert.equal(
      targetFromEnv({ ...gatewayEnv, PAYCONFORM_BASE_URL: 'http://127.0.0.1:9', PAYCONFORM_STRICT: '1' }).strict,
      true,
    );
    assert.equal(targetFromEnv({ ...gatewayEnv, PAYCONFORM_BASE_URL: 'http://127.0.0.1:9' }).strict, false);
  });

  it('takes poll timing and the amount cap from a profile, and the environment over it', () => {
    const profile = profileOf(
      { name: 'slow sandbox', poll: { intervalMs: 2000, deadlineMs: 600_000 }, amounts: { max: '3.00' } },
      'p.json',
    );
    const t = resolveTarget({ baseUrl: 'http://127.0.0.1:9', live: false, profile }, gatewayEnv);
    assert.deepEqual(
      [t.pollIntervalMs, t.pollDeadlineMs, t.maxAmountCents, t.profile.name],
      [2000, 600_000, '300', 'slow sandbox'],
    );
    const overridden = resolveTarget(
      { baseUrl: 'http://127.0.0.1:9', live: false, profile },
      { ...gatewayEnv, PAYCONFORM_POLL_INTERVAL_MS: '10', PAYCONFORM_MAX_AMOUNT: '1.00' },
    );
    assert.deepEqual(
      [overridden.pollIntervalMs, overridden.pollDeadlineMs, overridden.maxAmountCents],
      [10, 600_000, '100'],
    );
  });

  it('checks the choice before reading any credential', () => {
    assert.throws(() => resolveTarget({ baseUrl: 'https://sandbox.example', live: false }, {}), {
      code: 'ERR_LIVE_RUN',
      message: /^--live: required for a base URL that is not loopback/,
    });
    assert.throws(() => resolveTarget({ baseUrl: 'http://127.0.0.1:9', live: false, defect: 'pay-twice' }, {}), {
      code: 'ERR_TARGET',
      message: /^--defect: applies to the embedded mock only/,
    });
    // Every missing variable at once, so a person sets them in one go rather than one per attempt.
    assert.throws(() => resolveTarget({ baseUrl: 'http://127.0.0.1:9', live: false }, {}), {
      code: 'ERR_CREDENTIALS',
      message:
        'PAYCONFORM_ENDPOINT_ID, PAYCONFORM_LOGIN, PAYCONFORM_CONTROL_KEY, PAYCONFORM_PRIVATE_KEY_FILE: missing (a run against http://127.0.0.1:9 takes its credentials from the PAYCONFORM_* variables)',
    });
    assert.throws(
      () =>
        resolveTarget(
          { baseUrl: 'http://127.0.0.1:9', live: false },
          { PAYCONFORM_LOGIN: 'm', PAYCONFORM_ENDPOINT_ID: '7' },
        ),
      { code: 'ERR_CREDENTIALS', message: /^PAYCONFORM_CONTROL_KEY, PAYCONFORM_PRIVATE_KEY_FILE: missing / },
    );
    // An endpoint id that is no id is the person's mistake, named before any scenario, not 238 failures blamed on the gateway.
    for (const id of ['abc', '0', '-5', '07', '9223372036854775808']) {
      assert.throws(
        () =>
          resolveTarget({ baseUrl: 'http://127.0.0.1:9', live: false }, { ...gatewayEnv, PAYCONFORM_ENDPOINT_ID: id }),
        { code: 'ERR_ENDPOINT_ID', message: /^PAYCONFORM_ENDPOINT_ID: must be a positive int64 in decimal/ },
        id,
      );
    }
    assert.throws(
      () =>
        resolveTarget(
          { baseUrl: 'http://127.0.0.1:9', live: false },
          { ...gatewayEnv, PAYCONFORM_PRIVATE_KEY_FILE: '/nonexistent/key.pem' },
        ),
      { code: 'ERR_IO', message: 'PAYCONFORM_PRIVATE_KEY_FILE: cannot read /nonexistent/key.pem (ENOENT)' },
    );
  });

  // Bug fixed in issue 15: PAYCONFORM_MAX_AMOUNT had a grammar of its own, which refused ".50".
  it("reads PAYCONFORM_MAX_AMOUNT with the signer's amount grammar", () => {
    assert.equal(resolveTarget({ live: false }, { PAYCONFORM_MAX_AMOUNT: '.50' }).maxAmountCents, '50');
    assert.equal(resolveTarget({ live: false }, { PAYCONFORM_MAX_AMOUNT: '007' }).maxAmountCents, '700');
    assert.throws(() => resolveTarget({ live: false }, { PAYCONFORM_MAX_AMOUNT: '10.001' }), {
      code: 'ERR_AMOUNT_FORMAT',
      message: 'PAYCONFORM_MAX_AMOUNT: at most 2 decimals are allowed (got 3)',
    });
  });

  // Bug fixed in issue 15: a poll setting past setTimeout's limit (2^31 - 1 ms) made Node wait 1 ms instead.
  it('refuses poll settings that are not whole milliseconds up to a day', () => {
    assert.equal(
      resolveTarget({ live: false }, { PAYCONFORM_POLL_DEADLINE_MS: '86400000' }).pollDeadlineMs,
      86_400_000,
    );
    for (const text of ['3000000000', '1.5', '-1']) {
      assert.throws(
        () => resolveTarget({ live: false }, { PAYCONFORM_POLL_INTERVAL_MS: text }),
        { code: 'ERR_WHOLE_NUMBER', message: 'PAYCONFORM_POLL_INTERVAL_MS: must be a whole number from 0 to 86400000' },
        text,
      );
    }
  });
});

describe('the target the steps use', () => {
  it('is the one in worldParameters when the runner put one there, whatever the environment says', () => {
    const target = resolveTarget({ live: false, defect: 'lose-order' }, {});
    const parameters = JSON.parse(JSON.stringify(targetParameters(target)));
    assert.deepEqual(
      targetOf(parameters, { PAYCONFORM_BASE_URL: 'https://elsewhere.example' }),
      JSON.parse(JSON.stringify(target)),
    );
    assert.equal(targetOf(parameters, {}).defect, 'lose-order');
  });

  it('comes from PAYCONFORM_* for plain npx cucumber-js (no worldParameters)', () => {
    assert.equal(targetOf({}, {}).baseUrl, undefined);
    const t = targetOf(
      {},
      { ...gatewayEnv, PAYCONFORM_BASE_URL: 'https://sandbox.example/paynet', PAYCONFORM_LIVE: '1' },
    );
    assert.deepEqual([t.baseUrl, t.live, t.endpointId], ['https://sandbox.example/paynet', true, '77']);
    assert.deepEqual(targetFromEnv({ ...gatewayEnv, PAYCONFORM_BASE_URL: 'http://127.0.0.1:9' }).live, false);
  });

  it('refuses worldParameters whose target is not one', () => {
    assert.throws(() => targetOf({ [TARGET_PARAMETER]: 'https://x' }, {}), { code: 'ERR_TARGET' });
  });
});
