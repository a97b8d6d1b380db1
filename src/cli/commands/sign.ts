/** `payconform sign`: the signature of one request, driven by the catalogue. */
import { expectedValues } from '../../signing/sign.ts';
import type { Command } from '../command.ts';
import { fields, printMasked } from '../output.ts';
import { OAUTH_OPTIONS, REQUEST_OPTIONS, requestEpilog, signFromOptions } from '../request-options.ts';

export const signCommand: Command = {
  spec: {
    name: 'sign',
    summary: 'Computes the control field or the OAuth Authorization header of a request, as the catalogue says the endpoint is signed.',
    usage: 'payconform sign (--url URL | --operation NAME --base-url URL --endpoint-id N) [--param NAME=VALUE …] [credentials] [--json]',
    options: { ...REQUEST_OPTIONS, ...OAUTH_OPTIONS },
    epilog: requestEpilog('sign'),
  },
  run({ values }, io) {
    const { request, result, warnings } = signFromOptions(values, io.env);
    for (const warning of warnings) io.stderr(warning);
    const expected = expectedValues(result);
    const text = values.json
      ? JSON.stringify({ operation: result.endpoint.operation, scheme: result.scheme, endpointId: result.endpointId, ...expected }, null, 2)
      : fields([
          ['operation', `${result.endpoint.operation} (${result.scheme}, endpointId ${result.endpointId})`],
          ['controlInput', expected.controlInput],
          ['control', expected.control],
          ['baseString', expected.baseString],
          ['signature', expected.signature],
          ['authorization', expected.authorization],
        ]);
    printMasked(io, text, request, values['reveal-card-data'] === true);
    return 0;
  },
};
