// The certificate's proof (report/proof.ts, proof-html.ts): for each passed check, the broken gateways
// the proof record says it fails against, and the page that shows it. The record and the run are written
// out here by hand, so each expected line is known from them, not from the code.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Summary } from '../../src/report/bundle.ts';
import { certificationPage, type CertificationFacts } from '../../src/report/certification-page.ts';
import { proofOfRun, readProofRecord, type ProofRecord } from '../../src/report/proof.ts';
import type { ScenarioResult } from '../../src/report/run-record.ts';

const RECORD: ProofRecord = {
  date: '2026-11-28T10:00:00Z',
  payconform: '0.1.0',
  commit: '0123456789abcdef0123',
  uncommitted: false,
  defects: ['accept-any-control', 'pay-twice'],
  blanket: ['wrong-response-content-type'],
  scenarios: {
    'features/sale.feature': {
      'SALE with a wrong <control> is refused': [0],
      'SALE is accepted': [],
    },
    'features/payout.feature': { 'pay twice is refused': [1, 0] },
  },
  mutation: [
    {
      of: 'src/signing',
      score: 99.03,
      detected: 1834,
      counted: 1852,
      measured: '2026-11-26',
      source: 'docs/mutation.md',
    },
  ],
};

const scenario = (uri: string, name: string, extra: Partial<ScenarioResult> = {}): ScenarioResult => ({
  uri,
  name,
  tags: [],
  outcome: 'passed',
  warnings: [],
  ...extra,
});

const RESULTS: ScenarioResult[] = [
  scenario('features/sale.feature', 'SALE with a wrong <control> is refused'),
  scenario('features/sale.feature', 'SALE is accepted'),
  scenario('features/payout.feature', 'pay twice is refused'),
  scenario('features/payout.feature', 'a new scenario'),
  scenario('features/payout.feature', 'a failed one', { outcome: 'failed' }),
  scenario('features/sale.feature', 'SALE is accepted', { notApplicable: 'not here', uri: 'features/other.feature' }),
];

describe('the proof of each passed check', () => {
  it('names the defects each passed check fails against, and says which are not proven', () => {
    const proof = proofOfRun(RESULTS, { record: RECORD }, '0.1.0');
    assert.deepEqual(proof.checks, [
      {
        uri: 'features/sale.feature',
        name: 'SALE with a wrong <control> is refused',
        status: 'proven',
        failsAgainst: ['accept-any-control'],
      },
      { uri: 'features/sale.feature', name: 'SALE is accepted', status: 'no-defect' },
      {
        uri: 'features/payout.feature',
        name: 'pay twice is refused',
        status: 'proven',
        failsAgainst: ['pay-twice', 'accept-any-control'],
      },
      { uri: 'features/payout.feature', name: 'a new scenario', status: 'not-proven' },
    ]);
    assert.deepEqual(proof.counts, { proven: 2, noDefect: 1, notProven: 1 });
    assert.deepEqual(proof.recorded, {
      date: '2026-11-28T10:00:00Z',
      payconform: '0.1.0',
      commit: '0123456789abcdef0123',
      uncommitted: false,
    });
    assert.equal(proof.otherVersion, undefined);
    assert.deepEqual(proof.blanket, ['wrong-response-content-type']);
    assert.equal(proof.mutation[0]?.score, 99.03);
  });

  it('says when the record is of another payconform version', () => {
    assert.equal(proofOfRun(RESULTS, { record: RECORD }, '0.2.0').otherVersion, '0.1.0');
  });

  it('without a record, proves nothing and says why', () => {
    const proof = proofOfRun(RESULTS, { unavailable: 'no proof record ships with this payconform' }, '0.1.0');
    assert.deepEqual(proof.counts, { proven: 0, noDefect: 0, notProven: 4 });
    assert.equal(proof.unavailable, 'no proof record ships with this payconform');
    assert.equal(proof.recorded, undefined);
  });

  it('reads a record, and says why it cannot (missing, not JSON, not valid, an index out of range)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'proof-read-'));
    try {
      const file = join(dir, 'proof.json');
      assert.deepEqual(readProofRecord(file), { unavailable: 'no proof record ships with this payconform' });
      writeFileSync(file, '{');
      assert.match(String(Object.values(readProofRecord(file))[0]), /^the proof record is not JSON/);
      writeFileSync(file, JSON.stringify({ ...RECORD, date: 3 }));
      assert.deepEqual(readProofRecord(file), { unavailable: 'the proof record is not valid: /date: must be string' });
      writeFileSync(file, JSON.stringify({ ...RECORD, scenarios: { 'features/a.feature': { x: [2] } } }));
      assert.deepEqual(readProofRecord(file), {
        unavailable: 'the proof record names a defect by an index it does not hold',
      });
      writeFileSync(file, JSON.stringify(RECORD));
      assert.deepEqual(readProofRecord(file), { record: RECORD });
    } finally {
      rmSync(dir, { recursive: true });
    }
  });
});

