import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HOW, requireCredential } from '../../src/signing/request.ts';

describe('requireCredential', () => {
  it('returns a value that is given', () =>
    assert.equal(requireCredential('merchant-1', 'login', HOW.login), 'merchant-1'));

  for (const value of [undefined, '']) {
    it(`treats ${JSON.stringify(value) ?? 'undefined'} as missing: ERR_CREDENTIALS naming the field, the rule and how to give it`, () => {
      assert.throws(
        () => requireCredential(value, 'control key', HOW.controlKey),
        (err: Error & { code?: string; field?: string; rule?: string }) => {
          assert.equal(err.code, 'ERR_CREDENTIALS');
          assert.equal(err.field, 'control key');
          assert.equal(err.rule, 'required');
          assert.match(err.message, /^control key: missing \(.*--control-key-file.*PAYCONFORM_CONTROL_KEY.*\)$/);
          return true;
        },
      );
    });
  }
});
