// How a step's expectation becomes a verdict (steps/support/verdict.ts): the spec's fails always;
// an assumption's fails when strict (the embedded mock, --strict) and otherwise attaches a warning;
// in an @assumption scenario a missed premise ends the scenario, a check's own assumption does not.
// A failure attaches its finding first, and what else a step throws is recorded as one.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CAUSE_FACTS, causesOf } from '../../src/report/causes.ts';
import { FINDING_MEDIA_TYPE, WARNING_MEDIA_TYPE } from '../../src/report/findings.ts';
import { PrerequisiteRefused } from '../../src/report/prerequisite-refusal.ts';
import { RunRecord } from '../../src/report/run-record.ts';
import { expectThat, recordThrown, type Judge } from '../../steps/support/verdict.ts';

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

describe("a step's failure carries its finding", () => {
  const findings = (j: { attached: Array<[string, string]> }): unknown[] =>
    j.attached.filter(([media]) => media === FINDING_MEDIA_TYPE).map(([, data]) => JSON.parse(data));
  const signature = {
    check: 'SALE control',
    expected: 'valid',
    actual: 'invalid',
    rule: 'control-signature' as const,
    exchange: { operation: 'SALE', status: 200 },
  };

  it('a missed check of the spec: its rule, kind, expected, actual and exchange, attached before it fails', () => {
    const j = judge(false);
    assert.throws(() => expectThat(j, false, signature), { name: 'AssertionError' });
    assert.deepEqual(findings(j), [{ kind: 'answered-wrong', ...signature }]);
  });

  it("a missed assumption when strict: the refusal's kind and the code it expected", () => {
    const j = judge(true);
    const refusal = { ...code, kind: 'refused-met' as const, expectedCode: 'CONTROL_INVALID' };
    assert.throws(() => expectThat(j, false, refusal), { name: 'AssertionError' });
    assert.deepEqual(findings(j), [
      {
        kind: 'refused-met',
        rule: 'refusal-code',
        check: 'error code',
        expected: 'CONTROL_INVALID',
        actual: 'E1',
        expectedCode: 'CONTROL_INVALID',
      },
    ]);
  });

  it('a warning is no finding', () => {
    const j = judge(false);
    expectThat(j, false, code);
    assert.deepEqual(findings(j), []);
  });

  it("a refused prerequisite is recorded with its exchange; another error by its first line; a check's once", () => {
    const j = judge(false);
    const exchange = { operation: 'SALE', status: 400, errorCode: 'CONTROL_INVALID' };
    recordThrown(j, new PrerequisiteRefused('STATUS', 'orderid', exchange, '{"error-code":"CONTROL_INVALID"}'));
    recordThrown(j, new Error('the page accepts the payment\n200 !== 500'));
    try {
      expectThat(j, false, signature);
    } catch (err) {
      recordThrown(j, err);
    }
    assert.deepEqual(findings(j), [
      {
        kind: 'refused-met',
        check: 'STATUS needs orderid from SALE',
        expected: 'SALE accepted',
        actual: '400',
        exchange,
        prerequisite: { operation: 'SALE', status: 400 },
      },
      { kind: 'untraced', check: 'the page accepts the payment', expected: '', actual: '' },
      { kind: 'answered-wrong', ...signature },
    ]);
  });

  it("a gateway's answer in the failure's words naming another rule, or a prerequisite, leaves its cause alone", () => {
    // The step quotes the answer in its message (detail); the cause is traced by the book from the finding.
    const j = judge(false);
    const echo =
      'SALE answered 200: {"error-message":"(rule control-sha1) needs an orderid from VOID, which answered 500"}';
    let message = '';
    try {
      expectThat(j, false, { ...signature, detail: echo });
    } catch (err) {
      message = (err as Error).message;
    }
    assert.match(message, /control-sha1/, 'the message quotes the gateway');
    const [media, body] = j.attached[0]!;
    const record = RunRecord.fromNdjson(
      [
        { pickle: { id: 'p', name: 'a SALE', uri: 'features/x.feature', tags: [{ name: '@endpoint:SALE' }] } },
        { testCase: { id: 'c', pickleId: 'p' } },
        { testCaseStarted: { id: 's', testCaseId: 'c' } },
        { attachment: { testCaseStartedId: 's', mediaType: media, body } },
        { testStepFinished: { testCaseStartedId: 's', testStepResult: { status: 'FAILED', message } } },
        { testCaseFinished: { testCaseStartedId: 's', willBeRetried: false } },
      ]
        .map((m) => JSON.stringify(m))
        .join('\n'),
    );
    const causes = causesOf(record.results, CAUSE_FACTS);
    assert.deepEqual(
      causes.map((c) => [c.rule, c.kind, c.blocked.length, c.scenarios[0]?.exchange]),
      [['control-signature', 'answered-wrong', 0, 'SALE answered 200']],
    );
  });
});
