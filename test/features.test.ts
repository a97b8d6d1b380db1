// Coverage of the spec is checked, not hoped for: every catalogue row has each required scenario,
// and the generated endpoint features match the catalogue.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENDPOINTS } from '../src/catalogue/index.ts';
import { endpointFeaturePath, endpointFeatureText, requiredKinds } from '../src/suite/endpoint-features.ts';

const files = (d: string): string[] =>
  readdirSync(d, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(d, e.name)) : e.name.endsWith('.feature') ? [join(d, e.name)] : [],
  );

/** Tag lines directly above each Scenario, per scenario. */
function scenarioTags(text: string): string[][] {
  const out: string[][] = [];
  let pending: string[] = [];
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (line.startsWith('@')) pending.push(...line.split(/\s+/));
    else if (/^Scenario( Outline)?:/.test(line)) {
      out.push(pending);
      pending = [];
    } else if (line.startsWith('Feature:')) pending = [];
  }
  return out;
}

describe('features', () => {
  const all = files('features').flatMap((f) => scenarioTags(readFileSync(f, 'utf8')));

  it('give every catalogue row each required scenario', () => {
    for (const endpoint of ENDPOINTS) {
      for (const kind of requiredKinds(endpoint)) {
        assert.ok(
          all.some((tags) => tags.includes(`@endpoint:${endpoint.operation}`) && tags.includes(kind)),
          `${endpoint.operation} lacks a ${kind} scenario`,
        );
      }
    }
  });

  it('tag every scenario with its spec clause', () => {
    assert.ok(all.length >= 60);
    for (const tags of all)
      assert.ok(
        tags.some((t) => t.startsWith('@spec:')),
        tags.join(' '),
      );
  });

  it('keep the generated endpoint features up to date (npm run features)', () => {
    for (const endpoint of ENDPOINTS)
      assert.equal(
        readFileSync(endpointFeaturePath(endpoint), 'utf8'),
        endpointFeatureText(endpoint),
        endpointFeaturePath(endpoint),
      );
  });
});
