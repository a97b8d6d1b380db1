/** `payconform bundle diff A B`: what regressed, was fixed or changed between two certify runs. */
import { diffBundles, regressed } from '../../report/bundle-diff.ts';
import { diffMarkdown } from '../../report/bundle-diff-text.ts';
import { readBundleView } from '../../report/bundle-view.ts';
import { fieldError } from '../../errors.ts';
import { str } from '../args.ts';
import type { Command, ExitCode } from '../command.ts';

const FORMATS = ['md', 'json'] as const;

export const bundleDiffCommand: Command = {
  spec: {
    name: 'bundle diff',
    summary:
      'Compares two certify bundles scenario by scenario: regressions under their cause, fixes, warnings and ' +
      'coverage gained or lost.',
    usage: 'payconform bundle diff A B [--format md|json]',
    options: {
      format: {
        type: 'string',
        valueName: 'md|json',
        description: 'Markdown (default: for a CI job summary or a pull request) or JSON, on standard output',
      },
    },
    positionals: true,
    epilog: [
      'A is the earlier run, B the later. Both must be intact (each file as its manifest lists it); scenarios are',
      'matched by name, and the output says so when the runs are of other payconform versions or profiles.',
      'Exit 0 when nothing regressed, 1 when a scenario that did not fail in A fails in B or B exercises less,',
      '2 on bad input.',
    ].join('\n'),
  },
  async run({ values, positionals }, io): Promise<ExitCode> {
    if (positionals.length !== 2) throw fieldError('ERR_USAGE', 'A B', 'give exactly two bundle folders');
    const format = str(values.format) ?? 'md';
    if (!(FORMATS as readonly string[]).includes(format))
      throw fieldError('ERR_USAGE', '--format', `must be one of ${FORMATS.join(', ')}`);
    const [a, b] = positionals as [string, string];
    const diff = diffBundles(await readBundleView(a), await readBundleView(b));
    if (format === 'json') io.stdout(JSON.stringify(diff, null, 2));
    else for (const line of diffMarkdown(diff)) io.stdout(line);
    return regressed(diff) ? 1 : 0;
  },
};
