/** `payconform verify`: is the control field or Authorization header of a request valid? */
import { verifyRequest } from '../../signing/verify.ts';
import { str } from '../args.ts';
import type { Command } from '../command.ts';
import { fields, printMasked } from '../output.ts';
import { credentialsFromOptions, GIVEN_SIGNATURE_OPTIONS, REQUEST_OPTIONS, requestEpilog, requestFromOptions } from '../request-options.ts';

export const verifyCommand: Command = {
  spec: {
    name: 'verify',
    summary: 'Checks a control value or an OAuth Authorization header against the request. Exit 0 valid, 1 invalid, 2 bad input.',
    usage: 'payconform verify (--url URL | --operation NAME …) [--param NAME=VALUE …] (--control HEX | --authorization HEADER) [credentials]',
    options: {
      ...REQUEST_OPTIONS,
      ...GIVEN_SIGNATURE_OPTIONS,
    },
    epilog: requestEpilog('verify'),
  },
  run({ values }, io) {
    const request = requestFromOptions(values, io.env);
    const credentials = credentialsFromOptions(request, values, io.env, { publicKeyFile: str(values['public-key-file']) });
    const verdict = verifyRequest(request, credentials, { control: str(values.control), authorization: str(values.authorization) });
    const text = values.json
      ? JSON.stringify(verdict, null, 2)
      : fields([
          ['verdict', verdict.valid ? 'valid' : `invalid (${verdict.reason})`],
          ['operation', `${verdict.operation} (${verdict.scheme})`],
          ['reason', verdict.message],
          ['controlInput', verdict.valid ? undefined : verdict.controlInput],
          ['baseString', verdict.valid ? undefined : verdict.baseString],
        ]);
    printMasked(io, text, request, values['reveal-card-data'] === true);
    return verdict.valid ? 0 : 1;
  },
};
