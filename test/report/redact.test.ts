import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { redactEchoes } from '../../src/report/redact.ts';

describe('redactEchoes', () => {
  const pairs: Array<[string, string]> = [['credit_card_number', '4111111111111111'], ['cvv2', '123'], ['amount', '4111111111111111']];

  it('masks a card number of the request wherever the answer echoes it, and replaces the secrets', () => {
    const answer = '{"error-message":"card 4111111111111111 refused; expected key 55FB2A3C-KEY","n":"x4111111111111111y"}';
    // Hand-masked: first six and last four digits kept.
    assert.equal(redactEchoes(answer, pairs, ['55FB2A3C-KEY', undefined]), '{"error-message":"card 411111******1111 refused; expected key <redacted>","n":"x411111******1111y"}');
  });

  it('leaves an answer alone when it echoes nothing sensitive, and ignores empty secrets', () => {
    const answer = '{"status":"approved","last-four-digits":"1111"}';
    assert.equal(redactEchoes(answer, pairs, ['', undefined]), answer);
  });
});
