// The proof record (proof/proof.json, docs/prove.md "The proof record"): how `npm run prove -- --record`
// writes it from judged runs, where its mutation scores come from, and that the committed one still
// agrees with the ledgers and the feature files.
import { describe, it } from 'node:test';
import { spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateMessages } from '@cucumber/gherkin';
import { IdGenerator, SourceMediaType } from '@cucumber/messages';
import type { DefectRun } from '../../src/prove/judge.ts';
import { readLedgers, type Ledger } from '../../src/prove/ledger.ts';
import { mutationScores, scoresFromReport } from '../../src/prove/mutation-scores.ts';
import { proofRecordProblems, type DefinedScenario } from '../../src/prove/proof-check.ts';
import { gitState, proofRecordOf, proofRecordText, writeProofRecord } from '../../src/prove/proof-record.ts';
import type { ScenarioResult } from '../../src/report/bundle.ts';
import { readProofRecord, type MutationScore, type ProofRecord } from '../../src/report/proof.ts';

const ROOT = new URL('../..', import.meta.url).pathname;

const result = (name: string, outcome: ScenarioResult['outcome'] = 'passed', uri = 'features/a.feature') => ({
  name,
  uri,
  tags: [],
  outcome,
  warnings: [],
});

// Three scenarios; pay-twice kills the second, lose-order the second and third; the blanket one all.
const RUNS: DefectRun[] = [
  { defect: undefined, results: [result('one'), result('two'), result('three', 'passed', 'features/b.feature')] },
  {
    defect: 'pay-twice',
    results: [result('one'), result('two', 'failed'), result('three', 'passed', 'features/b.feature')],
  },
  {
    defect: 'wrong-response-content-type',
    results: [result('one', 'failed'), result('two', 'failed'), result('three', 'failed', 'features/b.feature')],
  },
  {
    defect: 'lose-order',
    results: [result('one'), result('two', 'failed'), result('three', 'failed', 'features/b.feature')],
  },
];
const SCORE: MutationScore = {
  of: 'src/rules',
  score: 98.66,
  detected: 2277,
  counted: 2308,
  measured: '2026-11-26',
  source: 'docs/mutation.md',
};
const FACTS = {
  date: '2026-11-28T10:00:00Z',
  payconform: '0.1.0',
  commit: 'abc',
  uncommitted: false,
  mutation: [SCORE],
};

