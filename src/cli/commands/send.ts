/**
 * `payconform send`: one signed request to a gateway, printed redacted with the answer and its
 * conformance problems: how a support engineer reproduces a partner's call.
 */
import { PayClient } from '../../client/client.ts';
import { problemLine } from '../../client/exchange-text.ts';
import { prepareRequest } from '../../client/prepare.ts';
import { endpointByOperation, endpointUrl } from '../../catalogue/index.ts';
import { wholeNumber } from '../../whole-number.ts';
import { maxAnswerBytes, truncationText } from '../../capped-answer.ts';
import { fieldError } from '../../errors.ts';
import { encodeForm, parseParamOption } from '../../signing/form-body.ts';
import { credentialSecrets, redactAuthorization, redactEchoes, redactJson, redactParams } from '../../report/redact.ts';
import { list, onePositional, str } from '../args.ts';
import type { Command } from '../command.ts';
import { credentialsFromOptions, MAX_ANSWER_BYTES_OPTION, OAUTH_OPTIONS } from '../request-options.ts';
import { oneLine, shown, shownBlock } from '../terminal-text.ts';

/** The mark before each line of the gateway's answer body: no line of it reads as one of payconform's. */
const ANSWER_MARK = '| ';

/**
 * What the answer says of the spec. The spec lists 200, 400 and 500 for every endpoint; another
 * status (a 404, a 406 for a missing Accept header) is a refusal it does not describe, not a breach.
 */
function verdictLines(status: number, noProblem: boolean): string[] {
  const listed = status === 200 || status === 400 || status === 500;
  const unlisted =
    `HTTP ${status} is not among the statuses the spec lists for this endpoint (200, 400, 500): a ` +
    `refusal it does not describe (A-21)`;
  if (noProblem)
    return [listed ? 'the answer follows the spec' : `the answer breaks nothing the spec states; ${unlisted}`];
  return listed ? [] : [unlisted];
}

