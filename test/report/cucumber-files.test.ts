// cucumber's files of the bundle are made in a worker thread (src/report/cucumber-files.ts), not by cucumber's
// formatters. The oracle is cucumber-js itself: a plain run writes its message, junit and html files, and the same
// messages handed to the thread must give the same bytes, but where payconform departs on purpose (issue 41):
// junit.xml writes as escaped text what cucumber's writes as CDATA (the same XML to a parser), and cucumber.html
// carries a Content-Security-Policy in its head. A file the thread cannot write fails the finish with the
// write error's code, which the runner turns into "the report could not be written" (write-failure.ts).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Envelope } from '@cucumber/messages';
import { SaxesParser } from 'saxes';
import { CucumberFiles } from '../../src/report/cucumber-files.ts';

const root = new URL('../..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'payconform-cucumber-files-'));
const plain = join(work, 'plain');

/** What a strict XML parser reads from `xml`: each element with its attributes, and the text, CDATA counted as text. */
function parsed(xml: string): string[] {
  const events: string[] = [];
  const parser = new SaxesParser();
  parser.on('opentag', (tag) => events.push(`<${tag.name} ${JSON.stringify(tag.attributes)}>`));
  parser.on('closetag', (tag) => events.push(`</${tag.name}>`));
  const text = (t: string): void => {
    if (typeof events.at(-1) === 'string' && events.at(-1)?.startsWith('text '))
      events.push(`text ${events.pop()?.slice(5)}${t}`);
    else events.push(`text ${t}`);
  };
  parser.on('text', text);
  parser.on('cdata', text);
  parser.write(xml).close();
  return events;
}

/** cucumber.html without the policy the thread puts after its Content-Type tag (a meta and the spaces of its room). */
const withoutPolicy = (html: string): string =>
  html.replace(/(http-equiv="Content-Type">)\n\t<meta http-equiv="Content-Security-Policy" content="[^"]*"> */, '$1');

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
      const plainJunit = readFileSync(join(plain, 'junit.xml'), 'utf8');
      assert.ok(plainJunit.includes('<![CDATA['), 'the oracle writes CDATA, so the comparison means something');
      assert.ok(!junit.includes('<![CDATA['), run);
      assert.deepEqual(parsed(junit), parsed(plainJunit), run);
      const name = 'messages.ndjson';
      assert.equal(readFileSync(join(dir, name), 'utf8'), readFileSync(join(plain, name), 'utf8'), `${run}: ${name}`);
      const html = readFileSync(join(dir, 'cucumber.html'), 'utf8');
      assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src/);
      assert.equal(withoutPolicy(html), readFileSync(join(plain, 'cucumber.html'), 'utf8'), `${run}: cucumber.html`);
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
