// Failures grouped by their first cause (src/report/causes.ts), on a record written by hand in
// cucumber's message format: each failed step's finding as the steps attach it (steps/support/verdict.ts),
// beside the failure message in the words the steps and the client write, and a rule table of this
// test's own (not the book's): what each failure is traced to is worked out here.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { summarize } from '../../src/report/bundle.ts';
import { causesSection } from '../../src/report/causes-html.ts';
import { causesLines, causesOf, type CauseRules } from '../../src/report/causes.ts';
import { CAUSE_FACTS } from '../../src/report/causes.ts';
import { FINDING_MEDIA_TYPE, type Finding } from '../../src/report/findings.ts';
import { RunRecord } from '../../src/report/run-record.ts';

const RULES: CauseRules = {
  'endpoint-owner': {
    clause: 'Identifiers',
    basis: 'assumption',
    assumptions: ['A-3', 'A-24'],
    hint: 'Use your endpointId.',
    codes: ['ENDPOINT_UNKNOWN'],
    fixedIn: 'configuration',
  },
  'control-signature': {
    clause: 'Scheme A',
    basis: 'spec',
    assumptions: [],
    hint: 'Sign in cents.',
    // A signature rule may refuse with a field's code too: that code is still required-fields' own.
    codes: ['CONTROL_INVALID', 'FIELD_MISSING'],
  },
  'required-fields': { clause: 'Fields', basis: 'spec', assumptions: [], hint: 'Send it.', codes: ['FIELD_MISSING'] },
  'reference-known': {
    clause: 'Orders',
    basis: 'spec',
    assumptions: [],
    hint: 'Name an order.',
    codes: ['REF_UNKNOWN'],
  },
  'refusal-code': {
    clause: 'A-21',
    basis: 'assumption',
    assumptions: ['A-21'],
    hint: 'Answer with the code of the rule broken.',
    codes: [],
  },
};

let n = 0;
function scenario(name: string, tags: string[], failure?: string, finding?: Finding): object[] {
  n++;
  const found = finding === undefined ? [] : [JSON.stringify(finding)];
  return [
    { pickle: { id: `p${n}`, name, uri: 'features/x.feature', tags: tags.map((t) => ({ name: t })) } },
    { testCase: { id: `c${n}`, pickleId: `p${n}` } },
    { testCaseStarted: { id: `s${n}`, testCaseId: `c${n}` } },
    ...found.map((body) => ({ attachment: { testCaseStartedId: `s${n}`, mediaType: FINDING_MEDIA_TYPE, body } })),
    {
      testStepFinished: {
        testCaseStartedId: `s${n}`,
        testStepResult: failure === undefined ? { status: 'PASSED' } : { status: 'FAILED', message: failure },
      },
    },
    { testCaseFinished: { testCaseStartedId: `s${n}`, willBeRetried: false } },
  ];
}

const record = (...scenarios: object[][]): RunRecord =>
  RunRecord.fromNdjson(
    scenarios
      .flat()
      .map((m) => JSON.stringify(m))
      .join('\n'),
  );

const refusedSale = (serial: number): string =>
  `{"type":"validation-error","error-code":"CONTROL_INVALID","error-message":"control: no","serial-number":"${serial}"}`;
const stack = '\n    at Object.step (steps/x.ts:1:1)';

/** What a step attaches when an answer's status is not the 200 it expected. */
const refusedFinding = (operation: string, status: number, errorCode: string): Finding => ({
  kind: 'refused-met',
  check: `${operation} status`,
  expected: '200 (accepted)',
  actual: String(status),
  exchange: { operation, status, errorCode },
});

