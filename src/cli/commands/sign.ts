/** `payconform sign`: the signature of one request, driven by the catalogue. */
import { CALLBACK_NAME } from '../../catalogue/index.ts';
import { callbackControl } from '../../signing/callback.ts';
import { HOW, requireCredential } from '../../signing/request.ts';
import { expectedValues } from '../../signing/sign.ts';
import type { Command } from '../command.ts';
import { fields, printMasked } from '../output.ts';
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

export const signCommand: Command = {
  spec: {
    name: 'sign',
    summary:
      'Computes the control field or the OAuth Authorization header of a request, as the catalogue says the ' +
      'endpoint is signed.',
    usage:
      'payconform sign (--url URL | --operation NAME --base-url URL --endpoint-id N | --callback) [--param ' +
      'NAME=VALUE …] [credentials] [--json]',
    options: { ...REQUEST_OPTIONS, ...OAUTH_OPTIONS, ...CALLBACK_OPTION },
    epilog: requestEpilog('sign').replace(
      '\n\nEnvironment',
      `\n${CALLBACK_EXAMPLE.replace('{command}', 'sign')}\n\nEnvironment`,
    ),
  },
  run({ values }, io) {
    if (values.callback === true) {
      const { params, controlKey } = callbackFromOptions(values, io.env);
      const { controlInput, control } = callbackControl(
        params,
        requireCredential(controlKey, 'control key', HOW.controlKey),
      );
      const text = values.json
        ? JSON.stringify({ operation: CALLBACK_NAME, scheme: 'control', controlInput, control }, null, 2)
        : fields([
            [
              'operation',
              `${CALLBACK_NAME} (control of the gateway's callback: status + orderid + client_orderid + key)`,
            ],
            ['controlInput', controlInput],
            ['control', control],
          ]);
      printMasked(io, text, { url: '', params }, values['reveal-card-data'] === true);
      return 0;
    }
    const { request, result, warnings } = signFromOptions(values, io.env);
    for (const warning of warnings) io.stderr(oneLine(warning));
    const expected = expectedValues(result);
    const text = values.json
      ? JSON.stringify(
          { operation: result.endpoint.operation, scheme: result.scheme, endpointId: result.endpointId, ...expected },
          null,
          2,
        )
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
