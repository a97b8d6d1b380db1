/**
 * The options every signing command shares: which request (by --url, or by --operation with
 * --base-url and an endpoint id), its form parameters, and the credentials (flags first, then the
 * PAYCONFORM_* environment variables of design.md). Credential files are read only when the
 * endpoint's scheme needs them.
 */
import { endpointByOperation, endpointUrl, type Endpoint } from '../catalogue/index.ts';
import { fieldError } from '../errors.ts';
import { readUserFile } from '../read-file.ts';
import { decodeForm, parseParamOption, type Pair } from '../signing/form-body.ts';
import type { Credentials, RequestInput } from '../signing/request.ts';
import { resolveEndpoint } from '../signing/request.ts';
import { signRequest, type SignResult } from '../signing/sign.ts';
import { list, str, type OptionSpecs, type Parsed } from './args.ts';

export const REQUEST_OPTIONS: OptionSpecs = {
  url: {
    type: 'string',
    valueName: 'URL',
    description: 'full request URL: origin, any prefix before /api/, path with endpointId, optional query',
  },
  operation: {
    type: 'string',
    valueName: 'NAME',
    description: 'catalogue operation (SALE, PAYOUT, PAYOUT_V4 …) instead of --url',
  },
  'base-url': {
    type: 'string',
    valueName: 'URL',
    description: 'with --operation: the service address, including any prefix before /api/',
  },
  'endpoint-id': {
    type: 'string',
    valueName: 'N',
    description: 'with --operation: endpointId (default $PAYCONFORM_ENDPOINT_ID)',
  },
  'endpoint-group-id': {
    type: 'string',
    valueName: 'N',
    description: 'with --operation: endpoint group id, where the operation accepts one ($PAYCONFORM_ENDPOINT_GROUP_ID)',
  },
  method: {
    type: 'string',
    valueName: 'METHOD',
    description: 'HTTP method (default POST, the only one the spec uses)',
  },
  param: {
    type: 'string',
    multiple: true,
    valueName: 'NAME=VALUE',
    description: 'form parameter, repeatable, order kept',
  },
  'body-file': {
    type: 'string',
    valueName: 'FILE',
    description: 'form parameters from a urlencoded body file (- for stdin); --param values follow them',
  },
  login: { type: 'string', valueName: 'LOGIN', description: 'merchant login (default $PAYCONFORM_LOGIN)' },
  'control-key-file': {
    type: 'string',
    valueName: 'FILE',
    description: 'file holding the merchant control key (default: $PAYCONFORM_CONTROL_KEY)',
  },
  'private-key-file': {
    type: 'string',
    valueName: 'FILE',
    description: 'RSA private key PEM for /api/v4/ (default $PAYCONFORM_PRIVATE_KEY_FILE)',
  },
  json: { type: 'boolean', description: 'print one JSON object instead of text' },
  'reveal-card-data': {
    type: 'boolean',
    description: 'show card numbers and CVVs in full (test cards only); masked by default',
  },
};

export const OAUTH_OPTIONS: OptionSpecs = {
  nonce: { type: 'string', valueName: 'NONCE', description: 'oauth_nonce (default: 32 random hex digits)' },
  timestamp: { type: 'string', valueName: 'SECONDS', description: 'oauth_timestamp (default: now)' },
  realm: { type: 'string', valueName: 'REALM', description: 'realm in the Authorization header (never signed)' },
};

/** How much of an answer is read (capped-answer.ts): certify, send and inspect --upstream take it. */
export const MAX_ANSWER_BYTES_OPTION: OptionSpecs = {
  'max-answer-bytes': {
    type: 'string',
    valueName: 'N',
    description:
      'answer bytes kept (default 1048576, 1 MiB): of a larger answer its first N bytes are kept, marked ' +
      'truncated, with its size',
  },
};

/** What a partner sent, for verify and diagnose. */
export const GIVEN_SIGNATURE_OPTIONS: OptionSpecs = {
  control: {
    type: 'string',
    valueName: 'HEX',
    description: 'the control value sent (default: the control form parameter)',
  },
  authorization: {
    type: 'string',
    valueName: 'HEADER',
    description: 'the Authorization header value sent (OAuth …)',
  },
  'public-key-file': {
    type: 'string',
    valueName: 'FILE',
    description: 'RSA public key PEM for /api/v4/ (or give --private-key-file)',
  },
};

