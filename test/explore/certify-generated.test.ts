// The generated checks through the runner: against the correct mock a family passes and the run keeps its seed in
// summary.json; against a gateway that signs the decimal amount (mock --defect control-decimal-amount) the valid
// amounts are refused, and the finding names the gateway's own mistake in the request's own amount.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { runSuite } from '../../src/suite/run.ts';
import { resolveTarget } from '../../src/suite/target.ts';
import { FINDING_MEDIA_TYPE, type Finding } from '../../src/report/findings.ts';

const dir = mkdtempSync(join(tmpdir(), 'payconform-explore-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function run(name: string, tags: string, defect?: 'control-decimal-amount', seed = 1234) {
  const lines: string[] = [];
  const reportDir = join(dir, name);
  const outcome = await runSuite(
    { target: resolveTarget({ live: false, defect }, {}), tags, reportDir, explore: { seed } },
    { log: (l) => lines.push(l), progress: new PassThrough().resume() },
  );
  const messages = readFileSync(join(reportDir, 'messages.ndjson'), 'utf8').split('\n').filter(Boolean);
  const attachments = messages
    .map((l) => (JSON.parse(l) as { attachment?: { mediaType: string; body: string } }).attachment)
    .filter((a) => a !== undefined);
  const summary = JSON.parse(readFileSync(join(reportDir, 'summary.json'), 'utf8')) as { explore?: { seed: number } };
  return { outcome, lines, attachments, summary };
}

describe('certify: generated checks', () => {
  it('pass against the correct mock, print the seed and keep it in summary.json', async () => {
    const { outcome, lines, summary } = await run('correct', '@family:valid-amounts and @endpoint:SALE');
    assert.equal(outcome.passed, true);
    assert.ok(
      lines.some((l) => l.includes('generated checks: seed 1234 (replay: --seed 1234)')),
      lines.join('\n'),
    );
    assert.equal(summary.explore?.seed, 1234);
  });

  it("name the gateway's own mistake, decimal-amount, in the finding, with the vector and curl attached", async () => {
    const { outcome, attachments } = await run(
      'decimal',
      '@family:valid-amounts and @endpoint:SALE',
      'control-decimal-amount',
    );
    assert.equal(outcome.passed, false);
    const finding = JSON.parse(attachments.find((a) => a.mediaType === FINDING_MEDIA_TYPE)?.body ?? '{}') as Finding;
    assert.equal(finding.rule, 'control-signature');
    assert.equal(finding.kind, 'refused-met');
    assert.match(finding.actual, /replay: certify --seed 1234 \(path [0-9:]+\)/);
    assert.match(finding.actual, /the gateway's own mistake, reproducing every verdict it gave: decimal-amount \(/);
    assert.doesNotMatch(finding.actual, /; or /, 'decimal-amount alone reproduces every verdict');
    assert.match(finding.actual, /not in cents: (\d+\.\d+) → "\1", where the spec signs \d+/);
    const vector = attachments.find((a) => a.mediaType === 'application/vnd.payconform.vectors+json');
    assert.match(vector?.body ?? '', /"format":"payconform-vectors\/1"/);
    assert.match(vector?.body ?? '', /<merchant_control_key>/);
    const curl = attachments.find((a) => a.mediaType === 'text/x-shellscript')?.body ?? '';
    assert.match(curl, /^curl -sS -X POST '.*\/api\/v2\/sale\/1001'/);
    assert.match(curl, /control=%3Credacted%3E/);
  });
});
