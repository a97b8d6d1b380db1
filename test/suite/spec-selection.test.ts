// The spec-only selection (`--tags "not @assumption"`) must still judge refusals: every negative
// scenario whose premise the spec states stays in it, and every scenario outside it names the
// assumption (A-n of docs/assumptions.md) its premise rests on. Counted with cucumber's own
// selection (loadSources), as certify selects.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadSources } from '@cucumber/cucumber/api';
import { ENDPOINTS } from '../../src/catalogue/index.ts';
import { REQUIRED_KINDS } from '../../src/suite/endpoint-features.ts';

const NEGATIVE = `(@negative or ${REQUIRED_KINDS.filter((k) => k.startsWith('@negative')).join(' or ')})`;
const ASSUMPTIONS = [...readFileSync('docs/assumptions.md', 'utf8').matchAll(/^\| (A-[0-9]+) \|/gm)].map(
  (m) => `@${m[1]}`,
);

async function selected(tagExpression: string): Promise<Array<{ name: string; uri: string }>> {
  const { plan, errors } = await loadSources({
    paths: ['features/**/*.feature'],
    tagExpression,
    defaultDialect: 'en',
    names: [],
    order: 'defined',
  });
  assert.deepEqual(errors, []);
  return plan;
}

describe('the spec-only selection', () => {
  it('runs at least 100 negative scenarios', async () => {
    const negatives = await selected(`not @assumption and ${NEGATIVE}`);
    assert.ok(negatives.length >= 100, `${negatives.length} negative scenarios`);
  });

  it('runs at least 4 negatives per endpoint with a scheme the spec states, 2 for those without', async () => {
    for (const endpoint of ENDPOINTS) {
      const n = (await selected(`not @assumption and @endpoint:${endpoint.operation} and ${NEGATIVE}`)).length;
      // get-card-info's control comes from its public page, not the spec: its control refusals are assumptions.
      const specStatesScheme =
        endpoint.auth.kind !== 'unstated' &&
        !(endpoint.auth.kind === 'control' && endpoint.auth.fromPublicPage !== undefined);
      const least = specStatesScheme ? 4 : 2;
      assert.ok(n >= least, `${endpoint.operation}: ${n} spec negatives, at least ${least} expected`);
    }
  });

  it('leaves out a missing field outside the control formula: it rests on the assumed field lists (A-25)', async () => {
    assert.deepEqual(await selected('not @assumption and @negative:field-missing'), []);
    assert.equal((await selected('@A-25 and @negative:field-missing')).length, ENDPOINTS.length);
  });

  it('names, for every @assumption scenario, the assumption of docs/assumptions.md it rests on', async () => {
    assert.ok(ASSUMPTIONS.length >= 30);
    const unnamed = await selected(`@assumption and not (${ASSUMPTIONS.join(' or ')})`);
    assert.deepEqual(
      unnamed.map((p) => `${p.uri}: ${p.name}`),
      [],
    );
    const untagged = await selected(`not @assumption and (${ASSUMPTIONS.join(' or ')})`);
    assert.deepEqual(
      untagged.map((p) => `${p.uri}: ${p.name}`),
      [],
    );
  });

  it('keeps the control mistakes of the spec and leaves out those of the digest encoding (A-1)', async () => {
    const names = (await selected('not @assumption and @scheme:control and @endpoint:SALE and @negative'))
      .map((p) => p.name)
      .join('\n');
    assert.match(names, /decimal-amount/);
    assert.doesNotMatch(names, /uppercase-hex/);
  });
});