/** The help's examples, written for the command they are shown in (verify takes the value sent). */
export function requestEpilog(command: 'sign' | 'explain' | 'verify'): string {
  const sent = (what: string): string => (command === 'verify' ? ` \\\n    ${what}` : '');
  const controlSent = sent('--control 5c0f8a4f4cfd9a0b0c4bd5a6b4f2f3f8d1e2a7c9');
  const fixedOAuth = command === 'verify' ? '' : ' --nonce n1 --timestamp 1700000000';
  const headerSent = sent('--authorization "$(cat authorization.txt)"');
  return `Examples:
  payconform ${command} --url https://sandbox.gateway.example/paynet/api/v2/sale/1234 \\
    --param client_orderid=A-1 --param amount=10.00 --param email=a@b.c --control-key-file key.txt${controlSent}
  payconform ${command} --operation PAYOUT --base-url https://sandbox.gateway.example/paynet --endpoint-id 1234 \\
    --param amount=100.00 --login merchant --control-key-file key.txt${fixedOAuth}${headerSent}

Environment: PAYCONFORM_LOGIN, PAYCONFORM_CONTROL_KEY, PAYCONFORM_PRIVATE_KEY_FILE,
PAYCONFORM_ENDPOINT_ID, PAYCONFORM_ENDPOINT_GROUP_ID (flags win).`;
}

export type Env = Record<string, string | undefined>;

/** A file named by an option; `-` is standard input. */
export const readTextFile = (path: string, field: string): string => readUserFile(path, field, { dashIsStdin: true });

/** The form pairs of --body-file, then --param, in order. */
function paramsFromOptions(values: Parsed['values']): Pair[] {
  const params: Pair[] = [];
  const bodyFile = str(values['body-file']);
  // A loop, not push(...pairs): spreading 200,000 fields as arguments overflows the stack.
  if (bodyFile !== undefined)
    for (const pair of decodeForm(readTextFile(bodyFile, '--body-file').replace(/\r?\n$/, ''), '--body-file'))
      params.push(pair);
  for (const p of list(values.param)) params.push(parseParamOption(p));
  return params;
}

/** --callback: the gateway's callback to the merchant (docs/callbacks.md), in place of a request. */
export const CALLBACK_OPTION: OptionSpecs = {
  callback: {
    type: 'boolean',
    description:
      "the gateway's callback to server_callback_url or the customer's return: control = SHA-1(status + orderid + " +
      'client_orderid + key); give its fields with --param or --body-file, no --url',
  },
};

export const CALLBACK_EXAMPLE = `  payconform {command} --callback --param status=approved --param orderid=100000123 \\
    --param client_orderid=ORD-1 --param amount=10.00 --control-key-file key.txt`;

/** The callback's fields and the control key, for `--callback`; a request's options are refused. */
export function callbackFromOptions(
  values: Parsed['values'],
  env: Env,
): { params: Pair[]; controlKey: string | undefined } {
  for (const flag of ['url', 'operation', 'base-url', 'endpoint-id', 'endpoint-group-id']) {
    if (values[flag] !== undefined)
      throw fieldError(
        'ERR_USAGE',
        `--${flag}`,
        "names a request to the gateway; --callback signs the gateway's callback, whose fields come from --param " +
          'or --body-file',
      );
  }
  const keyFile = str(values['control-key-file']);
  return {
    params: paramsFromOptions(values),
    controlKey: keyFile !== undefined ? controlKeyFrom(keyFile) : env.PAYCONFORM_CONTROL_KEY,
  };
}

