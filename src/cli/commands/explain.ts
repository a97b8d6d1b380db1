/** `payconform explain`: every intermediate value of a request's signature. */
import { explain, explanationText } from '../../signing/explain.ts';
import type { Command } from '../command.ts';
import { printMasked } from '../output.ts';
import { OAUTH_OPTIONS, REQUEST_OPTIONS, requestEpilog, signFromOptions } from '../request-options.ts';

export const explainCommand: Command = {
  spec: {
    name: 'explain',
    summary: 'Shows each step of the signature (cents, concatenation, encoded and sorted pairs, base string, key form, signature), as text or JSON.',
    usage: 'payconform explain (--url URL | --operation NAME …) [--param NAME=VALUE …] [credentials] [--json]',
    options: { ...REQUEST_OPTIONS, ...OAUTH_OPTIONS },
    epilog: requestEpilog('explain'),
  },
  run({ values }, io) {
    const { request, result, warnings } = signFromOptions(values, io.env);
    for (const warning of warnings) io.stderr(warning);
    const explanation = explain(result);
    printMasked(io, values.json ? JSON.stringify(explanation, null, 2) : explanationText(explanation), request, values['reveal-card-data'] === true);
    return 0;
  },
};