const COUNTS = { passed: 4, failed: 1, other: 0, warned: 0, notApplicable: 1 };
const SUMMARY: Summary = {
  target: 'http://gateway.test',
  versions: { payconform: '0.1.0' },
  startedAt: '2026-11-28T10:30:00Z',
  finishedAt: '2026-11-28T10:31:00Z',
  totals: COUNTS,
  endpoints: {},
  tags: {},
  failed: [],
  status: 'failed',
  warnings: { total: 0, byAssumption: {}, list: [] },
  notApplicable: [],
  causes: [],
};
const FACTS: CertificationFacts = {
  target: 'http://gateway.test',
  endpointIds: ['1'],
  payconform: '0.1.0',
  specSha256: '0'.repeat(64),
  profile: 'spec',
  deviations: [],
  selection: 'all',
  shard: null,
  strict: false,
  live: false,
  interrupted: false,
  rules: {},
  assumptions: {},
};

describe("the certification page's proof section", () => {
  const page = (version: string): string =>
    certificationPage(RESULTS, SUMMARY, { ...FACTS, proof: proofOfRun(RESULTS, { record: RECORD }, version) });

  it('shows what each passed check could have failed against, escaped, and lists the unproven by name', () => {
    const html = page('0.1.0');
    const proof = html.slice(html.indexOf('<section id="proof">'));
    assert.ok(html.indexOf('<section id="proof">') > 0);
    assert.match(
      proof,
      /<tr><td>SALE with a wrong &lt;control&gt; is refused \(features\/sale\.feature\)<\/td><td>could have failed against: accept-any-control<\/td><\/tr>/,
    );
    assert.match(proof, /could have failed against: pay-twice, accept-any-control/);
    assert.ok(!proof.includes('<control>'), 'the name is escaped');
    assert.match(
      proof,
      /<h3>Passed checks no broken gateway shows can fail \(1\)<\/h3><ul><li>SALE is accepted \(features\/sale\.feature\)<\/li><\/ul>/,
    );
    assert.match(proof, /<h3>Passed checks not proven \(not in the proof record\) \(1\)<\/h3><ul><li>a new scenario/);
    assert.match(
      proof,
      /2 of 4 passed checks failed against at least one broken gateway; 1 against none; 1 not proven/,
    );
    assert.match(proof, /From the proof run of 2026-11-28T10:00:00Z .*payconform 0\.1\.0, commit 0123456789ab\)/);
    assert.match(proof, /Not counted: wrong-response-content-type, which fails every check/);
    assert.match(
      proof,
      /Mutation score of the signer \(src\/signing\): 99\.03 % \(1834 of 1852 mutants detected, measured 2026-11-26; docs\/mutation\.md\)/,
    );
    assert.ok(!proof.includes('not this version'));
  });

  it('says so when the record is of another version', () => {
    assert.match(page('0.2.0'), /The proof record was made with payconform 0\.1\.0, not this version/);
  });

  it('without a record, says why and that nothing is proven', () => {
    const proof = proofOfRun(RESULTS, { unavailable: 'no proof record ships with this payconform' }, '0.1.0');
    const html = certificationPage(RESULTS, SUMMARY, { ...FACTS, proof });
    assert.match(html, /<p>no proof record ships with this payconform: no check's failure is proven here\.<\/p>/);
    assert.match(html, /0 of 4 passed checks failed against at least one broken gateway; 0 against none; 4 not proven/);
    assert.match(html, /Mutation score of the signer and the rule book: not recorded\./);
  });

  it('has no proof section when given no proof', () => {
    assert.ok(!certificationPage(RESULTS, SUMMARY, FACTS).includes('id="proof"'));
  });
});
