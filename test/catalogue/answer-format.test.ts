// The one writer and reader of answers (src/catalogue/answer-format.ts), against text written by
// hand the way the family's public docs print an answer and its libraries read one.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseFormAnswer, renderAnswer, SPEC_ANSWERS } from '../../src/catalogue/answer-format.ts';

const FORM = { format: 'form', mediaType: 'text/plain' } as const;

describe('renderAnswer', () => {
  it('writes form text one pair a line, each after the first starting with &, ending in a line break', () => {
    const { text, contentType } = renderAnswer(
      { type: 'async-response', 'serial-number': 'mock-1', 'merchant-order-id': 'A-1', 'paynet-order-id': '77' },
      FORM,
    );
    assert.equal(text, 'type=async-response\n&serial-number=mock-1\n&merchant-order-id=A-1\n&paynet-order-id=77\n');
    assert.equal(contentType, 'text/plain;charset=utf-8');
  });

  it('escapes what would end a pair: &, =, a line break, + and a space', () => {
    const { text } = renderAnswer({ 'error-message': 'a&b=c\nd+e f' }, FORM);
    assert.equal(text, 'error-message=a%26b%3Dc%0Ad%2Be%20f\n');
  });

  it("writes the spec JSON unchanged by default, and renames fields to the gateway's names", () => {
    assert.deepEqual(renderAnswer({ type: 'error', 'error-code': 'X' }, SPEC_ANSWERS), {
      text: '{"type":"error","error-code":"X"}',
      contentType: 'application/vnd.pay+json',
    });
    assert.equal(renderAnswer({ 'paynet-order-id': '7' }, FORM, { 'paynet-order-id': 'orderid' }).text, 'orderid=7\n');
  });

  it('renames JSON fields too, in place, and only those the answer has', () => {
    const names = { 'paynet-order-id': 'orderid', 'card-ref-id': 'cardrefid' };
    assert.equal(
      renderAnswer({ type: 'x', 'paynet-order-id': '7', n: '1' }, SPEC_ANSWERS, names).text,
      '{"type":"x","orderid":"7","n":"1"}',
    );
    assert.equal(renderAnswer({ type: 'x' }, SPEC_ANSWERS, names).text, '{"type":"x"}');
  });
});

describe('parseFormAnswer', () => {
  it("reads the docs' layout as parse_str and trim do", () => {
    const text =
      'type=async-response\n&serial-number=00000000-0000-0000-0000-0000043b64ff\n&merchant-order-id=902B4FF56\n&paynet-order-id=1969106\n&end-point-id=12246\n';
    assert.deepEqual(parseFormAnswer(text), {
      type: 'async-response',
      'serial-number': '00000000-0000-0000-0000-0000043b64ff',
      'merchant-order-id': '902B4FF56',
      'paynet-order-id': '1969106',
      'end-point-id': '12246',
    });
  });

  it('reads back what renderAnswer writes, escapes included', () => {
    const body = { type: 'validation-error', 'error-message': 'a&b=c\nd+e f', 'serial-number': 's' };
    assert.deepEqual(parseFormAnswer(renderAnswer(body, FORM).text), body);
  });
});
