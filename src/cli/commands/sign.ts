/** `payconform sign`: the signature of one request, driven by the catalogue. */
import { signRequest, expectedValues } from '../../signing/sign.ts';
import { str } from '../args.ts';
import type { Command } from '../command.ts';
import { fields, printMasked } from '../output.ts';
import { credentialsFromOptions, OAUTH_OPTIONS, REQUEST_EPILOG, REQUEST_OPTIONS, requestFromOptions } from '../request-options.ts';

export const signCommand: Command = {
  spec: {
    name: 'sign',
    summary: 'Computes the control field or the OAuth Authorization header of a request, as the catalogue says the endpoint is signed.',
    usage: 'payconform sign (--url URL | --operation NAME --base-url URL --endpoint-id N) [--param NAME=VALUE …] [credentials] [--json]',
    options: { ...REQUEST_OPTIONS, ...OAUTH_OPTIONS },
    epilog: REQUEST_EPILOG,
  },
  run({ values }, io) {
    const request = requestFromOptions(values, io.env);
    const credentials = credentialsFromOptions(request, values, io.env);
    const result = signRequest(request, credentials, { nonce: str(values.nonce), timestamp: str(values.timestamp), realm: str(values.realm) });
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
