/** `payconform explain`: every intermediate value of a request's signature. */
import { explain, explanationText } from '../../signing/explain.ts';
import { signRequest } from '../../signing/sign.ts';
import { str } from '../args.ts';
import type { Command } from '../command.ts';
import { printMasked } from '../output.ts';
import { credentialsFromOptions, OAUTH_OPTIONS, REQUEST_EPILOG, REQUEST_OPTIONS, requestFromOptions } from '../request-options.ts';

export const explainCommand: Command = {
  spec: {
    name: 'explain',
    summary: 'Shows each step of the signature (cents, concatenation, encoded and sorted pairs, base string, key form, signature), as text or JSON.',
    usage: 'payconform explain (--url URL | --operation NAME …) [--param NAME=VALUE …] [credentials] [--json]',
    options: { ...REQUEST_OPTIONS, ...OAUTH_OPTIONS },
    epilog: REQUEST_EPILOG,
  },
  run({ values }, io) {
    const request = requestFromOptions(values, io.env);
    const credentials = credentialsFromOptions(request, values, io.env);
    const result = signRequest(request, credentials, { nonce: str(values.nonce), timestamp: str(values.timestamp), realm: str(values.realm) });
    const explanation = explain(result);
    printMasked(io, values.json ? JSON.stringify(explanation, null, 2) : explanationText(explanation), request, values['reveal-card-data'] === true);
    return 0;
  },
};
