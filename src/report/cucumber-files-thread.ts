/**
 * The worker thread behind cucumber-files.ts: for each run, writes messages.ndjson and cucumber.html, and builds
 * junit.xml's text, with the libraries cucumber's own `message`, `html` and `junit` formatters use, fed the same
 * messages (options as cucumber gives them: none). A run starts with where its files go; its messages arrive as
 * ndjson bytes in batches; its end finishes the files and answers with the JUnit text, or with the first write error.
 * Two departures from cucumber's own, for hostile answers (docs/hostile-content.md): cucumber.html gets a
 * Content-Security-Policy (cucumber-html-csp.ts) and the JUnit text is always XML (junit-cucumber.ts).
 * One run at a time; the thread then waits for the next (a process that certifies again loads the libraries once).
 */
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { parentPort } from 'node:worker_threads';
import { CucumberHtmlStream } from '@cucumber/html-formatter';
import { JUnitXmlPrinter } from '@cucumber/junit-xml-formatter';
import type { Envelope } from '@cucumber/messages';
import type { CucumberFilesSetup, FromRun, ToRun } from './cucumber-files.ts';
import { CspHashes, writePolicy } from './cucumber-html-csp.ts';
import { fitForJunit, withoutCdata } from './junit-cucumber.ts';

const port = parentPort;
if (port === null) throw new Error('internal: cucumber-files-thread.ts runs only as a worker thread');
const UTF8 = new TextDecoder();

/** One run's files. */
class RunFiles {
  private failure: NodeJS.ErrnoException | undefined;
  private readonly ndjson;
  private readonly htmlFile;
  private readonly htmlPath;
  private readonly html = new CucumberHtmlStream();
  private readonly policy = new CspHashes();
  private junit = '';
  private readonly printer = new JUnitXmlPrinter({}, (text: string) => {
    this.junit += text;
  });

  constructor(setup: CucumberFilesSetup) {
    const failed = (err: NodeJS.ErrnoException): void => {
      this.failure ??= err;
    };
    this.ndjson = createWriteStream(setup.ndjson).on('error', failed);
    this.htmlPath = setup.html;
    this.htmlFile = createWriteStream(setup.html).on('error', failed);
    // A page the policy cannot be given is not finished: the file is closed with the error.
    const unfinished = (err: NodeJS.ErrnoException): void => void this.htmlFile.destroy(err);
    this.html.on('error', failed).pipe(this.policy.on('error', unfinished)).pipe(this.htmlFile);
  }

  add(bytes: Uint8Array): void {
    this.ndjson.write(bytes);
    for (const line of UTF8.decode(bytes).split('\n')) {
      if (line === '') continue;
      const envelope = JSON.parse(line) as Envelope;
      this.html.write(envelope);
      // The page shows the messages as they came; junit.xml gets texts that stay XML (junit-cucumber.ts).
      this.printer.update(fitForJunit(envelope) as Envelope);
    }
  }

  async end(): Promise<ToRun> {
    this.ndjson.end();
    this.html.end();
    try {
      await Promise.all([finished(this.ndjson), finished(this.htmlFile)]);
      if (this.failure === undefined) await writePolicy(this.htmlPath, this.policy);
    } catch (err) {
      this.failure ??= err as NodeJS.ErrnoException;
    }
    const { failure, junit } = this;
    return failure === undefined
      ? { junit: withoutCdata(junit) }
      : { failed: { code: failure.code, message: failure.message } };
  }
}

let run: RunFiles | undefined;

port.on('message', (message: FromRun) => {
  if (message.start !== undefined) run = new RunFiles(message.start);
  else if (run === undefined) throw new Error('internal: cucumber-files-thread.ts was sent messages before a start');
  else if (message.ndjson !== undefined) run.add(message.ndjson);
  else {
    void run.end().then((answer) => port.postMessage(answer));
    run = undefined;
  }
});
