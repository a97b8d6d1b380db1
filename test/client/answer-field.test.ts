// The error code a finding names (src/client/answer-field.ts, errorCodeOf): the answer's own field, read
// from the body as the client read it or from text that is a JSON object, and only when it is shaped like
// a code; what a gateway writes there otherwise (free text, an echoed card number) is never shown.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { errorCodeOf } from '../../src/client/answer-field.ts';

describe("an answer's error code, for a finding", () => {
  it('is the field of a body read as JSON or form text, under the name a profile gives it', () => {
    assert.equal(errorCodeOf({ 'error-code': 'CONTROL_INVALID' }, 'error-code'), 'CONTROL_INVALID');
    assert.equal(errorCodeOf({ error_code: 'REF_UNKNOWN' }, 'error_code'), 'REF_UNKNOWN');
    assert.equal(errorCodeOf({ 'error-code': 'X' }, 'error_code'), undefined);
  });

  it('is read from a body kept as text (an unexpected media type) only when that text is a JSON object', () => {
    assert.equal(errorCodeOf('{"error-code":"UNSUPPORTED_MEDIA_TYPE"}', 'error-code'), 'UNSUPPORTED_MEDIA_TYPE');
    assert.equal(errorCodeOf('error-code=CONTROL_INVALID', 'error-code'), undefined);
    assert.equal(errorCodeOf('["CONTROL_INVALID"]', 'error-code'), undefined);
    assert.equal(errorCodeOf('{"error-message":"error-code: CONTROL_INVALID"}', 'error-code'), undefined);
  });

  it('is dropped when it is not shaped like a code', () => {
    assert.equal(errorCodeOf({ 'error-code': '4111111111111111' }, 'error-code'), undefined);
    assert.equal(errorCodeOf({ 'error-code': 'rule control-sha1' }, 'error-code'), undefined);
    assert.equal(errorCodeOf({ 'error-code': `A${'B'.repeat(64)}` }, 'error-code'), undefined);
    assert.equal(errorCodeOf({ 'error-code': 7 }, 'error-code'), undefined);
  });
});
