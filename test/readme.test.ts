import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { COMMANDS_PAGE, commandReference, replaceReference } from '../scripts/readme-commands.ts';

const read = (path: string): string => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

describe('README', () => {
  const readme = read('README.md');
  it('shows the set-up and test commands', () => {
    assert.match(readme, /npm ci/);
    assert.match(readme, /npm test/);
  });
  it('links the command reference', () => {
    assert.match(readme, /\]\(docs\/commands\.md\)/);
  });
});

describe('docs/commands.md', () => {
  it('documents every command and option exactly as --help prints them (npm run readme updates it)', async () => {
    const page = read(COMMANDS_PAGE);
    assert.equal(page, replaceReference(page, await commandReference()));
  });
});
