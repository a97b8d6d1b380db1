// The same seed gives the same requests: every family's draws, made twice from one seed, are equal, and the requests
// built from them differ only in what must stay fresh for the gateway (nonce, timestamp, the run's order ids).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ENDPOINTS, type Operation } from '../../src/catalogue/index.ts';
import { buildRequest } from '../../src/client/client.ts';
import { sampleRequest } from '../../src/schemas/index.ts';
import { FAMILIES, FAMILY_IDS } from '../../src/explore/families.ts';
import { signsAnAmount } from '../../src/explore/arbitraries.ts';
import { oauthMethodOf, type Base, type Fresh } from '../../src/explore/cases.ts';
import { exploreOf, EXPLORE_PARAMETER, propertySeed } from '../../src/explore/settings.ts';
import { TEST_CREDENTIALS } from './credentials.ts';

const CAP = 1000n;
/** One operation of each scheme, and one with a prerequisite (RSA signing makes every operation a minute's work). */
const SAMPLED: readonly string[] = ['SALE', 'CAPTURE', 'PAYOUT', 'PAYOUT_V4'];
const operationsOf = (family: string): Operation[] =>
  ENDPOINTS.filter((e) => SAMPLED.includes(e.operation))
    .map((e) => e.operation)
    .filter((o) => family !== 'valid-amounts' || signsAnAmount(o))
    .filter((o) => family !== 'near-miss-control' || oauthMethodOf(o) === undefined)
    .filter((o) => family !== 'near-miss-oauth' || oauthMethodOf(o) !== undefined);

/** The requests of `runs` runs of a family on an operation, drawn from `seed`, nonces counted from 1. */
function requestsOf(family: (typeof FAMILY_IDS)[number], operation: Operation, seed: number): unknown[] {
  const f = FAMILIES[family];
  let n = 0;
  const fresh: Fresh = () => ({ nonce: `nonce-${++n}`, timestamp: '1700000000' });
  return fc.sample(f.arbitrary(operation, CAP), { seed, numRuns: 3 }).map((input) => {
    const endpoint = ENDPOINTS.find((e) => e.operation === operation)!;
    const params = sampleRequest(endpoint, f.overrides(input));
    const options = { baseUrl: 'https://gw.example/paynet', credentials: TEST_CREDENTIALS, endpointId: '1001' };
    const request = buildRequest(endpoint, options, params, fresh());
    const base: Base = { operation, request, credentials: TEST_CREDENTIALS, endpointId: '1001' };
    return f.cases(base, input, fresh).map((c) => [c.label, c.request]);
  });
}

describe('generated checks: seeds', () => {
  it('draw the same requests twice from one seed, for every family on each scheme', () => {
    for (const family of FAMILY_IDS)
      for (const operation of operationsOf(family)) {
        const seed = propertySeed(42, `${family}/${operation}`);
        assert.deepEqual(requestsOf(family, operation, seed), requestsOf(family, operation, seed), family);
      }
  });

  it('draw other requests from another seed', () => {
    const a = requestsOf('valid-characters', 'SALE', propertySeed(1, 'valid-characters/SALE'));
    const b = requestsOf('valid-characters', 'SALE', propertySeed(2, 'valid-characters/SALE'));
    assert.notDeepEqual(a, b);
  });

  it("give each property a seed of its own from the run's, within fast-check's range", () => {
    const seeds = FAMILY_IDS.map((f) => propertySeed(7, `${f}/SALE`));
    assert.equal(new Set(seeds).size, seeds.length);
    assert.equal(propertySeed(7, 'known-mistakes/SALE'), propertySeed(7, 'known-mistakes/SALE'));
    assert.notEqual(propertySeed(7, 'known-mistakes/SALE'), propertySeed(8, 'known-mistakes/SALE'));
    for (const s of seeds) assert.ok(Number.isInteger(s) && s >= 0 && s < 2 ** 31, String(s));
  });

  it('read the settings the runner wrote, and refuse anything else', () => {
    assert.deepEqual(exploreOf({ [EXPLORE_PARAMETER]: { seed: 5, runs: 200 } }), { seed: 5, runs: 200 });
    assert.equal(typeof exploreOf(undefined).seed, 'number');
    assert.throws(() => exploreOf({ [EXPLORE_PARAMETER]: { seed: 'x' } }), /worldParameters\.payconformExplore/);
  });
});