const run = record(
  scenario(
    'a signed SALE is accepted',
    ['@endpoint:SALE', '@positive', '@scheme:control'],
    `AssertionError [ERR_ASSERTION]: SALE status: expected 200 (accepted), got 400 (the spec)\n` +
      `SALE answered 400: ${refusedSale(1)}${stack}`,
    refusedFinding('SALE', 400, 'CONTROL_INVALID'),
  ),
  scenario(
    'a SALE in unicode is accepted',
    ['@endpoint:SALE', '@scheme:control'],
    `AssertionError [ERR_ASSERTION]: A-23: SALE status: expected 200 (accepted), got 400 (an assumption: ` +
      `docs/assumptions.md; a failure against the embedded mock or with --strict)\nSALE answered 400: ${refusedSale(2)}`,
    refusedFinding('SALE', 400, 'CONTROL_INVALID'),
  ),
  ...['STATUS', 'RETURN', 'VOID'].map((op, i) =>
    scenario(
      `${op} of a sale`,
      [`@endpoint:${op}`],
      `PayconformError: ${op} needs an orderid from SALE, which answered 400: ${refusedSale(10 + i)}${stack}`,
      {
        kind: 'refused-met',
        check: `${op} needs orderid from SALE`,
        expected: 'SALE accepted',
        actual: '400',
        exchange: { operation: 'SALE', status: 400, errorCode: 'CONTROL_INVALID' },
        prerequisite: { operation: 'SALE', status: 400 },
      },
    ),
  ),
  scenario(
    'a SALE signed with the decimal-amount mistake is refused',
    ['@endpoint:SALE', '@negative', '@spec:authentication', '@scheme:control'],
    `AssertionError [ERR_ASSERTION]: SALE status: expected a refusal (no 2xx), got 200 (the spec)\n` +
      `SALE answered 200: {"type":"async-response"}`,
    {
      kind: 'accepted-wrong',
      check: 'SALE status',
      expected: 'a refusal (no 2xx)',
      actual: '200',
      exchange: { operation: 'SALE', status: 200 },
    },
  ),
  // The expected code and the one answered are both of reference-known: the code is the gateway's mistake.
  scenario(
    'a rebill of an unknown reference is refused',
    ['@endpoint:REBILL'],
    `AssertionError [ERR_ASSERTION]: A-21: error code: expected REF_UNKNOWN, got OTHER (rule refusal-code) ` +
      `(an assumption)\nREBILL answered 400: {"error-code":"OTHER"}`,
    {
      kind: 'refused-met',
      rule: 'refusal-code',
      check: 'error code',
      expected: 'REF_UNKNOWN',
      actual: 'OTHER',
      expectedCode: 'REF_UNKNOWN',
      exchange: { operation: 'REBILL', status: 400, errorCode: 'OTHER' },
    },
  ),
  scenario('a page pays', ['@endpoint:SALEFORM'], 'AssertionError [ERR_ASSERTION]: the page accepts the payment'),
  scenario('a passing one', ['@endpoint:SALE']),
);

