// Whose data a request reaches: the merchant an endpoint id or group id belongs to, written
// here as two hand-made merchants, and the words of each refusal.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { matchPath } from '../../src/catalogue/index.ts';
import { endpointOwner } from '../../src/rules/endpoint-owner.ts';
import { credentialsOf, ownerOf, type Merchant } from '../../src/rules/merchant.ts';
import { NonceStore } from '../../src/rules/nonces.ts';
import { RequestUnderTest } from '../../src/rules/request.ts';
import type { Outcome } from '../../src/rules/rule.ts';

const alice: Merchant = {
  login: 'alice',
  merchantControlKey: 'alice-key',
  publicKeyPem: 'alice-pem',
  endpointIds: ['11', '12'],
  endpointGroupIds: ['21'],
};
const bob: Merchant = { login: 'bob', merchantControlKey: 'bob-key', endpointIds: ['31'], endpointGroupIds: ['41'] };
const merchants = [alice, bob];
// sale's public page lists a group URL (accepted); payout's lists none.
const sale = matchPath('/api/v2/sale/1').endpoint;
const payout = matchPath('/api/v2/payout/1').endpoint;
const evidence = (o: unknown) => {
  const outcome = o as Outcome;
  return outcome.outcome === 'fail' ? outcome.evidence : assert.fail(`expected a failure, got ${JSON.stringify(o)}`);
};

describe('ownerOf', () => {
  it('finds the merchant by any of its endpoint ids, or by a group id where the operation takes one', () => {
    assert.equal(ownerOf(sale, '12', merchants), alice);
    assert.equal(ownerOf(sale, '31', merchants), bob);
    assert.equal(ownerOf(sale, '41', merchants), bob);
    assert.equal(ownerOf(sale, '21', merchants, true), alice);
  });

  it('in the group URL form the id must be a group id', () => {
    assert.deepEqual(evidence(ownerOf(sale, '11', merchants, true)), {
      message: 'endpointId: 11 is not an endpoint group of any merchant',
      field: 'endpointId',
      code: 'ENDPOINT_UNKNOWN',
    });
  });

  it('names an unknown id, and a group id where the operation takes none', () => {
    assert.deepEqual(evidence(ownerOf(sale, '99', merchants)), {
      message: 'endpointId: 99 is not an endpoint of any merchant',
      field: 'endpointId',
      code: 'ENDPOINT_UNKNOWN',
    });
    assert.deepEqual(evidence(ownerOf(payout, '21', merchants)), {
      message: 'endpointId: PAYOUT does not accept an endpoint group id (A-3: its public page lists no group URL)',
      field: 'endpointId',
      code: 'ENDPOINT_GROUP_NOT_ALLOWED',
    });
    assert.equal(ownerOf(payout, '11', merchants), alice);
  });

  it('hands the signer the login, control key and public key', () => {
    assert.deepEqual(credentialsOf(alice), { login: 'alice', controlKey: 'alice-key', publicKeyPem: 'alice-pem' });
    assert.deepEqual(credentialsOf(bob), { login: 'bob', controlKey: 'bob-key', publicKeyPem: undefined });
  });
});

describe('endpoint-owner', () => {
  const judge = (path: string) =>
    endpointOwner.check(
      new RequestUnderTest(
        { method: 'POST', url: `http://h${path}`, headers: {}, body: Buffer.from('') },
        { merchants, windowSeconds: 300, now: () => 0, nonces: new NonceStore(300), maxBodyBytes: 1e3, explain: false },
      ),
    );

  it("passes a merchant's endpoint id, refuses another with the owner's evidence", () => {
    assert.equal(judge('/api/v2/sale/31').outcome, 'pass');
    assert.equal(judge('/api/v2/sale/group/21').outcome, 'pass');
    assert.equal(evidence(judge('/api/v2/sale/99')).message, 'endpointId: 99 is not an endpoint of any merchant');
    assert.equal(evidence(judge('/api/v2/payout/41')).code, 'ENDPOINT_GROUP_NOT_ALLOWED');
  });

  it('refuses with ENDPOINT_UNKNOWN first, ENDPOINT_GROUP_NOT_ALLOWED where the evidence names it; needs the endpoint', () => {
    assert.deepEqual(endpointOwner.refusals, [
      { status: 400, code: 'ENDPOINT_UNKNOWN' },
      { status: 400, code: 'ENDPOINT_GROUP_NOT_ALLOWED' },
    ]);
    assert.deepEqual(endpointOwner.needs, ['endpoint']);
    assert.equal(endpointOwner.fixedIn, 'configuration');
  });
});