describe('writing the proof record', () => {
  it('lists for each scenario of the correct run the defects it failed against, the blanket one once', () => {
    const record = proofRecordOf(RUNS, new Set(['wrong-response-content-type']), FACTS);
    assert.deepEqual(record.defects, ['pay-twice', 'lose-order']);
    assert.deepEqual(record.blanket, ['wrong-response-content-type']);
    assert.deepEqual(record.scenarios, {
      'features/a.feature': { one: [], two: [0, 1] },
      'features/b.feature': { three: [1] },
    });
    assert.equal(record.date, '2026-11-28T10:00:00Z');
    assert.deepEqual(record.mutation, [SCORE]);
  });

  it('refuses runs that do not start with the correct mock', () => {
    assert.throws(() => proofRecordOf(RUNS.slice(1), new Set(), FACTS), /correct mock first/);
  });

  it('writes a file readProofRecord reads back, each list on one line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'proof-'));
    try {
      const file = join(dir, 'proof', 'proof.json');
      const record = proofRecordOf(RUNS, new Set(['wrong-response-content-type']), FACTS);
      writeProofRecord(file, record);
      const text = readFileSync(file, 'utf8');
      assert.match(text, /"two": \[0,1\]\n/);
      assert.match(text, /"one": \[\],\n/);
      const read = readProofRecord(file);
      assert.ok('record' in read, JSON.stringify(read));
      const { $comment, ...back } = read.record as ProofRecord & { $comment: string };
      assert.match($comment, /npm run prove -- --record/);
      assert.deepEqual(back, record);
      assert.equal(proofRecordText(record), text);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it('is refused with --defect: a record of one defect would say every other check fails against nothing', () => {
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'scripts/prove.ts', '--record', '--defect', 'pay-twice'],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    assert.deepEqual([r.status, r.stderr], [2, 'prove: --record: must run every defect (leave out --defect)\n']);
  });

  it('knows no commit outside a git checkout', () => {
    const dir = mkdtempSync(join(tmpdir(), 'proof-nogit-'));
    try {
      assert.deepEqual(gitState(dir, 'proof/proof.json'), {});
    } finally {
      rmSync(dir, { recursive: true });
    }
  });
});

describe("the record's mutation scores", () => {
  /** A Stryker report of `files` from a run that mutated `mutate`, in a folder of its own. */
  function project(mutate: string[], files: Record<string, string[]>): { root: string; report: string } {
    const root = mkdtempSync(join(tmpdir(), 'proof-mutation-'));
    const report = join(root, 'mutation.json');
    const json = Object.fromEntries(
      Object.entries(files).map(([path, statuses]) => [path, { mutants: statuses.map((status) => ({ status })) }]),
    );
    writeFileSync(report, JSON.stringify({ files: json, config: { mutate } }));
    utimesSync(report, new Date('2026-11-27T08:00:00Z'), new Date('2026-11-27T08:00:00Z'));
    return { root, report };
  }

  it('scores a folder the run mutated whole, as Stryker counts (errors and ignored left out)', () => {
    const { root, report } = project(['src/signing/**/*.ts', 'src/rules/**/*.ts'], {
      'src/signing/a.ts': ['Killed', 'Killed', 'Timeout', 'Survived', 'CompileError', 'Ignored'],
      'src/signing/sub/b.ts': ['Killed', 'NoCoverage', 'RuntimeError'],
      'src/rules/c.ts': ['Killed'],
    });
    try {
      // 4 detected (3 killed, 1 timed out) of 6 counted (and 1 survived, 1 not covered): 66.67 %.
      const [signing, rules] = scoresFromReport(root, report, ['src/signing', 'src/rules']);
      assert.deepEqual(
        { ...signing, source: undefined },
        {
          of: 'src/signing',
          score: 66.67,
          detected: 4,
          counted: 6,
          measured: '2026-11-27T08:00:00Z',
          source: undefined,
        },
      );
      assert.match(signing?.source ?? '', /^mutation\.json \(Stryker's report/);
      assert.equal(rules?.score, 100);
    } finally {
      rmSync(root, { recursive: true });
    }
  });

  it('leaves out a folder the report measured only in part, and carries the previous figure for it', () => {
    // As `stryker run --mutate 'src/signing/a.ts,src/rules/**/*.ts'` would: the signer in part, the book whole.
    const { root, report } = project(['src/signing/a.ts', 'src/rules/**/*.ts', '!src/vectors/x.ts'], {
      'src/signing/a.ts': ['Killed'],
      'src/rules/c.ts': ['Survived', 'Killed'],
    });
    try {
      const fresh = scoresFromReport(root, report, ['src/signing', 'src/rules']);
      assert.deepEqual(
        fresh.map((m) => [m.of, m.score]),
        [['src/rules', 50]],
      );
      const carried = { ...SCORE, of: 'src/signing' };
      assert.deepEqual(mutationScores(fresh, [carried, SCORE], ['src/signing', 'src/rules']), [carried, fresh[0]]);
      assert.deepEqual(mutationScores([], [], ['src/signing']), []);
      const excluded = project(['src/rules/**/*.ts', '!src/rules/c.ts'], { 'src/rules/d.ts': ['Killed'] });
      assert.deepEqual(scoresFromReport(excluded.root, excluded.report, ['src/rules']), []);
      rmSync(excluded.root, { recursive: true });
    } finally {
      rmSync(root, { recursive: true });
    }
  });
});

/** Every scenario the feature files define, with its tags, as cucumber makes them (outline rows filled in). */
function definedScenarios(): DefinedScenario[] {
  const newId = IdGenerator.uuid();
  return readdirSync(join(ROOT, 'features'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.feature'))
    .sort()
    .flatMap((f) => {
      const uri = `features/${f}`;
      return generateMessages(
        readFileSync(join(ROOT, uri), 'utf8'),
        uri,
        SourceMediaType.TEXT_X_CUCUMBER_GHERKIN_PLAIN,
        {
          includePickles: true,
          newId,
        },
      ).flatMap((e) => (e.pickle ? [{ uri, name: e.pickle.name, tags: e.pickle.tags.map((t) => t.name) }] : []));
    });
}

describe('the committed proof record', () => {
  const ledger = (defect: string, mustFail: Ledger['mustFail']): Ledger =>
    ({ file: `${defect}.json`, defect, mustFail }) as Ledger;
  const LEDGERS = new Map<string, Ledger>([
    ['pay-twice', ledger('pay-twice', [{ name: 'two', why: 'the second pay goes through' }])],
    ['lose-order', ledger('lose-order', [{ tags: '@flow', why: 'flows lose their order' }])],
    ['wrong-response-content-type', ledger('wrong-response-content-type', [{ all: true, why: 'nothing reads' }])],
  ]);
  const DEFINED: DefinedScenario[] = [
    { uri: 'features/a.feature', name: 'one', tags: [] },
    { uri: 'features/a.feature', name: 'two', tags: ['@flow'] },
    { uri: 'features/b.feature', name: 'three', tags: ['@flow'] },
  ];
  const record = proofRecordOf(RUNS, new Set(['wrong-response-content-type']), FACTS);

  it('agrees with ledgers and scenarios it was made from', () => {
    assert.deepEqual(proofRecordProblems(record, LEDGERS, DEFINED), []);
  });

  it('is stale when a defect is missing, a ledger or a scenario changed', () => {
    const withNew = new Map(LEDGERS).set('pay-twice-again', ledger('pay-twice-again', [{ name: 'one', why: 'x' }]));
    assert.deepEqual(proofRecordProblems(record, withNew, DEFINED), [
      'defects the record does not name: pay-twice-again',
    ]);
    const widened = new Map(LEDGERS).set('pay-twice', ledger('pay-twice', [{ tags: '@flow', why: 'x' }]));
    assert.deepEqual(proofRecordProblems(record, widened, DEFINED), [
      "pay-twice: the ledger's scenarios the record does not list: features/b.feature: three",
    ]);
    const renamed = DEFINED.map((s) => (s.name === 'one' ? { ...s, name: 'one, renamed' } : s));
    assert.deepEqual(proofRecordProblems(record, LEDGERS, renamed), [
      'scenarios the record does not hold: features/a.feature: one, renamed',
      'scenarios the record holds that no feature defines: features/a.feature: one',
    ]);
    const narrowed = new Map(LEDGERS).set('lose-order', ledger('lose-order', [{ name: 'two', why: 'x' }]));
    assert.deepEqual(proofRecordProblems(record, narrowed, DEFINED), [
      'lose-order: scenarios the record lists that the ledger does not: features/b.feature: three',
    ]);
  });

  it('proof/proof.json agrees with features/expected-failures and the features (else: npm run prove -- --record)', () => {
    const read = readProofRecord(join(ROOT, 'proof', 'proof.json'));
    assert.ok('record' in read, `${'unavailable' in read ? read.unavailable : ''}: run npm run prove -- --record`);
    const problems = proofRecordProblems(
      read.record,
      readLedgers(join(ROOT, 'features', 'expected-failures')),
      definedScenarios(),
    );
    assert.deepEqual(problems, [], `the proof record is stale: run npm run prove -- --record\n${problems.join('\n')}`);
  });
});
