import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFECT_NAMES } from '../../src/mock/defects.ts';
import { isClean, judge, unkilledNegatives } from '../../src/prove/judge.ts';
import { readLedgers, type Ledger } from '../../src/prove/ledger.ts';
import { runDefect } from '../../src/prove/run-defect.ts';
import type { ScenarioResult } from '../../src/report/bundle.ts';
import { runCli } from '../support/cli.ts';

const LEDGERS = new URL('../../features/expected-failures', import.meta.url).pathname;

const scenario = (name: string, tags: string[], outcome: ScenarioResult['outcome'] = 'passed'): ScenarioResult => ({
  name,
  uri: 'features/x.feature',
  tags,
  outcome,
  warnings: [],
});
const ledger = (mustFail: Ledger['mustFail']): Ledger => ({ file: 'x.json', defect: 'pay-twice', mustFail });

/** A directory holding a valid ledger for every defect, so one file at a time can be broken. */
function ledgerDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ledgers-'));
  for (const defect of DEFECT_NAMES)
    writeFileSync(
      join(dir, `${defect}.json`),
      JSON.stringify({ defect, mustFail: [{ all: true, why: 'fails everything here' }] }),
    );
  return dir;
}

describe('expected-failure ledgers', () => {
  it('the project has one valid ledger per defect', () => {
    const ledgers = readLedgers(LEDGERS);
    assert.deepEqual([...ledgers.keys()].sort(), [...DEFECT_NAMES].sort());
  });

  const broken: Array<[string, string, RegExp]> = [
    ['not JSON', '{', /pay-twice\.json: \/: is not JSON/],
    [
      'an unknown defect',
      JSON.stringify({ defect: 'nope', mustFail: [{ all: true, why: 'fails everything' }] }),
      /\/defect: must name a defect/,
    ],
    [
      'another defect than its file name',
      JSON.stringify({ defect: 'lose-order', mustFail: [{ all: true, why: 'fails everything' }] }),
      /\/defect: must match the file name \(pay-twice\)/,
    ],
    [
      'an entry without name, tags or all',
      JSON.stringify({ defect: 'pay-twice', mustFail: [{ why: 'no selector at all' }] }),
      /\/mustFail\/0/,
    ],
    [
      'an entry with all and a name',
      JSON.stringify({ defect: 'pay-twice', mustFail: [{ all: true, name: 'x', why: 'both at once here' }] }),
      /\/mustFail\/0/,
    ],
    [
      'an entry without a reason',
      JSON.stringify({ defect: 'pay-twice', mustFail: [{ name: 'x' }] }),
      /\/mustFail\/0: must have required property 'why'/,
    ],
    [
      'a bad tag expression',
      JSON.stringify({ defect: 'pay-twice', mustFail: [{ tags: '@a and', why: 'a broken expression' }] }),
      /\/mustFail\/0\/tags: is not a tag expression/,
    ],
  ];
  for (const [what, text, error] of broken) {
    it(`refuses a ledger with ${what}, naming the file and the place`, () => {
      const dir = ledgerDir();
      try {
        writeFileSync(join(dir, 'pay-twice.json'), text);
        assert.throws(() => readLedgers(dir), error);
      } finally {
        rmSync(dir, { recursive: true });
      }
    });
  }

  it('refuses a directory where a defect has no ledger', () => {
    const dir = ledgerDir();
    try {
      rmSync(join(dir, 'lose-order.json'));
      assert.throws(
        () => readLedgers(dir),
        /lose-order\.json: \/: is missing: every defect needs a ledger \(lose-order\)/,
      );
    } finally {
      rmSync(dir, { recursive: true });
    }
  });
});

describe('judging a run against its ledger', () => {
  const results = [
    scenario('void twice is refused', ['@negative', '@endpoint:VOID'], 'failed'),
    scenario('sale is accepted', ['@positive', '@endpoint:SALE']),
    scenario('pay twice is refused', ['@negative', '@endpoint:PAYOUT_V4_PAY'], 'failed'),
  ];

  it('is clean when exactly the listed scenarios failed', () => {
    const j = judge(
      { defect: 'pay-twice', results },
      ledger([
        { name: 'void twice is refused', why: 'listed by name' },
        { tags: '@endpoint:PAYOUT_V4_PAY and @negative', why: 'listed by tag' },
      ]),
    );
    assert.equal(isClean(j), true);
    assert.equal(j.killed.length, 2);
  });

  it('reports a listed scenario that passed, an unlisted one that failed and an entry that matches nothing', () => {
    const j = judge(
      { defect: 'pay-twice', results },
      ledger([
        { name: 'void twice is refused', why: 'listed by name' },
        { tags: '@positive', why: 'should fail but passes' },
        { name: 'no such scenario', tags: '@negative', why: 'matches no scenario' },
      ]),
    );
    assert.equal(isClean(j), false);
    assert.deepEqual(
      j.survived.map((s) => s.name),
      ['sale is accepted'],
    );
    assert.deepEqual(
      j.unexpected.map((s) => s.name),
      ['pay twice is refused'],
    );
    assert.deepEqual(
      j.unmatchedEntries.map((e) => e.name),
      ['no such scenario'],
    );
  });

  it('a name and tags together must both match', () => {
    const j = judge(
      { defect: 'pay-twice', results },
      ledger([{ name: 'void twice is refused', tags: '@endpoint:SALE', why: 'wrong endpoint tag' }]),
    );
    assert.equal(j.unmatchedEntries.length, 1);
  });

  it('treats undefined or skipped steps as a broken suite, and an empty run as unclean', () => {
    const j = judge(
      { defect: 'pay-twice', results: [scenario('half-written', ['@positive'], 'undefined')] },
      ledger([{ all: true, why: 'everything fails' }]),
    );
    assert.deepEqual(
      j.broken.map((s) => s.name),
      ['half-written'],
    );
    assert.equal(isClean(j), false);
    assert.equal(
      isClean(judge({ defect: 'pay-twice', results: [] }, ledger([{ all: true, why: 'everything fails' }]))),
      false,
    );
  });

  it('against the correct mock any failure is unexpected', () => {
    const j = judge({ defect: undefined, results }, undefined);
    assert.equal(j.unexpected.length, 2);
  });

  it('finds negative scenarios that no defect made fail, not counting a defect that fails everything', () => {
    const baseline = { defect: undefined, results: results.map((s) => ({ ...s, outcome: 'passed' as const })) };
    const targeted = judge(
      {
        defect: 'pay-twice',
        results: results.map((s) => ({
          ...s,
          outcome: s.name.startsWith('pay') ? ('failed' as const) : ('passed' as const),
        })),
      },
      undefined,
    );
    const everything = judge(
      { defect: 'wrong-response-content-type', results: results.map((s) => ({ ...s, outcome: 'failed' as const })) },
      undefined,
    );
    assert.deepEqual(
      unkilledNegatives(baseline, [targeted, everything], new Set(['wrong-response-content-type'])).map((s) => s.name),
      ['void twice is refused'],
    );
    assert.deepEqual(unkilledNegatives(baseline, [targeted, everything], new Set()), []);
  });
});

