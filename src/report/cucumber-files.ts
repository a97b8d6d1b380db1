/**
 * cucumber's files of the bundle (messages.ndjson, cucumber.html, junit.xml's text), made in a worker thread
 * (cucumber-files-thread.ts) from the messages as they come. Run by cucumber's formatters, they took about a sixth of
 * certify's time on the thread that also runs the steps and the embedded mock (docs/bench.md); here they take the
 * other core. The run hands each message over as its ndjson line, in batches, and asks at the end for
 * the JUnit text, which it writes itself with its warnings (junit-warnings.ts).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Envelope } from '@cucumber/messages';
import { COMPILED, ownModule } from '../package-root.ts';
import { ndjsonOf } from './run-record.ts';

/** Where the thread writes a run's files. */
export interface CucumberFilesSetup {
  readonly ndjson: string;
  readonly html: string;
}

/** To the thread: a run's start, its messages as ndjson (UTF-8, handed over, not copied), or (neither) its end. */
export interface FromRun {
  readonly start?: CucumberFilesSetup;
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

/**
 * Threads between runs, unreferenced so they keep no process alive: a process that certifies again (npm run prove's
 * workers) starts a thread and loads cucumber's libraries once, not once per run.
 */
const idle: Worker[] = [];

/**
 * The thread, of the kind this process runs. Under tsx a thread does not inherit the TypeScript hooks (`--import tsx`
 * registers them on the main thread only), so there it loads its module through tsx's tsImport.
 */
function startThread(): Worker {
  const file = ownModule('src/report/cucumber-files-thread.ts');
  if (COMPILED) return new Worker(file);
  const [tsx, module] = [import.meta.resolve('tsx/esm/api'), pathToFileURL(file).href].map((s) => JSON.stringify(s));
  return new Worker(`import(${tsx}).then(({ tsImport }) => tsImport(${module}, ${module}))`, { eval: true });
}

function newThread(): Worker {
  const worker = startThread();
  // A thread that fails between runs is dropped; during a run, the run's own listeners hear of it.
  worker.on('error', () => undefined);
  worker.on('exit', () => {
    const at = idle.indexOf(worker);
    if (at !== -1) idle.splice(at, 1);
  });
  return worker;
}

export class CucumberFiles {
  private readonly worker: Worker;
  private readonly answer: Promise<ToRun>;
  private readonly unlisten: () => void;
  private batch: Envelope[] = [];
  private done = false;

  constructor(dir: string) {
    this.worker = idle.pop() ?? newThread();
    this.worker.ref();
    const worker = this.worker;
    let unlisten = (): void => undefined;
    this.answer = new Promise<ToRun>((resolve, reject) => {
      const exited = (code: number): void =>
        reject(new Error(`internal: the thread writing cucumber's files exited (${code})`));
      worker.once('message', resolve).once('error', reject).once('exit', exited);
      unlisten = () => worker.off('message', resolve).off('error', reject).off('exit', exited);
    });
    this.unlisten = unlisten;
    // Read by finish(); a run that stops earlier terminates the thread and never asks.
    this.answer.catch(() => undefined);
    const start: CucumberFilesSetup = { ndjson: join(dir, 'messages.ndjson'), html: join(dir, 'cucumber.html') };
    worker.postMessage({ start } satisfies FromRun);
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
    this.done = true;
    this.unlisten();
    this.worker.unref();
    idle.push(this.worker);
    if (answer.failed === undefined) return answer.junit;
    throw Object.assign(new Error(answer.failed.message), { code: answer.failed.code });
  }

  /**
   * Stops the thread where it is, unless the run finished (an interrupted or failed run): nothing more is written once
   * this resolves.
   */
  async stop(): Promise<void> {
    if (this.done) return;
    this.done = true;
    await this.worker.terminate(); // its exit settles the answer, should finish() still be waiting
    this.unlisten();
  }

  private send(): void {
    if (this.batch.length === 0) return;
    const ndjson = UTF8.encode(ndjsonOf(this.batch));
    this.worker.postMessage({ ndjson } satisfies FromRun, [ndjson.buffer]);
    this.batch = [];
  }
}
