/**
 * cucumber's files of the bundle (messages.ndjson, cucumber.html, junit.xml's text), made in a worker thread
 * (cucumber-files-thread.ts) from the messages as they come. Run by cucumber's formatters, they took about a sixth of
 * certify's time on the thread that also runs the steps and the embedded mock (docs/bench.md); here they take the
 * other core. The run hands each message over as its ndjson line, in batches, and asks at the end for
 * the JUnit text, which it writes itself with its warnings (junit-warnings.ts).
 */
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import type { Envelope } from '@cucumber/messages';
import { ownWorker } from '../package-root.ts';
import { ndjsonOf } from './run-record.ts';

/** Where the thread writes (workerData). */
export interface CucumberFilesSetup {
  readonly ndjson: string;
  readonly html: string;
}

/** To the thread: messages as ndjson, UTF-8 (handed over, not copied), or (none) the end of the run. */
export interface FromRun {
  readonly ndjson?: Uint8Array;
}

/** From the thread, at the end: junit.xml's text, or the first write error (its code, as node:fs gives it). */
export type ToRun =
  | { readonly junit: string; readonly failed?: undefined }
  | { readonly failed: { readonly code: string | undefined; readonly message: string } };

/**
 * Messages go over in batches of this many: each post cost the run's thread far more than its size says (about 50 ms
 * over a whole run in batches of a test case), and the thread's work on a batch is what is left at the end.
 */
const BATCH = 512;
const UTF8 = new TextEncoder();

export class CucumberFiles {
  private readonly worker: Worker;
  private readonly answer: Promise<ToRun>;
  private batch: Envelope[] = [];

  constructor(dir: string) {
    const setup: CucumberFilesSetup = { ndjson: join(dir, 'messages.ndjson'), html: join(dir, 'cucumber.html') };
    this.worker = ownWorker('src/report/cucumber-files-thread.ts', { workerData: setup });
    this.answer = new Promise<ToRun>((resolve, reject) => {
      this.worker.once('message', resolve);
      this.worker.once('error', reject);
      this.worker.once('exit', (code) =>
        reject(new Error(`internal: the thread writing cucumber's files exited (${code})`)),
      );
    });
    // Read by finish(); a run that stops earlier terminates the thread and never asks.
    this.answer.catch(() => undefined);
  }

  add(envelope: Envelope): void {
    this.batch.push(envelope);
    if (this.batch.length >= BATCH) this.send();
  }

  /** Ends the files and gives junit.xml's text; a write error is thrown with its code (write-failure.ts reads it). */
  async finish(): Promise<string> {
    this.send();
    this.worker.postMessage({} satisfies FromRun);
    const answer = await this.answer;
    await this.stop();
    if (answer.failed === undefined) return answer.junit;
    throw Object.assign(new Error(answer.failed.message), { code: answer.failed.code });
  }

  /** Stops the thread where it is (an interrupted or failed run): nothing more is written once this resolves. */
  async stop(): Promise<void> {
    await this.worker.terminate();
  }

  private send(): void {
    if (this.batch.length === 0) return;
    // Encoded here and transferred: posting the text copied it, about as long again as making it.
    const ndjson = UTF8.encode(ndjsonOf(this.batch));
    this.worker.postMessage({ ndjson } satisfies FromRun, [ndjson.buffer]);
    this.batch = [];
  }
}
