// What the rule tests read from an outcome: a failure's evidence or a skip's reason, and a test failure
// naming the outcome where it is neither.
import assert from 'node:assert/strict';
import type { Evidence, Outcome } from '../../src/rules/rule.ts';

export const evidence = (outcome: Outcome): Evidence =>
  outcome.outcome === 'fail' ? outcome.evidence : assert.fail(`${outcome.outcome}: expected a failure`);

export const reason = (outcome: Outcome): string =>
  outcome.outcome === 'skip' ? outcome.reason : assert.fail(`${outcome.outcome}: expected a skip`);
