// A certify bundle carries the proof of its passed checks (docs/certify.md, "Could the passed checks
// have failed?"): summary.json's proof section and the page's, from the packaged proof/proof.json, and
// the manifest covers it, so `bundle verify` sees it changed. The expected defect comes from the ledger
// of accept-any-control (its tag expression selects the wrong-control scenario), not from the record.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { runSuite } from '../../src/suite/run.ts';
import { resolveTarget } from '../../src/suite/target.ts';
import { runCli } from '../support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'payconform-proof-bundle-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const WRONG_CONTROL = 'SALE with a wrong control value (a formula field changed after signing) is refused';

describe('the proof in a certify bundle', () => {
  let summary: any;
  before(async () => {
    await runSuite(
      { target: resolveTarget({ live: false }, {}), tags: '@endpoint:SALE', reportDir: dir },
      { log: () => {}, progress: new PassThrough().resume() },
    );
    summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
  });

  it("names, for each passed check, the defects it fails against, from the packaged record's proof run", () => {
    const record = JSON.parse(readFileSync(new URL('../../proof/proof.json', import.meta.url), 'utf8'));
    const { proof } = summary;
    assert.equal(proof.recorded.date, record.date);
    assert.equal(proof.checks.length, summary.totals.passed - summary.totals.notApplicable);
    const wrong = proof.checks.find((c: any) => c.name === WRONG_CONTROL);
    assert.equal(wrong?.status, 'proven');
    assert.ok(wrong.failsAgainst.includes('accept-any-control'), JSON.stringify(wrong));
    assert.equal(proof.counts.notProven, 0, 'every SALE scenario is in the record');
    const page = readFileSync(join(dir, 'report.html'), 'utf8');
    assert.match(page, /<section id="proof"><h2>Could the passed checks have failed\?<\/h2>/);
    assert.match(
      page,
      /SALE with a wrong control value[^<]*<\/td><td>could have failed against: [^<]*accept-any-control/,
    );
  });

  it('is covered by the manifest: bundle verify sees a changed proof', async () => {
    assert.equal((await runCli(['bundle', 'verify', dir, '--integrity-only'])).code, 0);
    const file = join(dir, 'summary.json');
    const text = readFileSync(file, 'utf8');
    const forged = text.replace('"accept-any-control"', '"pay-twice"');
    assert.notEqual(forged, text);
    writeFileSync(file, forged);
    const r = await runCli(['bundle', 'verify', dir, '--integrity-only']);
    assert.equal(r.code, 1, r.out);
  });
});
