/**
 * The payconform command line: a thin shell over the library. Every deliberate error is one line on
 * stderr with exit 2; nothing prints a stack trace unless PAYCONFORM_DEBUG is set.
 */
import { isPayconformError } from '../errors.ts';
import { helpText, parseCommandArgs } from './args.ts';
import type { Command, ExitCode, Io } from './command.ts';
import { catalogueCommand } from './commands/catalogue.ts';
import { certifyCommand } from './commands/certify.ts';
import { diagnoseCommand } from './commands/diagnose.ts';
import { explainCommand } from './commands/explain.ts';
import { inspectCommand } from './commands/inspect.ts';
import { keygenCommand } from './commands/keygen.ts';
import { mockCommand } from './commands/mock.ts';
import { sendCommand } from './commands/send.ts';
import { signCommand } from './commands/sign.ts';
import { verifyCommand } from './commands/verify.ts';
import { vectorsCheckCommand, vectorsExplainCommand, vectorsGenerateCommand, vectorsPackCommand } from './commands/vectors.ts';

const COMMANDS: readonly Command[] = [
  signCommand, verifyCommand, explainCommand, keygenCommand, catalogueCommand,
  vectorsGenerateCommand, vectorsCheckCommand, vectorsExplainCommand, vectorsPackCommand, diagnoseCommand,
  sendCommand, mockCommand, certifyCommand, inspectCommand,
];

function overview(): string {
  const width = Math.max(...COMMANDS.map((c) => c.spec.name.length)) + 2;
  return [
    'Usage: payconform <command> [options]',
    '',
    'Conformance suite and signature-vector toolkit for the card-processing server-to-server API.',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.spec.name.padEnd(width)}${c.spec.summary}`),
    '',
    'Run `payconform <command> --help` for its options. Exit codes: 0 good, 1 a check failed, 2 bad input.',
  ].join('\n');
}

export async function run(argv: string[], io: Io): Promise<ExitCode> {
  const [first, second] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    io.stdout(overview());
    return first === undefined ? 2 : 0;
  }
  // Two-word commands (`vectors check`) first, then one-word ones.
  const command = COMMANDS.find((c) => c.spec.name === `${first} ${second}`) ?? COMMANDS.find((c) => c.spec.name === first);
  const name = command?.spec.name ?? first;
  const rest = argv.slice(name.split(' ').length);
  if (!command) {
    io.stderr(`payconform: unknown command "${name}" (commands: ${COMMANDS.map((c) => c.spec.name).join(', ')})`);
    return 2;
  }
  try {
    const parsed = parseCommandArgs(command.spec, rest);
    if (parsed === 'help') {
      io.stdout(helpText(command.spec));
      return 0;
    }
    return await command.run(parsed, io);
  } catch (err) {
    if (isPayconformError(err)) {
      io.stderr(`payconform ${name}: ${err.message}`);
      return 2;
    }
    if (io.env.PAYCONFORM_DEBUG) throw err;
    io.stderr(`payconform ${name}: internal error: ${err instanceof Error ? err.message.split('\n')[0] : String(err)} (PAYCONFORM_DEBUG=1 shows the stack)`);
    return 1;
  }
}

/** Runs the command line of this process and sets its exit code. */
export async function main(): Promise<void> {
  process.exitCode = await run(process.argv.slice(2), {
    stdout: (t) => process.stdout.write(t.endsWith('\n') ? t : `${t}\n`),
    stderr: (t) => process.stderr.write(t.endsWith('\n') ? t : `${t}\n`),
    env: process.env,
  });
  // An interrupted run leaves work in flight (scenarios, servers) that must not go on writing.
  if (process.exitCode === 130) process.exit(130);
}
