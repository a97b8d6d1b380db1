import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { present } from '../src/present.ts';

describe('present', () => {
  it('hands back a value that is there, falsy ones too', () => {
    assert.equal(present(0, 'a count'), 0);
    assert.equal(present('', 'a name'), '');
    assert.equal(present(false, 'a flag'), false);
  });

  it('throws a plain (internal) error naming what was missing, for undefined and null', () => {
    assert.throws(() => present(undefined, 'the unicode edge case'), {
      name: 'Error',
      message: 'the unicode edge case is missing',
    });
    assert.throws(() => present(null, 'a prerequisite'), { message: 'a prerequisite is missing' });
  });
});
