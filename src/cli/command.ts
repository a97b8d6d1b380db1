/** What a CLI command is: its spec (options, help) and a run function over injected I/O. */
import type { CommandSpec, Parsed } from './args.ts';
import type { Env } from './request-options.ts';

export interface Io {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Env;
}

/** Exit codes (design.md): 0 all good, 1 a check failed, 2 bad usage or bad input. */
/** 0 all good, 1 a check failed, 2 bad input, 130 interrupted (128 + SIGINT, as shells report it). */
export type ExitCode = 0 | 1 | 2 | 130;

export interface Command {
  readonly spec: CommandSpec;
  run(parsed: Parsed, io: Io): ExitCode | Promise<ExitCode>;
}
