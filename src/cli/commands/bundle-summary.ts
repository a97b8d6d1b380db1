/** `payconform bundle summary DIR`: a certify bundle's verdict, coverage and causes for a CI job. */
import { readBundleView } from '../../report/bundle-view.ts';
import { summaryAnnotations, summaryMarkdown, summaryOf } from '../../report/run-summary.ts';
import { fieldError } from '../../errors.ts';
import { onePositional, str } from '../args.ts';
import type { Command, ExitCode } from '../command.ts';

const FORMATS = ['md', 'github'] as const;

export const bundleSummaryCommand: Command = {
  spec: {
    name: 'bundle summary',
    summary: "Writes a certify bundle's verdict, coverage and causes as Markdown or as GitHub annotations.",
    usage: 'payconform bundle summary DIR [--format md|github]',
    options: {
      format: {
        type: 'string',
        valueName: 'md|github',
        description:
          'Markdown (default: for $GITHUB_STEP_SUMMARY or a merge request) or GitHub workflow annotations: an ' +
          'error per cause, a warning per capability not exercised',
      },
    },
    positionals: true,
    epilog: [
      'Recomputed from the bundle, which must be intact, as bundle merge does; summary.json is believed only where',
      'it says worse (an interrupted run). Exit 0 when the run passed, 1 when it did not, 2 on bad input.',
    ].join('\n'),
  },
  async run({ values, positionals }, io): Promise<ExitCode> {
    const dir = onePositional(positionals, 'DIR', 'give exactly one bundle folder');
    const format = str(values.format) ?? 'md';
    if (!(FORMATS as readonly string[]).includes(format))
      throw fieldError('ERR_USAGE', '--format', `must be one of ${FORMATS.join(', ')}`);
    const view = await readBundleView(dir);
    const summary = summaryOf(view);
    const lines = format === 'github' ? summaryAnnotations(summary) : summaryMarkdown(summary, view);
    for (const line of lines) io.stdout(line);
    return summary.status === 'passed' || summary.status === 'passed-with-warnings' ? 0 : 1;
  },
};