export const sendCommand: Command = {
  spec: {
    name: 'send',
    summary:
      'Sends one signed request to a gateway and prints the redacted request, the answer and any way the answer ' +
      'breaks the spec.',
    usage:
      'payconform send OPERATION --base-url URL [--endpoint-id N] [--param NAME=VALUE …] [--prepare] [credentials] ' +
      '[--timeout-ms MS] [--max-answer-bytes N]',
    positionals: true,
    options: {
      'base-url': {
        type: 'string',
        valueName: 'URL',
        description: 'the service address, including any prefix before /api/ ($PAYCONFORM_BASE_URL)',
      },
      'endpoint-id': {
        type: 'string',
        valueName: 'N',
        description: 'endpointId or endpoint group id (default $PAYCONFORM_ENDPOINT_ID)',
      },
      param: {
        type: 'string',
        multiple: true,
        valueName: 'NAME=VALUE',
        description: 'form parameter, repeatable, order kept',
      },
      prepare: {
        type: 'boolean',
        description:
          "fill mandatory fields missing from --param with the request schema's test values (each client order id " +
          'fresh), and first create what the operation acts on (e.g. a preauth to capture); those earlier ' +
          'requests are sent too',
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
      ...OAUTH_OPTIONS,
      'timeout-ms': {
        type: 'string',
        valueName: 'MS',
        description:
          "deadline of each request, from connecting to the answer's last byte (default 30000): a gateway that " +
          'trickles its answer is cut there; a POST is never retried',
      },
      ...MAX_ANSWER_BYTES_OPTION,
      json: { type: 'boolean', description: 'print one JSON object instead of text' },
    },
    epilog:
      'Exit 0 when the answer follows the spec (media type and the JSON Schema of its status), 1 when it does ' +
      'not, 2 on bad input or when no answer came (never retried).\nEach line of the answer body is printed ' +
      'after "| ", its control characters escaped (docs/hostile-content.md).',
  },
  async run({ values, positionals }, io) {
    const operation = onePositional(
      positionals,
      'OPERATION',
      'give exactly one operation, e.g. payconform send SALE …',
    );
    const endpoint = endpointByOperation(operation);
    const baseUrl = str(values['base-url']) ?? io.env.PAYCONFORM_BASE_URL;
    if (baseUrl === undefined) throw fieldError('ERR_USAGE', '--base-url', 'required (or set PAYCONFORM_BASE_URL)');
    const endpointId = str(values['endpoint-id']) ?? io.env.PAYCONFORM_ENDPOINT_ID;
    if (endpointId === undefined)
      throw fieldError('ERR_USAGE', '--endpoint-id', 'required (or set PAYCONFORM_ENDPOINT_ID)');
    // At most a day: past 2^31 - 1 ms Node's timers fire at once, so 1e20 would have meant 1 ms.
    const timeout = wholeNumber(str(values['timeout-ms']), '--timeout-ms', 1, 86_400_000) ?? 30_000;
    const answerCap = maxAnswerBytes(str(values['max-answer-bytes']));
    const params = list(values.param).map((p) => parseParamOption(p));
    const url = endpointUrl(baseUrl, endpoint, endpointId);
    const credentials = credentialsFromOptions({ url, params }, values, io.env);
    const client = new PayClient({
      baseUrl,
      credentials,
      endpointId,
      connectTimeoutMs: timeout,
      timeoutMs: timeout,
      maxAnswerBytes: answerCap,
    });
    try {
      // Fresh client order ids, as a real integration sends them (a gateway or inspect refuses reuse).
      const runId = Date.now().toString(36).toUpperCase();
      let n = 0;
      const sent = values.prepare
        ? await prepareRequest(client, endpoint.operation, params, () => `PC-${runId}-${++n}`)
        : params;
      const x = await client.send(endpoint.operation, sent, {
        nonce: str(values.nonce),
        timestamp: str(values.timestamp),
        realm: str(values.realm),
      });
      const headers = {
        ...x.request.headers,
        ...(x.request.headers.authorization
          ? { authorization: redactAuthorization(x.request.headers.authorization) }
          : {}),
      };
      const shownParams = redactParams(x.request.params);
      // Whatever the gateway echoed (the control key, card data, a signature) is redacted before it is
      // printed, and then escaped for the terminal: masked first, so an escape never shows a secret.
      const secrets = credentialSecrets(credentials);
      const redacted = (text: string): string => redactEchoes(text, x.request.params, secrets);
      if (values.json) {
        const printed = {
          request: { method: 'POST', url: x.request.url, headers, params: shownParams },
          status: x.status,
          contentType: x.contentType,
          body: x.body,
          ...(x.truncated === undefined ? {} : { truncated: x.truncated }),
          problems: x.problems,
        };
        io.stdout(JSON.stringify(redactJson(printed, x.request.params, secrets), null, 2));
      } else {
        io.stdout(
          [
            oneLine(redacted(`POST ${x.request.url}`)),
            ...Object.entries(headers).map(([k, v]) => oneLine(redacted(`${k}: ${v}`))),
            '',
            oneLine(redacted(encodeForm(shownParams))),
            '',
            `HTTP ${x.status} ${shown(redacted(x.contentType))}`,
            typeof x.body === 'string'
              ? shownBlock(redacted(x.body), ANSWER_MARK)
              : shownBlock(redacted(JSON.stringify(x.body, null, 2)), ANSWER_MARK, oneLine),
            ...(x.truncated === undefined ? [] : [`[truncated: the answer is ${truncationText(x.truncated)}]`]),
            '',
            ...x.problems.map((p) => oneLine(redacted(problemLine(p)))),
            ...verdictLines(x.status, x.problems.length === 0),
          ].join('\n'),
        );
      }
      // Only a breach of the spec fails; a difference from an assumption is a warning (docs/certify.md).
      return x.problems.some((p) => p.assumption === undefined) ? 1 : 0;
    } finally {
      await client.close();
    }
  },
};