export function requestFromOptions(values: Parsed['values'], env: Env): RequestInput {
  const url = str(values.url);
  const operation = str(values.operation);
  if (url !== undefined && operation !== undefined)
    throw fieldError('ERR_USAGE', '--url', 'give either --url or --operation with --base-url, not both');
  const target: { url: string } | { operation: string } | undefined =
    url !== undefined ? { url } : operation !== undefined ? { operation } : undefined;
  if (target === undefined)
    throw fieldError('ERR_USAGE', '--url', 'required (or --operation with --base-url and --endpoint-id)');
  const params = paramsFromOptions(values);
  const method = (str(values.method) ?? 'POST').toUpperCase();
  // An HTTP method is a token (RFC 9110 §9.1): no space or separator can be in one.
  if (!/^[!#$%&'*+.^_`|~0-9A-Z-]+$/.test(method))
    throw fieldError('ERR_USAGE', '--method', `"${method.slice(0, 20)}" is not an HTTP method (a token such as POST)`);
  const to = 'url' in target ? target.url : urlFromOperation(endpointByOperation(target.operation), values, env);
  return { method, url: to, params };
}

function urlFromOperation(endpoint: Endpoint, values: Parsed['values'], env: Env): string {
  const baseUrl = str(values['base-url']);
  if (baseUrl === undefined) throw fieldError('ERR_USAGE', '--base-url', 'required with --operation');
  const groupId =
    str(values['endpoint-group-id']) ??
    (str(values['endpoint-id']) === undefined ? env.PAYCONFORM_ENDPOINT_GROUP_ID : undefined);
  const endpointId = str(values['endpoint-id']) ?? (groupId === undefined ? env.PAYCONFORM_ENDPOINT_ID : undefined);
  if (groupId !== undefined && endpointId === undefined) {
    if (!endpoint.endpointGroup.accepted)
      throw fieldError(
        'ERR_USAGE',
        '--endpoint-group-id',
        `${endpoint.operation} does not accept an endpoint group id (A-3: its public page lists no group URL)`,
      );
    return endpointUrl(baseUrl, endpoint, groupId, '--endpoint-group-id');
  }
  if (endpointId === undefined)
    throw fieldError('ERR_USAGE', '--endpoint-id', 'required with --operation (or set PAYCONFORM_ENDPOINT_ID)');
  return endpointUrl(baseUrl, endpoint, endpointId, '--endpoint-id');
}

/** The control key of a file: its text without one final line break; an empty file is said to be empty, not missing. */
function controlKeyFrom(file: string): string {
  const key = readTextFile(file, '--control-key-file').replace(/\r?\n$/, '');
  if (key === '')
    throw fieldError('ERR_USAGE', '--control-key-file', `${file} is empty; it must hold the merchant control key`);
  return key;
}

/** Credentials the request's scheme needs, from flags, then environment. */
export function credentialsFromOptions(
  request: RequestInput,
  values: Parsed['values'],
  env: Env,
  extra: { publicKeyFile?: string | undefined } = {},
): Credentials {
  const scheme = resolveEndpoint(request.url).endpoint.auth.kind;
  const keyFile = str(values['control-key-file']);
  const controlKey = keyFile !== undefined ? controlKeyFrom(keyFile) : env.PAYCONFORM_CONTROL_KEY;
  const privateKeyFile = str(values['private-key-file']) ?? env.PAYCONFORM_PRIVATE_KEY_FILE;
  const needsRsa = scheme === 'oauth-rsa-sha256';
  return {
    login: str(values.login) ?? env.PAYCONFORM_LOGIN,
    // Also on RSA endpoints: diagnose recognises HMAC used where RSA is required.
    controlKey,
    privateKeyPem:
      needsRsa && privateKeyFile !== undefined && extra.publicKeyFile === undefined
        ? readTextFile(privateKeyFile, '--private-key-file')
        : undefined,
    publicKeyPem:
      needsRsa && extra.publicKeyFile !== undefined
        ? readTextFile(extra.publicKeyFile, '--public-key-file')
        : undefined,
  };
}

/**
 * The request, its credentials and its signature, as `sign` and `explain` take them from options,
 * with warnings about what is allowed but probably not meant (a timestamp in milliseconds).
 */
export function signFromOptions(
  values: Parsed['values'],
  env: Env,
): { request: RequestInput; result: SignResult; warnings: string[] } {
  const request = requestFromOptions(values, env);
  const credentials = credentialsFromOptions(request, values, env);
  const timestamp = str(values.timestamp);
  const result = signRequest(request, credentials, { nonce: str(values.nonce), timestamp, realm: str(values.realm) });
  const warnings =
    timestamp !== undefined && /^\d+$/.test(timestamp) && Number(timestamp) > 1e11
      ? [
          `warning: --timestamp ${timestamp} looks like milliseconds; oauth_timestamp is in seconds ` +
            `(${timestamp.slice(0, -3)}?), and a gateway will refuse a time that far ahead`,
        ]
      : [];
  return { request, result, warnings };
}
