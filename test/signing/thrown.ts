// What a test reads from a payconform error: its code, one-line message, field and rule; a test failure where
// nothing is thrown.
import assert from 'node:assert/strict';

export interface Thrown {
  code: string;
  message: string;
  field?: string;
  rule?: string;
}

export const thrown = (fn: () => unknown): Thrown => {
  try {
    fn();
  } catch (err) {
    const { code, message, field, rule } = err as Thrown;
    return { code, message, field, rule };
  }
  return assert.fail('no error');
};
