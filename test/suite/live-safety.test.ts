// What a live run may send: documented test cards only, amounts up to the cap.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TEST_CARDS } from '../../src/catalogue/test-cards.ts';
import { toCents } from '../../src/signing/cents.ts';
import { checkTargetChoice, liveSendProblem, overCaptureAmounts } from '../../src/suite/live-safety.ts';

describe('liveSendProblem', () => {
  it('lets test cards and amounts up to the cap through', () => {
    assert.equal(
      liveSendProblem(
        [
          ['credit_card_number', TEST_CARDS.declined],
          ['destination-card-no', TEST_CARDS.approved],
          ['amount', '10.00'],
        ],
        '1000',
      ),
      undefined,
    );
  });

  it('stops any other card number, in every card field', () => {
    for (const field of ['credit_card_number', 'destination-card-no', 'card_number']) {
      assert.equal(
        liveSendProblem([[field, '4242424242424242']], '1000'),
        `live run: ${field} is not one of the documented test cards (docs/mock.md) or the profile's; not sent`,
      );
    }
    // A gateway profile's own test cards go through.
    assert.equal(
      liveSendProblem([['credit_card_number', '4242424242424242']], '1000', ['4242424242424242']),
      undefined,
    );
  });

  it('stops an amount above the cap, and sends a malformed one for the gateway to refuse', () => {
    assert.equal(
      liveSendProblem([['amount', '10.01']], '1000'),
      'live run: amount 10.01 is above PAYCONFORM_MAX_AMOUNT; not sent',
    );
    assert.equal(liveSendProblem([['amount', '1,000.00']], '0'), undefined);
  });

  // Bug fixed in issue 15: the steps had their own amount grammar, under which ".50" was not an amount
  // and so went out unchecked, whatever the cap.
  it('reads amounts with the signer\'s grammar, so ".50" is held to the cap too', () => {
    assert.equal(
      liveSendProblem([['amount', '.50']], '0'),
      'live run: amount .50 is above PAYCONFORM_MAX_AMOUNT; not sent',
    );
    assert.equal(liveSendProblem([['amount', '.50']], '50'), undefined);
  });
});

// Issue 42: the over-capture scenario sent 10.01, above the default cap of 10.00, so a default live run failed it.
describe('overCaptureAmounts', () => {
  it('authorises half the cap and captures a cent more, both within it', () => {
    assert.deepEqual(overCaptureAmounts('1000'), { authorised: '5.00', capture: '5.01' });
    assert.deepEqual(overCaptureAmounts('999'), { authorised: '4.99', capture: '5.00' });
    assert.deepEqual(overCaptureAmounts('2'), { authorised: '0.01', capture: '0.02' });
    assert.deepEqual(overCaptureAmounts('123456789012345678901'), {
      authorised: '617283945061728394.50',
      capture: '617283945061728394.51',
    });
  });

  it('has no pair below 0.02', () => {
    assert.equal(overCaptureAmounts('1'), undefined);
    assert.equal(overCaptureAmounts('0'), undefined);
  });

  it('never gives an amount a live run would stop, whatever the cap', () => {
    for (const cap of ['2', '3', '50', '1000', '1001', '99999']) {
      const amounts = overCaptureAmounts(cap)!;
      assert.equal(liveSendProblem([['amount', amounts.authorised]], cap), undefined, cap);
      assert.equal(liveSendProblem([['amount', amounts.capture]], cap), undefined, cap);
      assert.equal(BigInt(toCents(amounts.capture)) - BigInt(toCents(amounts.authorised)), 1n, cap);
    }
  });
});

describe('checkTargetChoice', () => {
  it('allows the embedded mock, with or without a defect, and loopback gateways without --live', () => {
    for (const choice of [
      { live: false },
      { live: false, defect: 'pay-twice' as const },
      { baseUrl: 'http://127.0.0.1:8080/paynet', live: false },
      { baseUrl: 'http://localhost:1', live: false },
      { baseUrl: 'http://[::1]:1', live: false },
      { baseUrl: 'https://sandbox.example', live: true },
    ]) {
      assert.doesNotThrow(() => checkTargetChoice(choice), JSON.stringify(choice));
    }
  });

  it('refuses a defect with a base URL, a URL that is not http(s), and a non-loopback URL without --live', () => {
    assert.throws(() => checkTargetChoice({ baseUrl: 'http://127.0.0.1:1', live: false, defect: 'pay-twice' }), {
      code: 'ERR_TARGET',
      field: '--defect',
    });
    assert.throws(() => checkTargetChoice({ baseUrl: 'not a url', live: true }), {
      code: 'ERR_URL',
      message: '--base-url: must be an absolute http(s) URL such as https://sandbox.example/paynet',
    });
    assert.throws(() => checkTargetChoice({ baseUrl: 'ftp://127.0.0.1/', live: true }), {
      code: 'ERR_URL',
      message: '--base-url: must be an http or https URL',
    });
    // The URL parser repairs these into http://x/; a person who typed them meant something else.
    for (const baseUrl of ['http:/x', 'http:x', 'https:///sandbox.example', 'http:\\\\x']) {
      assert.throws(
        () => checkTargetChoice({ baseUrl, live: true }),
        { code: 'ERR_URL', message: `--base-url: ${baseUrl} is a malformed URL (write http(s)://host/path)` },
        baseUrl,
      );
    }
    assert.throws(() => checkTargetChoice({ baseUrl: 'https://127.0.0.2.example/x', live: false }), {
      code: 'ERR_LIVE_RUN',
      message:
        '--live: required for a base URL that is not loopback (https://127.0.0.2.example): a live run sends real requests',
    });
  });
});
