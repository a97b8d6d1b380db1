/** `payconform explain`: every intermediate value of a request's signature. */
import { callbackControl } from '../../signing/callback.ts';
import { explain, explainCallback, explanationText } from '../../signing/explain.ts';
import { HOW, requireCredential } from '../../signing/request.ts';
import type { Command } from '../command.ts';
import { printMasked, shownExplanation } from '../output.ts';
import {
  CALLBACK_EXAMPLE,
  CALLBACK_OPTION,
  callbackFromOptions,
  OAUTH_OPTIONS,
  REQUEST_OPTIONS,
  requestEpilog,
  signFromOptions,
} from '../request-options.ts';
import { oneLine } from '../terminal-text.ts';

export const explainCommand: Command = {
  spec: {
    name: 'explain',
    summary:
      'Shows each step of the signature (cents, concatenation, encoded and sorted pairs, base string, key form, ' +
      'signature), as text or JSON.',
    usage:
      'payconform explain (--url URL | --operation NAME … | --callback) [--param NAME=VALUE …] [credentials] ' +
      '[--json]',
    options: { ...REQUEST_OPTIONS, ...OAUTH_OPTIONS, ...CALLBACK_OPTION },
    epilog: requestEpilog('explain').replace(
      '\n\nEnvironment',
      `\n${CALLBACK_EXAMPLE.replace('{command}', 'explain')}\n\nEnvironment`,
    ),
  },
  run({ values }, io) {
    if (values.callback === true) {
      const { params, controlKey } = callbackFromOptions(values, io.env);
      const explanation = explainCallback(
        callbackControl(params, requireCredential(controlKey, 'control key', HOW.controlKey)),
      );
      const request = { url: '', params };
      const reveal = values['reveal-card-data'] === true;
      const text = explanationText(shownExplanation(explanation, request, reveal));
      printMasked(io, values.json ? JSON.stringify(explanation, null, 2) : text, request, reveal);
      return 0;
    }
    const { request, result, warnings } = signFromOptions(values, io.env);
    for (const warning of warnings) io.stderr(oneLine(warning));
    const explanation = explain(result);
    const reveal = values['reveal-card-data'] === true;
    const text = explanationText(shownExplanation(explanation, request, reveal));
    printMasked(io, values.json ? JSON.stringify(explanation, null, 2) : text, request, reveal);
    return 0;
  },
};
