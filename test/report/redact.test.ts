import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { redactEchoes } from '../../src/report/redact.ts';

describe('redactEchoes', () => {
  const pairs: Array<[string, string]> = [
    ['credit_card_number', '4111111111111111'],
    ['cvv2', '123'],
    ['amount', '4111111111111111'],
  ];

  it('masks a card number of the request wherever the answer echoes it, and replaces the secrets', () => {
    const answer =
      '{"error-message":"card 4111111111111111 refused; expected key 55FB2A3C-KEY","n":"x4111111111111111y"}';
    // Hand-masked: first six and last four digits kept.
    assert.equal(
      redactEchoes(answer, pairs, ['55FB2A3C-KEY', undefined]),
      '{"error-message":"card 411111******1111 refused; expected key <redacted>","n":"x411111******1111y"}',
    );
  });

  it('leaves an answer alone when it echoes nothing sensitive, and ignores empty secrets', () => {
    const answer = '{"status":"approved","last-four-digits":"1111"}';
    assert.equal(redactEchoes(answer, pairs, ['', undefined]), answer);
  });
});

describe('redactEchoes on form-text answers (profiles/family-text.json)', () => {
  it('masks card numbers and replaces the control key, raw or form-encoded', () => {
    const pairs: Array<[string, string]> = [['credit_card_number', '4111111111111111']];
    // Hand-written as a public gateway answers: one pair a line, values form-encoded.
    const answer =
      'type=validation-error\n&error-message=card%204111111111111111%20key%20my%20key%26x%3D1\n&hint=my+key%26x%3D1\n&raw=my key&x=1\n';
    assert.equal(
      redactEchoes(answer, pairs, ['my key&x=1']),
      'type=validation-error\n&error-message=card%20411111******1111%20key%20<redacted>\n&hint=<redacted>\n&raw=<redacted>\n',
    );
  });
});
