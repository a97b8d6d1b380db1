// A payconform command that serves something (mock, inspect) started as a user starts it, resolved once it
// prints "listening on URL"; shared by the tests that drive those commands as whole processes.
import { spawn, type ChildProcess } from 'node:child_process';

const bin = new URL('../../bin/payconform.js', import.meta.url).pathname;

export interface Listening {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything printed so far, standard output and error together. */
  readonly out: () => string;
  readonly exit: Promise<number | null>;
}

/** Starts `payconform ARGS…` and resolves once it prints "listening on URL" (rejects if it exits first). */
export async function startListening(args: readonly string[]): Promise<Listening> {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearInterval(timer);
        resolve(m[1]!);
      }
    }, 20);
    void exit.then(() => {
      clearInterval(timer);
      reject(new Error(`exited early: ${out}`));
    });
  });
  return { url, child, out: () => out, exit };
}
