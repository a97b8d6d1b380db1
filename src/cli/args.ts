/**
 * Option parsing on node:util parseArgs, with usage errors turned into PayconformError (one line,
 * exit 2) and `--help` on every command.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { fieldError, PayconformError } from '../errors.ts';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>[string] & { description: string; valueName?: string };
export type OptionSpecs = Record<string, OptionSpec>;

export interface CommandSpec {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  readonly options: OptionSpecs;
  /** Free text after the options list: examples, notes. */
  readonly epilog?: string;
  readonly positionals?: boolean;
}

export interface Parsed {
  readonly values: Record<string, string | boolean | string[] | undefined>;
  readonly positionals: string[];
}

export function parseCommandArgs(spec: CommandSpec, argv: string[]): Parsed | 'help' {
  const options = Object.fromEntries(
    Object.entries(spec.options).map(([k, o]) => {
      const { description: _d, valueName: _v, ...rest } = o;
      return [k, rest];
    }),
  );
  try {
    const { values, positionals } = parseArgs({
      args: negativeNumbersAsValues(spec, argv),
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: spec.positionals ?? false,
      strict: true,
    });
    if (values.help) return 'help';
    return { values: values, positionals };
  } catch (err) {
    const message = err instanceof Error ? (err.message.split('\n')[0] ?? '') : String(err);
    throw new PayconformError(
      'ERR_USAGE',
      `${message.replace(/\. To specify.*$/, '')} (see payconform ${spec.name} --help)`,
      {
        field: spec.name,
        rule: 'usage',
        cause: err,
      },
    );
  }
}

/**
 * `--seed -1` as `--seed=-1`: parseArgs takes `-1` for an option and calls the argument ambiguous;
 * as a value, the option's own check says which numbers it takes.
 */
function negativeNumbersAsValues(spec: CommandSpec, argv: readonly string[]): string[] {
  const out: string[] = [];
  const rest = [...argv];
  for (let arg = rest.shift(); arg !== undefined; arg = rest.shift()) {
    const name = arg.startsWith('--') ? arg.slice(2) : undefined;
    const next = rest[0];
    if (name !== undefined && spec.options[name]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      rest.shift();
    } else out.push(arg);
  }
  return out;
}

/** The one positional argument a command takes; none or more is a usage error naming it. */
export function onePositional(positionals: readonly string[], field: string, rule: string): string {
  const [first, ...more] = positionals;
  if (first === undefined || more.length > 0) throw fieldError('ERR_USAGE', field, rule);
  return first;
}

export function helpText(spec: CommandSpec): string {
  const rows = Object.entries(spec.options).map(([name, o]) => {
    const flag = `--${name}${o.type === 'string' ? ` ${o.valueName ?? 'VALUE'}` : ''}${o.multiple ? ' …' : ''}`;
    return [flag, o.description] as const;
  });
  rows.push(['--help', 'show this help']);
  const width = Math.max(...rows.map(([f]) => f.length)) + 2;
  const lines = [
    `Usage: ${spec.usage}`,
    '',
    spec.summary,
    '',
    'Options:',
    ...rows.map(([f, d]) => `  ${f.padEnd(width)}${d}`),
  ];
  if (spec.epilog) lines.push('', spec.epilog);
  return lines.join('\n');
}

export const str = (v: Parsed['values'][string]): string | undefined => (typeof v === 'string' ? v : undefined);
export const list = (v: Parsed['values'][string]): string[] => (Array.isArray(v) ? v : []);

/**
 * Refuses options that each say the same thing differently (which signature to check, where the
 * request comes from): given together, one would be ignored without a word.
 */
export function oneOf(values: Parsed['values'], first: string, others: readonly string[]): void {
  if (values[first] === undefined) return;
  const clash = others.find(
    (o) => values[o] !== undefined && values[o] !== false && !(Array.isArray(values[o]) && values[o].length === 0),
  );
  if (clash !== undefined)
    throw new PayconformError('ERR_USAGE', `--${first}: give either --${first} or --${clash}, not both`, {
      field: `--${first}`,
      rule: `not with --${clash}`,
    });
}
