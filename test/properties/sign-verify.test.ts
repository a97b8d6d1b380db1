/**
 * signRequest → verifyRequest through the catalogue for the control field (Scheme A) and HMAC-SHA1
 * OAuth (Scheme B, payout), and the converse: one flipped bit or hex digit makes verification fail.
 * RSA-SHA256 is in rsa.test.ts (it needs a generated key).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  buildAuthorizationHeader,
  signRequest,
  type Pair,
  type RequestInput,
  type SignResult,
} from '../../src/signing/index.ts';
import { verifyRequest } from '../../src/rules/verify.ts';
import { amount, endpointId, login, nonce, pairs, realm, secret, timestamp, unicodeString } from '../arbitraries.ts';
import { centsOfText, controlOracle, flipBit } from '../oracles.ts';
import { fcParams, seed } from '../seed.ts';

const CONTROL_FIELDS = new Set(['client_orderid', 'amount', 'email', 'control']);

const hmacCase = fc.record({
  url: endpointId.map((id) => `https://gw.example/api/v2/payout/${id}`),
  params: pairs({ maxLength: 6 }),
  credentials: fc.record({ login, controlKey: secret }),
  options: fc.record({ nonce, timestamp, realm: fc.option(realm, { nil: undefined }) }),
});

const controlCase = fc.record({
  url: fc
    .tuple(endpointId, fc.constantFrom('', '/paynet'))
    .map(([id, prefix]) => `https://gw.example${prefix}/api/v2/sale/${id}`),
  params: fc
    .tuple(unicodeString({ maxLength: 12 }), amount, unicodeString({ maxLength: 20 }), pairs({ maxLength: 4 }))
    .map(([orderId, amt, email, extra]): Pair[] => [
      ['client_orderid', orderId],
      ['amount', amt],
      ['email', email],
      ...extra.filter(([name]) => !CONTROL_FIELDS.has(name)),
    ]),
  credentials: fc.record({ login, controlKey: secret }),
});

function oauthOf(result: SignResult) {
  if (result.scheme === 'control') throw new Error('expected an OAuth scheme, got control');
  return result.oauth;
}

/** The header signRequest built, rebuilt with another signature (same protocol parameters, same realm). */
function headerWithSignature(result: SignResult, signature: string, realmValue: string | undefined): string {
  return buildAuthorizationHeader([...oauthOf(result).protocol, ['oauth_signature', signature]], realmValue);
}

describe(`sign → verify, control and HMAC-SHA1 (seed ${seed})`, () => {
  it('HMAC-SHA1 (payout): a signed request verifies', () => {
    fc.assert(
      fc.property(hmacCase, ({ url, params, credentials, options }) => {
        const request: RequestInput = { url, params };
        const result = signRequest(request, credentials, options);
        assert.equal(result.scheme, 'oauth-hmac-sha1');
        const verdict = verifyRequest(request, credentials, { authorization: oauthOf(result).authorization });
        assert.equal(verdict.reason, 'valid', verdict.message);
        assert.equal(verdict.valid, true);
      }),
      fcParams(150),
    );
  });

  it('control (sale): a signed request verifies, with the control given apart or as a form field', () => {
    fc.assert(
      fc.property(controlCase, ({ url, params, credentials }) => {
        const request: RequestInput = { url, params };
        const result = signRequest(request, credentials);
        assert.equal(result.scheme, 'control');
        if (result.scheme !== 'control') return;
        const apart = verifyRequest(request, credentials, { control: result.control.control });
        assert.equal(apart.reason, 'valid', apart.message);
        const inBody = verifyRequest(
          { url, params: [...params, ['control', result.control.control]] },
          credentials,
          {},
        );
        assert.equal(inBody.reason, 'valid', inBody.message);
      }),
      fcParams(150),
    );
  });

  it('control (sale) is SHA-1(endpointId + client_orderid + amount in cents + email + key), computed independently', () => {
    fc.assert(
      fc.property(controlCase, ({ url, params, credentials }) => {
        const result = signRequest({ url, params }, credentials);
        if (result.scheme !== 'control') throw new Error(`expected control, got ${result.scheme}`);
        const field = (name: string): string => params.find(([n]) => n === name)![1];
        const id = url.slice(url.lastIndexOf('/') + 1);
        const values = [id, field('client_orderid'), centsOfText(field('amount')), field('email')];
        assert.equal(result.control.control, controlOracle(values, credentials.controlKey));
      }),
      fcParams(150),
    );
  });

  it('HMAC-SHA1: flipping any one bit of the signature makes verification fail', () => {
    fc.assert(
      fc.property(hmacCase, fc.nat(), ({ url, params, credentials, options }, bit) => {
        const request: RequestInput = { url, params };
        const result = signRequest(request, credentials, options);
        const signature = oauthOf(result).signature;
        // The rebuilt header with the untouched signature still verifies: only the flip can fail it.
        assert.equal(
          verifyRequest(request, credentials, { authorization: headerWithSignature(result, signature, options.realm) })
            .valid,
          true,
        );
        const flipped = flipBit(signature, bit);
        assert.notEqual(flipped, signature);
        const verdict = verifyRequest(request, credentials, {
          authorization: headerWithSignature(result, flipped, options.realm),
        });
        assert.equal(verdict.valid, false);
        assert.equal(verdict.reason, 'mismatch');
      }),
      fcParams(150),
    );
  });

  it('control: changing any one hex digit makes verification fail', () => {
    fc.assert(
      fc.property(
        controlCase,
        fc.nat({ max: 39 }),
        fc.integer({ min: 1, max: 15 }),
        ({ url, params, credentials }, at, delta) => {
          const request: RequestInput = { url, params };
          const result = signRequest(request, credentials);
          if (result.scheme !== 'control') throw new Error(`expected control, got ${result.scheme}`);
          const control = result.control.control;
          const digit = ((parseInt(control[at]!, 16) + delta) % 16).toString(16);
          const changed = control.slice(0, at) + digit + control.slice(at + 1);
          assert.notEqual(changed, control);
          const verdict = verifyRequest(request, credentials, { control: changed });
          assert.equal(verdict.valid, false);
          assert.equal(verdict.reason, 'mismatch');
        },
      ),
      fcParams(150),
    );
  });
});
