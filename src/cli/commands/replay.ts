/** `payconform replay FILE.har`: a recorded merchant session sent again, each answer compared with the recording. */
import { PayClient } from '../../client/client.ts';
import { replay, type ReplayResult } from '../../client/replay.ts';
import { endpointUrl } from '../../catalogue/index.ts';
import { readHar } from '../../report/har-read.ts';
import { fieldError } from '../../errors.ts';
import { wholeNumber } from '../../whole-number.ts';
import { onePositional, str } from '../args.ts';
import type { Command, ExitCode } from '../command.ts';
import { credentialsFromOptions } from '../request-options.ts';
import { oneLine } from '../terminal-text.ts';

function line(r: ReplayResult): string {
  const what = `#${r.index} ${r.operation}`;
  if ('notSent' in r.replayed) return `${what}: NOT SENT: ${r.replayed.notSent}`;
  const { status, fields } = r.replayed;
  const now = [status, fields.type, fields.status, fields['error-code']]
    .filter((v) => v !== undefined)
    .map((v) => String(v).slice(0, 80))
    .join(' ');
  return r.differences.length === 0 ? `${what}: same (${now})` : `${what}: DIFFERS: ${r.differences.join('; ')}`;
}

export const replayCommand: Command = {
  spec: {
    name: 'replay',
    summary:
      "Sends a recorded session (HAR: inspect --record's, a browser's or a proxy's) to a gateway again, signed " +
      'anew, and shows where the answers differ from the recording.',
    usage:
      'payconform replay FILE.har --base-url URL [--endpoint-id N] [--login LOGIN] [--control-key-file FILE] ' +
      '[--private-key-file PEM] [--timeout-ms MS] [--json]',
    options: {
      'base-url': {
        type: 'string',
        valueName: 'URL',
        description: 'the gateway, including any prefix before /api/ ($PAYCONFORM_BASE_URL)',
      },
      'endpoint-id': {
        type: 'string',
        valueName: 'N',
        description: 'send to this endpointId instead of the recorded one ($PAYCONFORM_ENDPOINT_ID)',
      },
      login: { type: 'string', valueName: 'LOGIN', description: 'merchant login (default $PAYCONFORM_LOGIN)' },
      'control-key-file': {
        type: 'string',
        valueName: 'FILE',
        description: 'file holding the merchant control key (default $PAYCONFORM_CONTROL_KEY)',
      },
      'private-key-file': {
        type: 'string',
        valueName: 'PEM',
        description: 'RSA private key for the v4 endpoints (default $PAYCONFORM_PRIVATE_KEY_FILE)',
      },
      'timeout-ms': { type: 'string', valueName: 'MS', description: 'deadline of each request (default 30000)' },
      json: { type: 'boolean', description: 'print one JSON object instead of text' },
    },
    positionals: true,
    epilog: [
      'Only POSTs to a path of the API are sent, in the recorded order; other entries are listed as skipped. Each',
      'request is signed anew (control, or a fresh OAuth nonce and timestamp), and later requests name the orders this',
      'replay made. A masked card number is sent as the test card with the same first six and last four digits; any',
      'other card is not sent. Compared: HTTP status, type, status, error-code. Exit 0 when every answer agrees, 1',
      'when one differs or a request could not be sent, 2 on bad input.',
    ].join('\n'),
  },
  async run({ values, positionals }, io): Promise<ExitCode> {
    const file = onePositional(positionals, 'FILE.har', 'give exactly one HAR file');
    const baseUrl = str(values['base-url']) ?? io.env.PAYCONFORM_BASE_URL;
    if (baseUrl === undefined) throw fieldError('ERR_USAGE', '--base-url', 'required (or set PAYCONFORM_BASE_URL)');
    const endpointId = str(values['endpoint-id']) ?? io.env.PAYCONFORM_ENDPOINT_ID;
    const timeout = wholeNumber(str(values['timeout-ms']), '--timeout-ms', 1, 86_400_000) ?? 30_000;
    const contents = readHar(file);
    const first = contents.requests[0];
    // The credentials the recorded endpoints need (a v4 one reads the private key).
    const rsa = contents.requests.find((r) => r.match.endpoint.auth.kind === 'oauth-rsa-sha256') ?? first;
    const url = rsa ? endpointUrl(baseUrl, rsa.match.endpoint, rsa.match.endpointId) : baseUrl;
    const credentials = credentialsFromOptions({ url, params: [] }, values, io.env);
    const client = new PayClient({ baseUrl, credentials, connectTimeoutMs: timeout, timeoutMs: timeout });
    let results: ReplayResult[];
    try {
      results = await replay(contents, client, endpointId);
    } finally {
      await client.close();
    }
    const differing = results.filter((r) => r.differences.length > 0).length;
    if (values.json) io.stdout(JSON.stringify({ results, skipped: contents.skipped }, null, 2));
    else {
      for (const r of results) io.stdout(oneLine(line(r)));
      for (const s of contents.skipped) io.stdout(oneLine(`#${s.index}: skipped: ${s.why}`));
      io.stdout(
        `${differing === 0 ? 'SAME' : 'DIFFERS'}: ${results.length} request(s) replayed, ${differing} differ from ` +
          `the recording, ${contents.skipped.length} entr(ies) skipped`,
      );
    }
    return differing === 0 ? 0 : 1;
  },
};