describe('failures grouped by their first cause', () => {
  const causes = causesOf(run.results, RULES);

  it('groups by rule and how it was missed, largest first, prerequisites blocked under their cause', () => {
    assert.deepEqual(
      causes.map((c) => [c.rule ?? c.check, c.kind, c.scenarios.length, c.blocked.length]),
      [
        ['control-signature', 'refused-met', 2, 3],
        ['control-signature', 'accepted-wrong', 1, 0],
        ['refusal-code', 'answered-wrong', 1, 0],
        ['the page accepts the payment', 'untraced', 1, 0],
      ],
    );
    const [first] = causes;
    assert.deepEqual(
      first?.blocked.map((b) => [b.name, b.exchange]),
      [
        ['STATUS of a sale', 'SALE answered 400 CONTROL_INVALID'],
        ['RETURN of a sale', 'SALE answered 400 CONTROL_INVALID'],
        ['VOID of a sale', 'SALE answered 400 CONTROL_INVALID'],
      ],
    );
    assert.equal(first?.scenarios[0]?.exchange, 'SALE answered 400 CONTROL_INVALID');
  });

  it('names clause, basis, who must act and a fix spoken to them', () => {
    const [refused, accepted, code] = causes;
    assert.equal(refused?.clause, 'Scheme A');
    assert.equal(refused?.basis, 'spec');
    assert.equal(refused?.actor, 'gateway');
    assert.match(refused?.fix ?? '', /the gateway refused, citing control-signature, requests that meet it/);
    assert.doesNotMatch(refused?.fix ?? '', /Sign in cents/, "the sender's hint is not the gateway's fix");
    assert.match(
      accepted?.fix ?? '',
      /accepted requests that break control-signature: refuse them \(CONTROL_INVALID\)/,
    );
    assert.equal(code?.basis, 'A-21');
    assert.equal(code?.fix, 'Answer with the code of the rule broken.');
  });

  it('a code is traced to the rule whose own code it is, not to one that borrows it', () => {
    const [cause] = causesOf(
      record(
        scenario(
          'a CAPTURE is accepted',
          ['@endpoint:CAPTURE'],
          'CAPTURE status: expected 200 (accepted), got 400 (the spec)\nCAPTURE answered 400: {"error-code":"FIELD_MISSING"}',
          refusedFinding('CAPTURE', 400, 'FIELD_MISSING'),
        ),
      ).results,
      RULES,
    );
    assert.equal(cause?.rule, 'required-fields');
  });

  it("a refusal under a later rule than the scenario's own means its own mistake was let through", () => {
    const traced = causesOf(
      record(
        // A wrong control let through, then refused for the reference its changed field names.
        scenario(
          'CARDINFO with a wrong control value is refused',
          ['@endpoint:CARDINFO', '@negative:signature-wrong', '@scheme:control'],
          'A-21: error code: expected CONTROL_INVALID, got REF_UNKNOWN (rule refusal-code)\n' +
            'CARDINFO answered 400: {"error-code":"REF_UNKNOWN"}',
          {
            kind: 'refused-met',
            rule: 'refusal-code',
            check: 'error code',
            expected: 'CONTROL_INVALID',
            actual: 'REF_UNKNOWN',
            expectedCode: 'CONTROL_INVALID',
            exchange: { operation: 'CARDINFO', status: 400, errorCode: 'REF_UNKNOWN' },
          },
        ),
        // A missing field refused under the signature, a rule before its own: its control was right.
        scenario(
          'SALE without its mandatory "currency" field is refused',
          ['@endpoint:SALE', '@negative:field-missing', '@scheme:control'],
          'A-25: field named by the error: expected currency, got control (rule error-names-field)\n' +
            'SALE answered 400: {"error-code":"CONTROL_INVALID"}',
          {
            kind: 'refused-met',
            rule: 'error-names-field',
            check: 'field named by the error',
            expected: 'currency',
            actual: 'control',
            exchange: { operation: 'SALE', status: 400, errorCode: 'CONTROL_INVALID' },
          },
        ),
      ).results,
      RULES,
    );
    assert.deepEqual(
      traced.map((c) => [c.rule, c.kind]),
      [
        ['control-signature', 'accepted-wrong'],
        ['control-signature', 'refused-met'],
      ],
    );
  });

  it("a refusal under a rule of the sender's configuration is the merchant's configuration to fix", () => {
    const [cause] = causesOf(
      record(
        scenario(
          'a SALE is accepted',
          ['@endpoint:SALE'],
          'SALE status: expected 200 (accepted), got 400 (the spec)\nSALE answered 400: {"error-code":"ENDPOINT_UNKNOWN"}',
          refusedFinding('SALE', 400, 'ENDPOINT_UNKNOWN'),
        ),
      ).results,
      RULES,
    );
    assert.deepEqual(
      [cause?.rule, cause?.actor, cause?.basis],
      ['endpoint-owner', 'merchant-configuration', 'A-3, A-24'],
    );
    assert.match(cause?.fix ?? '', /Use your endpointId/);
  });

  it('summary.json carries them, and the console prints one line each', () => {
    assert.deepEqual(summarize(run, 'gateway', {}, RULES).causes, causes);
    const lines = causesLines(causes);
    assert.equal(lines[0], 'causes: 4 behind 8 failures, largest first (report.html lists each)');
    assert.match(lines[1] ?? '', /^ {3}2 \(\+3 blocked\) control-signature \[refused-met\] → the gateway: /);
    assert.deepEqual(causesLines([]), []);
  });

  it('the page section: blocked scenarios always collapsed, own failures once there are more than five', () => {
    const html = causesSection(causes);
    assert.match(html, /<h2>Causes \(4\)<\/h2>/);
    assert.match(html, /<details><summary>blocked by it: 3 scenarios whose prerequisite was refused<\/summary>/);
    assert.doesNotMatch(html, /its own failures/);
    assert.equal(causesSection([]), '');
    const many = causesOf(
      record(
        ...Array.from({ length: 6 }, (_, i) =>
          scenario(
            `sale ${i}`,
            [],
            `SALE status: expected 200 (accepted), got 400 (the spec)\nSALE answered 400: ${refusedSale(i)}`,
            refusedFinding('SALE', 400, 'CONTROL_INVALID'),
          ),
        ),
      ).results,
      RULES,
    );
    assert.match(causesSection(many), /<details><summary>its own failures: 6 scenarios<\/summary>/);
  });

  it("the book's table says where a sender fixes each rule", () => {
    assert.equal(CAUSE_FACTS['consumer-key-known']?.fixedIn, 'configuration');
    assert.equal(CAUSE_FACTS['control-signature']?.fixedIn, undefined);
    assert.equal(CAUSE_FACTS['control-signature']?.codes[0], 'CONTROL_INVALID');
  });
});
