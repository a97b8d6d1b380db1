import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { commandReference, replaceReference } from '../scripts/readme-commands.ts';

describe('README', () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  it('documents every command and option exactly as --help prints them (npm run readme updates it)', async () => {
    assert.equal(readme, replaceReference(readme, await commandReference()));
  });
  it('shows the set-up and test commands', () => {
    assert.match(readme, /npm ci/);
    assert.match(readme, /npm test/);
  });
});
