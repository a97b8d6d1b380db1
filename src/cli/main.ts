/**
 * The payconform command line: a thin shell over the library. Every deliberate error is one line on
 * stderr with exit 2; nothing prints a stack trace unless PAYCONFORM_DEBUG is set.
 */
import { isPayconformError } from '../errors.ts';
import { packageVersion } from '../package-root.ts';
import { helpText, parseCommandArgs } from './args.ts';
import type { Command, ExitCode, Io } from './command.ts';
import { oneLine, terminalIo } from './terminal-text.ts';

/**
 * Each command's module is imported when it runs, not at start-up: undici, ajv and cucumber load
 * only in the commands that use them, and `sign` starts about as fast as node itself (bench/).
 */
const COMMANDS: ReadonlyArray<{ readonly name: string; readonly load: () => Promise<Command> }> = [
  { name: 'sign', load: async () => (await import('./commands/sign.ts')).signCommand },
  { name: 'verify', load: async () => (await import('./commands/verify.ts')).verifyCommand },
  { name: 'explain', load: async () => (await import('./commands/explain.ts')).explainCommand },
  { name: 'keygen', load: async () => (await import('./commands/keygen.ts')).keygenCommand },
  { name: 'catalogue', load: async () => (await import('./commands/catalogue.ts')).catalogueCommand },
  { name: 'openapi', load: async () => (await import('./commands/openapi.ts')).openapiCommand },
  { name: 'postman', load: async () => (await import('./commands/postman.ts')).postmanCommand },
  { name: 'vectors generate', load: async () => (await import('./commands/vectors.ts')).vectorsGenerateCommand },
  { name: 'vectors check', load: async () => (await import('./commands/vectors.ts')).vectorsCheckCommand },
  { name: 'vectors explain', load: async () => (await import('./commands/vectors.ts')).vectorsExplainCommand },
  { name: 'vectors pack', load: async () => (await import('./commands/vectors.ts')).vectorsPackCommand },
  { name: 'diagnose', load: async () => (await import('./commands/diagnose.ts')).diagnoseCommand },
  { name: 'debugger', load: async () => (await import('./commands/debugger.ts')).debuggerCommand },
  { name: 'send', load: async () => (await import('./commands/send.ts')).sendCommand },
  { name: 'replay', load: async () => (await import('./commands/replay.ts')).replayCommand },
  { name: 'mock', load: async () => (await import('./commands/mock.ts')).mockCommand },
  { name: 'certify', load: async () => (await import('./commands/certify.ts')).certifyCommand },
  { name: 'inspect', load: async () => (await import('./commands/inspect.ts')).inspectCommand },
  { name: 'trigger', load: async () => (await import('./commands/trigger.ts')).triggerCommand },
  { name: 'bundle verify', load: async () => (await import('./commands/bundle.ts')).bundleVerifyCommand },
  { name: 'bundle merge', load: async () => (await import('./commands/bundle.ts')).bundleMergeCommand },
  { name: 'bundle diff', load: async () => (await import('./commands/bundle-diff.ts')).bundleDiffCommand },
  { name: 'bundle summary', load: async () => (await import('./commands/bundle-summary.ts')).bundleSummaryCommand },
];

/** Every command's name, in the order `payconform --help` lists them (docs/commands.md follows it). */
export const COMMAND_NAMES: readonly string[] = COMMANDS.map((c) => c.name);

async function overview(): Promise<string> {
  const commands = await Promise.all(COMMANDS.map((c) => c.load()));
  const width = Math.max(...commands.map((c) => c.spec.name.length)) + 2;
  return [
    'Usage: payconform <command> [options]',
    '',
    'Conformance suite and signature-vector toolkit for the card-processing server-to-server API.',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.spec.name.padEnd(width)}${c.spec.summary}`),
    '',
    'Run `payconform <command> --help` for its options, `payconform --version` for the version. Exit codes: 0 ' +
      'good, 1 a check failed, 2 bad input.',
  ].join('\n');
}

export async function run(argv: string[], given: Io): Promise<ExitCode> {
  // The one way to the terminal: no command writes a control character it was handed (terminal-text.ts).
  const io = terminalIo(given);
  const [first, second] = argv;
  if (first === '--version' || first === '-V') {
    io.stdout(packageVersion());
    return 0;
  }
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    io.stdout(await overview());
    return first === undefined ? 2 : 0;
  }
  // Two-word commands (`vectors check`) first, then one-word ones.
  const entry = COMMANDS.find((c) => c.name === `${first} ${second}`) ?? COMMANDS.find((c) => c.name === first);
  const name = entry?.name ?? first;
  const rest = argv.slice(name.split(' ').length);
  if (!entry) {
    // A group of commands named alone (`payconform vectors`): say what it holds.
    const group = COMMANDS.filter((c) => c.name.startsWith(`${first} `)).map((c) => c.name.slice(first.length + 1));
    if (group.length > 0)
      io.stderr(
        `payconform ${first}: give one of its commands: ${group.join(', ')} (payconform ${first} <command> --help)`,
      );
    else
      io.stderr(oneLine(`payconform: unknown command "${name}" (commands: ${COMMANDS.map((c) => c.name).join(', ')})`));
    return 2;
  }
  try {
    const command = await entry.load();
    const parsed = parseCommandArgs(command.spec, rest);
    if (parsed === 'help') {
      io.stdout(helpText(command.spec));
      return 0;
    }
    return await command.run(parsed, io);
  } catch (err) {
    if (isPayconformError(err)) {
      // One line, whatever the message quotes from a file or an answer.
      io.stderr(oneLine(`payconform ${name}: ${err.message}`));
      return 2;
    }
    if (io.env.PAYCONFORM_DEBUG) throw err;
    io.stderr(
      oneLine(
        `payconform ${name}: internal error: ${err instanceof Error ? err.message.split('\n')[0] : String(err)} ` +
          `(PAYCONFORM_DEBUG=1 shows the stack)`,
      ),
    );
    return 1;
  }
}

/** Runs the command line of this process and sets its exit code. */
export async function main(): Promise<void> {
  // The reader went away (`payconform vectors check … | head`): stop quietly, as a tool killed by
  // SIGPIPE does (exit 141), rather than with Node's EPIPE stack trace.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
      process.exit(141);
    });
  }
  process.exitCode = await run(process.argv.slice(2), {
    stdout: (t) => process.stdout.write(t.endsWith('\n') ? t : `${t}\n`),
    stderr: (t) => process.stderr.write(t.endsWith('\n') ? t : `${t}\n`),
    env: process.env,
  });
  // An interrupted run leaves work in flight (scenarios, servers) that must not go on writing.
  if (process.exitCode === 130) process.exit(130);
}
