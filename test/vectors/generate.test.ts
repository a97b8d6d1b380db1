import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ENDPOINTS, matchPath } from '../../src/catalogue/index.ts';
import { normalizeUrl } from '../../src/signing/normalize-url.ts';
import { DEFAULT_SEED, generateVectors } from '../../src/vectors/generate.ts';
import { parseVectorFile } from '../../src/vectors/load.ts';

const pem = readFileSync(new URL('../../vectors/keys/test-only-merchant-rsa-2048.pem', import.meta.url), 'utf8');
const committed = readFileSync(new URL('../../vectors/generated.json', import.meta.url), 'utf8');

describe('vectors generate', () => {
  const file = generateVectors({ privateKeyPem: pem });

  it('reproduces the committed vectors/generated.json byte for byte (the vectors cannot drift from the code)', () => {
    assert.equal(`${JSON.stringify(file, null, 2)}\n`, committed, 'run: npx payconform vectors generate --out vectors/generated.json');
  });

  it('is deterministic for a seed, and a different seed gives different data', () => {
    assert.deepEqual(generateVectors({ privateKeyPem: pem, seed: DEFAULT_SEED }), file);
    assert.notDeepEqual(generateVectors({ privateKeyPem: pem, seed: 7 }), file);
  });

  it('passes its own validation', () => assert.equal(parseVectorFile(committed, 'generated.json').vectors.length, file.vectors.length));

  it('covers every endpoint whose scheme is known with at least three vectors', () => {
    const counts = new Map<string, number>();
    for (const v of file.vectors) {
      const op = matchPath(normalizeUrl(v.request.url).pathname).endpoint.operation;
      counts.set(op, (counts.get(op) ?? 0) + 1);
    }
    for (const e of ENDPOINTS) {
      if (e.auth.kind === 'unstated') assert.equal(counts.get(e.operation), undefined, e.operation);
      else assert.ok((counts.get(e.operation) ?? 0) >= 3, `${e.operation}: ${counts.get(e.operation) ?? 0}`);
    }
  });

  it('has the edge cases the issue names', () => {
    const ids = new Set(file.vectors.map((v) => v.id));
    for (const id of ['edge-unicode', 'edge-reserved-characters', 'edge-empty-values', 'edge-repeated-names', 'edge-mixed-case-names',
      'edge-query-string', 'edge-default-port', 'edge-explicit-port', 'edge-uppercase-host', 'edge-realm', 'edge-control-amount-0-decimals',
      'edge-control-amount-1-decimal', 'edge-control-amount-2-decimals', 'edge-control-amount-15-digits', 'edge-int64-endpoint-id',
      'edge-control-int64-endpoint-id', 'edge-rsa-unicode', 'edge-no-prefix']) assert.ok(ids.has(id), id);
    const byId = new Map(file.vectors.map((v) => [v.id, v]));
    // Hand-checked corners of the edge cases (independent of the generator's own code).
    assert.match(byId.get('edge-control-amount-15-digits')!.expected.controlInput!, /^1001ORD-\d{6}99999999999999999\D/);
    assert.match(byId.get('edge-default-port')!.expected.baseString!, /^POST&https%3A%2F%2Fsandbox\.gateway\.example%2Fpaynet%2F/);
    assert.match(byId.get('edge-explicit-port')!.expected.baseString!, /^POST&https%3A%2F%2Fsandbox\.gateway\.example%3A8443%2F/);
    assert.match(byId.get('edge-realm')!.expected.authorization!, /^OAuth realm="payconform-test", oauth_consumer_key=/);
    assert.ok(!byId.get('edge-realm')!.expected.baseString!.includes('realm'));
    assert.match(byId.get('edge-mixed-case-names')!.expected.baseString!, /&AMOUNT%3Dx%26Amount%3D5%26B%3D2%26amount%3D5\.00%26b%3D1%26/);
    assert.match(byId.get('edge-repeated-names')!.expected.baseString!, /item%3Da%26item%3Da%26item%3Db/);
  });
});
