// docs/fields.md is generated from the field tables (npm run docs:fields): it must be what they make today, and it
// shows whatever request and answer tables there are, each field with its need and its page.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fieldsDoc } from '../../scripts/fields-doc.ts';
import type { FieldTable } from '../../src/catalogue/fields/types.ts';

const STATUS_PAGE = 'https://doc.payneteasy.com/integration/API_commands/api_v2_status.html';
const ANSWER: FieldTable = {
  schema: 'StatusResponse',
  page: STATUS_PAGE,
  fields: [
    {
      name: 'type',
      necessity: 'mandatory',
      kind: 'enum',
      allowed: ['status-response'],
      inControl: false,
      description: 'The type of response.',
      example: 'status-response',
      source: { page: STATUS_PAGE },
    },
  ],
};

describe('docs/fields.md', () => {
  it('is what the field tables make (npm run docs:fields)', () => {
    assert.equal(readFileSync(new URL('../../docs/fields.md', import.meta.url), 'utf8'), fieldsDoc());
  });

  it('shows an answer table with its operations, each field with its need and the page', () => {
    const page = fieldsDoc([], [ANSWER]);
    const answers = page.split('## Answers')[1] ?? '';
    assert.match(answers, /### StatusResponse \(STATUS\)/);
    assert.match(answers, /\| `type` \| M \| — \| enum \|/);
    assert.ok(answers.includes(`Page: ${STATUS_PAGE}`));
    assert.match(page.split('## Answers')[0] ?? '', /## Requests\n\nNo field tables yet\./);
  });

  it("shows a request's row with its need, its control flag, its assumption and its note", () => {
    const returns = fieldsDoc().split('### ReturnRequest')[1]?.split('### ')[0] ?? '';
    assert.match(returns, /\| `amount` \| O \| yes \| amount \| — \| the page \|/);
    assert.match(returns, /\| `currency` \| C \| yes \| currency \| — \| the page \| when: Currency MUST be specified/);
  });
});
