/** Runs the command line in-process with captured output and a given environment (no process.env). */
import { run } from '../../src/cli/main.ts';

export interface CliOutcome {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

export async function runCli(args: string[], env: Record<string, string | undefined> = {}): Promise<CliOutcome> {
  let out = '';
  let err = '';
  const code = await run(args, { stdout: (t) => (out += `${t}\n`), stderr: (t) => (err += `${t}\n`), env });
  return { code, out, err };
}
