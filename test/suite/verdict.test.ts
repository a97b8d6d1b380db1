// How a step's expectation becomes a verdict (steps/support/verdict.ts): the spec's fails always;
// an assumption's fails when strict (the embedded mock, --strict) and otherwise attaches a warning;
// in an @assumption scenario a missed premise ends the scenario, a check's own assumption does not.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { WARNING_MEDIA_TYPE } from '../../src/report/findings.ts';
import { expectThat, type Judge } from '../../steps/support/verdict.ts';

function judge(strict: boolean, premise: string[] = []): Judge & { attached: Array<[string, string]> } {
  const attached: Array<[string, string]> = [];
  return {
    premise,
    strict,
    ended: false,
    attached,
    attach: (data, mediaType) => {
      attached.push([mediaType, data]);
    },
  };
}

// refusal-code rests on A-21 in the rule book: the check names the rule, the book its severity.
const code = { check: 'error code', expected: 'CONTROL_INVALID', actual: 'E1', rule: 'refusal-code' as const };
const status = { check: 'SALE status', expected: 'a refusal (no 2xx)', actual: '200' };

describe('expectThat', () => {
  it('does nothing when the expectation is met', () => {
    const j = judge(false);
    assert.equal(expectThat(j, true, status), true);
    assert.deepEqual(j.attached, []);
  });

  it('fails on a missed expectation of the spec, strict or not', () => {
    for (const strict of [true, false])
      assert.throws(() => expectThat(judge(strict), false, status), {
        name: 'AssertionError',
        message: /^SALE status: expected a refusal \(no 2xx\), got 200 \(the spec\)/,
      });
  });

  it('fails on a missed assumption when strict, naming it', () => {
    assert.throws(() => expectThat(judge(true), false, code), {
      name: 'AssertionError',
      message: /^A-21: error code: expected CONTROL_INVALID, got E1 \(rule refusal-code\) \(an assumption/,
    });
  });

  it('otherwise attaches a warning and goes on', () => {
    const j = judge(false);
    assert.equal(expectThat(j, false, code), false);
    assert.deepEqual(j.attached, [
      [
        WARNING_MEDIA_TYPE,
        JSON.stringify({
          assumption: 'A-21',
          check: 'error code',
          expected: 'CONTROL_INVALID',
          actual: 'E1',
          rule: 'refusal-code',
        }),
      ],
    ]);
    assert.equal(j.ended, false);
  });

  it('in an @assumption scenario, ends it on a missed premise with a warning under the premise', () => {
    const j = judge(false, ['A-22']);
    assert.throws(
      () => expectThat(j, false, status),
      (err: Error) => err.name !== 'AssertionError',
    );
    assert.equal(j.ended, true);
    assert.equal(JSON.parse(j.attached[0]![1]).assumption, 'A-22');
    const own = judge(false, ['A-22']);
    assert.equal(expectThat(own, false, code), false);
    assert.equal(own.ended, false);
  });
});

describe("expectThat: the severity of a check that names a rule is the book's", () => {
  it("a rule the spec states fails, strict or not, even in an @assumption scenario's own check", () => {
    const signature = {
      check: 'SALE control',
      expected: 'valid',
      actual: 'invalid',
      rule: 'control-signature' as const,
    };
    for (const j of [judge(false), judge(true)])
      assert.throws(() => expectThat(j, false, signature), { name: 'AssertionError', message: /\(the spec\)/ });
  });

  it('validation-error-status rests on A-21 (which status a refusal gets is not shown in the spec)', () => {
    const j = judge(false);
    const refusal = {
      check: 'SALE refusal status',
      expected: '4xx',
      actual: '500',
      rule: 'validation-error-status' as const,
    };
    assert.equal(expectThat(j, false, refusal), false);
    assert.equal(JSON.parse(j.attached[0]![1]).assumption, 'A-21');
  });
});

describe('expectThat: a departure from the spec a gateway profile declares', () => {
  const media = {
    check: 'answer',
    expected: 'what the spec states',
    actual: 'content-type: must be application/vnd.pay+json (got text/html;charset=utf-8)',
    deviation: 'answers.format, answers.mediaType',
    rule: 'answer-media-type' as const,
  };

  it('is a warning under "profile <key>", strict or not, in any scenario, and the scenario goes on', () => {
    for (const j of [judge(true), judge(false), judge(false, ['A-22'])]) {
      assert.equal(expectThat(j, false, media), false);
      assert.deepEqual(j.attached, [
        [
          WARNING_MEDIA_TYPE,
          JSON.stringify({
            assumption: 'profile answers.format, answers.mediaType',
            check: 'answer',
            expected: 'what the spec states',
            actual: media.actual,
            rule: 'answer-media-type',
          }),
        ],
      ]);
      assert.equal(j.ended, false);
    }
  });

  it("without the profile's key the same miss is the spec's failure", () => {
    assert.throws(() => expectThat(judge(false), false, { ...media, deviation: undefined }), {
      name: 'AssertionError',
      message: /^answer: expected what the spec states, got content-type/,
    });
  });
});
