/**
 * `payconform diagnose`: a partner's request as sent (flags, or a raw HTTP request file or stdin),
 * checked and, if wrong, matched against the known canonicalisation mistakes (docs/diagnoses.md).
 */
import { fieldError } from '../../errors.ts';
import { present } from '../../present.ts';
import { diagnose } from '../../rules/diagnose.ts';
import { MISTAKES, type Diagnosis } from '../../signing/diagnose/index.ts';
import { firstDifference } from '../../signing/first-difference.ts';
import { callbackGetFields, parseRawRequest } from '../../signing/raw-request.ts';
import { str, oneOf } from '../args.ts';
import type { Command } from '../command.ts';
import { fields, printMasked } from '../output.ts';
import { shown } from '../terminal-text.ts';
import {
  CALLBACK_OPTION,
  callbackFromOptions,
  credentialsFromOptions,
  readTextFile,
  GIVEN_SIGNATURE_OPTIONS,
  REQUEST_OPTIONS,
  requestFromOptions,
} from '../request-options.ts';

function report(d: Diagnosis): Array<readonly [string, string | undefined]> {
  const rows: Array<readonly [string, string | undefined]> = [
    ['verdict', d.verdict],
    ['scheme', d.scheme],
    ['reason', d.message],
  ];
  for (const id of d.defects) {
    const m = present(
      MISTAKES.find((x) => x.id === id),
      `the mistake ${id}`,
    );
    rows.push(['defect', `${id}: ${m.title}`], ['', d.explanations?.[id] ?? m.explanation], ['fix', m.fix]);
  }
  // Nothing reproduces the value: name what was ruled out, so the user knows what is left to check.
  if (d.tried) rows.push(['tried', d.tried.join(', ')]);
  const field = d.correct.baseString !== undefined ? 'baseString' : 'controlInput';
  const correct = d.correct[field];
  const partner = d.partner?.[field];
  rows.push(['correct', correct], ['partner', partner]);
  const diff = correct !== undefined && partner !== undefined ? firstDifference(correct, partner) : null;
  // Under the value as shown: the part before the difference, the same in both, as wide as fields() prints it.
  const column = diff && correct !== undefined ? shown(correct.slice(0, diff.position)).length : 0;
  if (diff) rows.push(['', `${' '.repeat(column)}^ first difference at position ${diff.position}`]);
  return rows;
}

/** The help's raw request, as printf writes it: the escapes stay text for the shell. */
const RAW_REQUEST =
  String.raw`POST /paynet/api/v2/payout/77 HTTP/1.1\r\nHost: sandbox.gateway.example\r\n` +
  String.raw`Authorization: OAuth …\r\n\r\namount=100.00`;

export const diagnoseCommand: Command = {
  spec: {
    name: 'diagnose',
    summary:
      "Says whether a partner's signature is valid and, if not, which known canonicalisation mistake reproduces it.",
    usage:
      'payconform diagnose (--url URL … | --request-file FILE | --callback) [--control HEX | --authorization ' +
      'HEADER] [credentials] [--json]',
    options: {
      ...REQUEST_OPTIONS,
      ...GIVEN_SIGNATURE_OPTIONS,
      'request-file': {
        type: 'string',
        valueName: 'FILE',
        description:
          "the raw HTTP request as sent (request line, headers, blank line, body; with --callback a GET's fields " +
          'are read from its query); - for stdin',
      },
      scheme: {
        type: 'string',
        valueName: 'http|https',
        description: 'with --request-file: the scheme of the URL (default https)',
      },
      ...CALLBACK_OPTION,
    },
    epilog: `Exit 0 valid, 1 invalid, 2 bad input. Mistake ids: docs/diagnoses.md.

Example:
  printf '${RAW_REQUEST}' \\
    | payconform diagnose --request-file - --login merchant --control-key-file key.txt
  payconform diagnose --callback --body-file callback-body.txt --control-key-file key.txt`,
  },
  run({ values }, io) {
    oneOf(values, 'control', ['authorization']);
    // A raw request is the whole request: URL and fields given beside it would be ignored.
    oneOf(values, 'request-file', ['url', 'operation', 'param', 'body-file']);
    const file = str(values['request-file']);
    const scheme = str(values.scheme) ?? 'https';
    if (scheme !== 'http' && scheme !== 'https') throw fieldError('ERR_USAGE', '--scheme', 'must be http or https');
    const raw = file === undefined ? undefined : parseRawRequest(readTextFile(file, '--request-file'), scheme);
    const callback = values.callback === true;
    // A callback's fields come from the raw request (a GET's query, as the public gateways send
    // them, A-31; a POST's body), or from --param and --body-file.
    const fromOptions = callback && !raw ? callbackFromOptions(values, io.env) : undefined;
    const rawRequest =
      raw && callback && raw.request.method === 'GET'
        ? { ...raw.request, params: callbackGetFields(raw.request.url) }
        : raw?.request;
    const request =
      rawRequest ?? (fromOptions ? { url: '', params: fromOptions.params } : requestFromOptions(values, io.env));
    const credentials = callback
      ? { controlKey: fromOptions?.controlKey ?? callbackFromOptions(values, io.env).controlKey }
      : credentialsFromOptions(request, values, io.env, { publicKeyFile: str(values['public-key-file']) });
    const d = diagnose({
      request,
      credentials,
      callback,
      given: { control: str(values.control), authorization: str(values.authorization) ?? raw?.authorization },
    });
    printMasked(
      io,
      values.json ? JSON.stringify(d, null, 2) : fields(report(d).map(([k, v]) => [k === '' ? ' ' : k, v] as const)),
      request,
      values['reveal-card-data'] === true,
    );
    return d.verdict === 'valid' ? 0 : 1;
  },
};
