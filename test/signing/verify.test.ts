// constantTimeEqual, the signer's one comparison of a sent and a recomputed signature. verifyRequest's
// verdicts are read whole in test/rules/verify-verdicts.test.ts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { constantTimeEqual } from '../../src/signing/verify.ts';

describe('constantTimeEqual', () => {
  it('compares the UTF-8 bytes', () => {
    assert.equal(constantTimeEqual('Jörg', 'Jörg'), true);
    assert.equal(constantTimeEqual('Jörg', 'Jorg'), false);
    assert.equal(constantTimeEqual('ab', 'abc'), false);
  });
});
