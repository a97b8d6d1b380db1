/**
 * Steps that judge answers. Every answer is checked by the client against the spec: the media type
 * and the JSON Schema of its status (`problems`); these steps add what the scenario expects.
 * Failure messages show the status and the (card-free) answer, never the request's secrets.
 */
import { Then } from '@cucumber/cucumber';
import assert from 'node:assert/strict';
import { rulesRefusingWith } from '../src/rules/book.ts';
import { validateResponse } from '../src/schemas/index.ts';
import { shown, type PayWorld } from './support/world.ts';


Then('the gateway accepts it', function (this: PayWorld) {
  assert.equal(this.last.status, 200, shown(this.last));
  assert.deepEqual(this.last.problems, [], shown(this.last));
});

/** Any 4xx; a JSON answer must be a valid ValidationErrorResponse (the spec's schema for refusals). */
Then('the gateway refuses it', function (this: PayWorld) {
  const x = this.last;
  assert.ok(x.status >= 400 && x.status < 500, `expected a refusal (4xx): ${shown(x)}`);
  assert.deepEqual(x.problems.filter((p) => p.startsWith('leak:')), [], `${x.operation} answered ${x.status}`);
  if (typeof x.body === 'object' && x.body !== null) assert.deepEqual(validateResponse('ValidationErrorResponse', x.body), { valid: true }, shown(x));
});

Then('the gateway answers with a server error', function (this: PayWorld) {
  assert.equal(this.last.status, 500, shown(this.last));
  assert.deepEqual(validateResponse('ServerErrorResponse', this.last.body), { valid: true }, shown(this.last));
});

/**
 * The mock's error codes are payconform's assumption (docs/assumptions.md ): such scenarios
 * carry @assumption. A code must be the refusal of a rule in the rule book, which the message names.
 */
Then('the error code is {string}', function (this: PayWorld, code: string) {
  const rules = rulesRefusingWith(code);
  assert.ok(rules.length > 0, `${code} is the refusal of no rule in src/rules/book.ts`);
  const basis = rules.map((r) => `${r.id} (${r.basis}: ${r.clause})`).join(' or ');
  assert.equal(this.answer('error-code'), code, `${shown(this.last)}; expected under rule ${basis}`);
});

Then('the error names the field {string}', function (this: PayWorld, field: string) {
  const named = this.answer('field') ?? '';
  const message = this.answer('error-message') ?? '';
  assert.ok(named === field || message.startsWith(`${field}:`), `the error should name ${field}: ${shown(this.last)}`);
});

Then('the answer carries a {string}', function (this: PayWorld, name: string) {
  assert.ok(this.answer(name), `no ${name}: ${shown(this.last)}`);
});

Then('the first answer was accepted', function (this: PayWorld) {
  const first = this.exchanges.at(-2)!;
  assert.equal(first.status, 200, shown(first));
});
