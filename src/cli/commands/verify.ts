/** `payconform verify`: is the control field or Authorization header of a request valid? */
import type { RequestInput } from '../../signing/request.ts';
import { verifyCallbackRequest, verifyRequest } from '../../rules/verify.ts';
import type { Verdict } from '../../signing/verify.ts';
import { str, oneOf } from '../args.ts';
import type { Command } from '../command.ts';
import { fields, printMasked } from '../output.ts';
import {
  CALLBACK_EXAMPLE,
  CALLBACK_OPTION,
  callbackFromOptions,
  credentialsFromOptions,
  GIVEN_SIGNATURE_OPTIONS,
  REQUEST_OPTIONS,
  requestEpilog,
  requestFromOptions,
} from '../request-options.ts';

export const verifyCommand: Command = {
  spec: {
    name: 'verify',
    summary:
      'Checks a control value or an OAuth Authorization header against the request. Exit 0 valid, 1 invalid, 2 ' +
      'bad input.',
    usage:
      'payconform verify (--url URL | --operation NAME … | --callback) [--param NAME=VALUE …] (--control HEX | ' +
      '--authorization HEADER) [credentials]',
    options: {
      ...REQUEST_OPTIONS,
      ...GIVEN_SIGNATURE_OPTIONS,
      ...CALLBACK_OPTION,
    },
    epilog: requestEpilog('verify').replace(
      '\n\nEnvironment',
      `\n${CALLBACK_EXAMPLE.replace('{command}', 'verify')} \\\n    --control ` +
        `0123456789abcdef0123456789abcdef01234567\n\nEnvironment`,
    ),
  },
  run({ values }, io) {
    oneOf(values, 'control', ['authorization']);
    let request: RequestInput;
    let verdict: Verdict;
    if (values.callback === true) {
      const { params, controlKey } = callbackFromOptions(values, io.env);
      request = { url: '', params };
      verdict = verifyCallbackRequest(params, controlKey, str(values.control));
    } else {
      request = requestFromOptions(values, io.env);
      const credentials = credentialsFromOptions(request, values, io.env, {
        publicKeyFile: str(values['public-key-file']),
      });
      verdict = verifyRequest(request, credentials, {
        control: str(values.control),
        authorization: str(values.authorization),
      });
    }
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
