/**
 * The worker thread behind cucumber-files.ts: writes messages.ndjson and cucumber.html, and builds junit.xml's text,
 * with the libraries cucumber's own `message`, `html` and `junit` formatters use, fed the same messages (options as
 * cucumber gives them: none). The messages arrive as ndjson bytes in batches; `end` finishes the files and answers with
 * the JUnit text, or with the first write error.
 */
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { CucumberHtmlStream } from '@cucumber/html-formatter';
import { JUnitXmlPrinter } from '@cucumber/junit-xml-formatter';
import type { Envelope } from '@cucumber/messages';
import type { CucumberFilesSetup, FromRun, ToRun } from './cucumber-files.ts';

const port = parentPort;
if (port === null) throw new Error('internal: cucumber-files-thread.ts runs only as a worker thread');
const setup = workerData as CucumberFilesSetup;
const UTF8 = new TextDecoder();

let failure: NodeJS.ErrnoException | undefined;
const failed = (err: NodeJS.ErrnoException): void => {
  failure ??= err;
};

const ndjson = createWriteStream(setup.ndjson).on('error', failed);
const htmlFile = createWriteStream(setup.html).on('error', failed);
const html = new CucumberHtmlStream().on('error', failed);
html.pipe(htmlFile);
let junit = '';
const printer = new JUnitXmlPrinter({}, (text: string) => {
  junit += text;
});

async function end(): Promise<ToRun> {
  ndjson.end();
  html.end();
  try {
    await Promise.all([finished(ndjson), finished(htmlFile)]);
  } catch (err) {
    failed(err as NodeJS.ErrnoException);
  }
  return failure === undefined ? { junit } : { failed: { code: failure.code, message: failure.message } };
}

port.on('message', (message: FromRun) => {
  if (message.ndjson === undefined) {
    void end().then((answer) => port.postMessage(answer));
    return;
  }
  ndjson.write(message.ndjson);
  for (const line of UTF8.decode(message.ndjson).split('\n')) {
    if (line === '') continue;
    const envelope = JSON.parse(line) as Envelope;
    html.write(envelope);
    printer.update(envelope);
  }
});
