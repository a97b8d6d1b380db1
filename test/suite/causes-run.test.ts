// Issue 29's measure: certify against a gateway that computes the control with the decimal amount
// (mock --defect control-decimal-amount), in two shards merged by `bundle merge`. Its failures lead
// the page, summary.json and the console as at most three causes holding nearly all of them; the
// STATUS, CAPTURE, RETURN… scenarios are blocked by the refused SALE's cause, not causes of their own;
// and the merged causes are recomputed (one cause across both shards, its counts their sum).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { Summary } from '../../src/report/bundle.ts';
import type { Cause } from '../../src/report/causes.ts';
import { runSuite } from '../../src/suite/run.ts';
import { resolveTarget } from '../../src/suite/target.ts';
import { runCli } from '../support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'payconform-causes-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const quiet = { log: () => {}, progress: new PassThrough().resume() };
const summaryOf = (d: string): Summary => JSON.parse(readFileSync(join(d, 'summary.json'), 'utf8')) as Summary;
const sizeOf = (c: Cause): number => c.scenarios.length + c.blocked.length;

describe('certify --defect control-decimal-amount: failures by cause', () => {
  const shards = [join(dir, 'shard-1'), join(dir, 'shard-2')];
  const merged = join(dir, 'merged');
  let console = '';
  before(async () => {
    for (const [i, reportDir] of shards.entries())
      await runSuite(
        {
          target: resolveTarget({ live: false, defect: 'control-decimal-amount' }, {}),
          shard: `${i + 1}/2`,
          reportDir,
        },
        quiet,
      );
    const r = await runCli(['bundle', 'merge', ...shards, '--out', merged]);
    console = r.out;
  });

  it('leads with at most three causes holding nearly all failures, the gateway to act', () => {
    const summary = summaryOf(merged);
    const top = summary.causes.slice(0, 3);
    const held = top.reduce((n, c) => n + sizeOf(c), 0);
    assert.ok(summary.totals.failed > 100, `only ${summary.totals.failed} failures`);
    assert.ok(held >= 0.95 * summary.totals.failed, `the top three causes hold ${held} of ${summary.totals.failed}`);
    const [first] = summary.causes;
    assert.deepEqual([first?.rule, first?.kind, first?.actor], ['control-signature', 'refused-met', 'gateway']);
    assert.ok(
      first?.blocked.some((b) => /^STATUS|status/.test(b.name)) && first.blocked.length > 30,
      'the scenarios whose SALE was refused are blocked by its cause',
    );
    assert.ok(first?.blocked.every((b) => / answered 400 CONTROL_INVALID$/.test(b.exchange)));
  });

  it('merge recomputes the causes: one cause across both shards, its counts their sum', () => {
    const key = (c: Cause): string => `${c.kind} ${c.rule}`;
    const [a, b] = shards.map(summaryOf);
    const sum = (k: string): number =>
      [a, b].reduce((n, s) => n + (s?.causes.filter((c) => key(c) === k).reduce((m, c) => m + sizeOf(c), 0) ?? 0), 0);
    const mergedCauses = summaryOf(merged).causes;
    assert.equal(new Set(mergedCauses.map(key)).size, mergedCauses.length, 'no cause twice');
    for (const c of mergedCauses) assert.equal(sizeOf(c), sum(key(c)), key(c));
  });

  it('the page leads with the causes, the console prints one line each before the table', () => {
    const page = readFileSync(join(merged, 'report.html'), 'utf8');
    assert.ok(page.indexOf('id="causes"') > 0 && page.indexOf('id="causes"') < page.indexOf('class="facts"'));
    assert.match(page, /<details><summary>blocked by it: \d+ scenarios whose prerequisite was refused<\/summary>/);
    assert.match(console, /^causes: \d behind \d+ failures, largest first/m);
    assert.match(console, /^ +\d+ \(\+\d+ blocked\) control-signature \[refused-met\] → the gateway: /m);
    assert.ok(console.indexOf('causes:') < console.indexOf('endpoint '));
  });
});