describe("judging a run's causes against its ledger", () => {
  // A second PAYOUT_V4_PAY accepted, in the words and the finding the step writes; the rule is the
  // scenario's @rule: tag.
  const paidTwice: ScenarioResult = {
    ...scenario('pay twice is refused', ['@negative', '@rule:pay-once'], 'failed'),
    failure: 'PAYOUT_V4_PAY status: expected a refusal (no 2xx), got 200 (the spec)\nPAYOUT_V4_PAY answered 200: {}',
    findings: [
      {
        kind: 'accepted-wrong',
        check: 'PAYOUT_V4_PAY status',
        expected: 'a refusal (no 2xx)',
        actual: '200',
        exchange: { operation: 'PAYOUT_V4_PAY', status: 200 },
      },
    ],
  };
  const entry = { name: 'pay twice is refused', why: 'listed by name' };
  const withCauses = (causes: string[], all = false): Ledger => ({
    ...ledger([all ? { all: true, why: 'everything fails' } : entry]),
    causes,
  });

  it('is clean when the failures trace to exactly the causes the ledger names', () => {
    const j = judge({ defect: 'pay-twice', results: [paidTwice] }, withCauses(['pay-once']));
    assert.deepEqual(j.causes, ['pay-once']);
    assert.equal(isClean(j), true);
  });

  it('reports a cause the ledger names that the run did not show, and one it shows that the ledger does not', () => {
    const j = judge({ defect: 'pay-twice', results: [paidTwice] }, withCauses(['order-not-voided']));
    assert.deepEqual([j.missingCauses, j.unexpectedCauses], [['order-not-voided'], ['pay-once']]);
    assert.equal(isClean(j), false);
  });

  it("for a ledger of all, only asks that the causes it names are among the run's", () => {
    const broken = { ...scenario('other', [], 'failed'), failure: 'the page accepts the payment' };
    const j = judge({ defect: 'pay-twice', results: [paidTwice, broken] }, withCauses(['pay-once'], true));
    assert.deepEqual(j.causes, ['pay-once', 'untraced: the page accepts the payment']);
    assert.equal(isClean(j), true);
  });

  it('every ledger of features/expected-failures names its causes', () => {
    for (const l of readLedgers(LEDGERS).values()) assert.ok(l.causes?.length, `${l.file} names no causes`);
  });
});

describe('payconform mock --list-defects / --defect', () => {
  it('lists every defect with one line each', async () => {
    const { code, out } = await runCli(['mock', '--list-defects']);
    assert.equal(code, 0);
    const lines = out.trim().split('\n');
    assert.deepEqual(
      lines.map((l) => l.split(/\s+/)[0]),
      DEFECT_NAMES,
    );
    for (const line of lines) assert.match(line, /^\S+\s{2,}\S.{10,}$/);
  });

  it('refuses an unknown defect with exit 2, naming the option', async () => {
    const { code, err } = await runCli(['mock', '--defect', 'accept-everything']);
    assert.equal(code, 2);
    assert.match(err, /--defect: must be one of the defects listed by "payconform mock --list-defects"/);
  });

  it('certify refuses --defect with --base-url: defects exist only in the embedded mock', async () => {
    const { code, err } = await runCli(['certify', '--defect', 'pay-twice', '--base-url', 'http://127.0.0.1:9']);
    assert.equal(code, 2);
    assert.match(err, /--defect: applies to the embedded mock only/);
  });
});

// prove replaces its own earlier run and nothing else: it emptied its defect's folder with rm -r before.
describe("a defect run's folder", () => {
  it('is refused when it holds a file no run wrote, and the file is kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payconform-prove-'));
    try {
      writeFileSync(join(dir, 'notes.txt'), 'mine');
      await assert.rejects(
        runDefect(undefined, dir),
        /is not empty and is not a certify bundle \(it holds notes\.txt\)/,
      );
      assert.equal(readFileSync(join(dir, 'notes.txt'), 'utf8'), 'mine');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
