// cucumber's files of the bundle are made in a worker thread (src/report/cucumber-files.ts), not by cucumber's
// formatters. The oracle is cucumber-js itself: a plain run writes its message, junit and html files, and the same
// messages handed to the thread must give the same bytes. A file the thread cannot write fails the finish with the
// write error's code, which the runner turns into "the report could not be written" (write-failure.ts).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Envelope } from '@cucumber/messages';
import { CucumberFiles } from '../../src/report/cucumber-files.ts';

const root = new URL('../..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'payconform-cucumber-files-'));
const plain = join(work, 'plain');

const envelopes = (): Envelope[] =>
  readFileSync(join(plain, 'messages.ndjson'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Envelope);

describe("cucumber's files, made off the main thread", () => {
  before(() => {
    const run = spawnSync(
      process.execPath,
      [
        join(root, 'node_modules/@cucumber/cucumber/bin/cucumber.js'),
        '--tags',
        '@endpoint:PAYMENTFORM',
        '--format',
        'summary',
        '--format',
        `message:${join(plain, 'messages.ndjson')}`,
        '--format',
        `junit:${join(plain, 'junit.xml')}`,
        '--format',
        `html:${join(plain, 'cucumber.html')}`,
      ],
      { cwd: root, encoding: 'utf8', env: { ...process.env, CI: 'true' }, timeout: 120_000 },
    );
    assert.equal(run.status, 0, run.stdout + run.stderr);
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it("are byte for byte the files cucumber's own formatters write from the same messages, run after run", async () => {
    const given = envelopes();
    assert.ok(
      given.some((e) => e.testCaseFinished !== undefined),
      'the plain run finished no test case',
    );
    // The second run is written by the thread the first one left idle.
    for (const run of ['first', 'second']) {
      const dir = join(work, run);
      mkdirSync(dir);
      const files = new CucumberFiles(dir);
      for (const envelope of given) files.add(envelope);
      const junit = await files.finish();
      assert.equal(junit, readFileSync(join(plain, 'junit.xml'), 'utf8'), run);
      for (const name of ['messages.ndjson', 'cucumber.html'])
        assert.equal(readFileSync(join(dir, name), 'utf8'), readFileSync(join(plain, name), 'utf8'), `${run}: ${name}`);
    }
  });

  it('fail their finish with the code of a file that cannot be written, and stop when told', async () => {
    const dir = join(work, 'unwritable');
    mkdirSync(join(dir, 'cucumber.html'), { recursive: true }); // a folder where the page goes
    const files = new CucumberFiles(dir);
    for (const envelope of envelopes()) files.add(envelope);
    await assert.rejects(files.finish(), (err: NodeJS.ErrnoException) => err.code === 'EISDIR');
    mkdirSync(join(work, 'stopped'));
    const stopped = new CucumberFiles(join(work, 'stopped'));
    await stopped.stop();
    await assert.rejects(stopped.finish(), /exited/);
  });
});
