/**
 * A process of `npm run prove` (forked by src/prove/prove-defects.ts): runs the defects it is sent one
 * after another, loading cucumber and the steps once, and answers each with done or the error.
 */
import type { Defect } from '../mock/index.ts';
import { present } from '../present.ts';
import { runDefect } from './run-defect.ts';

export interface Job {
  readonly defect: Defect | undefined;
  readonly dir: string;
}
export type JobResult = { readonly ok: true } | { readonly ok: false; readonly message: string };

process.on('message', (job: Job) => {
  // A message came, so the IPC channel that answers it is there.
  const send = present(process.send?.bind(process), 'the IPC channel of a prove worker');
  runDefect(job.defect, job.dir).then(
    () => send({ ok: true } satisfies JobResult),
    (err: Error) => send({ ok: false, message: err.message } satisfies JobResult),
  );
});
