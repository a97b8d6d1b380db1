// The one whole-number check for options and PAYCONFORM_* settings.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { wholeNumber } from '../src/whole-number.ts';

describe('wholeNumber', () => {
  it('reads digits within the range, bounds included, and nothing when absent', () => {
    assert.equal(wholeNumber('0', '--port', 0, 65535), 0);
    assert.equal(wholeNumber('65535', '--port', 0, 65535), 65535);
    assert.equal(wholeNumber('007', '--port', 0, 65535), 7);
    assert.equal(wholeNumber(undefined, '--port', 0, 65535), undefined);
  });

  it('refuses anything else with one line naming the setting and the range', () => {
    for (const text of ['', '-1', '1.5', '1e3', ' 1', '0x10', '65536']) {
      assert.throws(
        () => wholeNumber(text, '--port', 0, 65535),
        { code: 'ERR_WHOLE_NUMBER', field: '--port', message: '--port: must be a whole number from 0 to 65535' },
        JSON.stringify(text),
      );
    }
    assert.throws(() => wholeNumber('0', '--window-seconds', 1, 86_400), {
      message: '--window-seconds: must be a whole number from 1 to 86400',
    });
  });
});
