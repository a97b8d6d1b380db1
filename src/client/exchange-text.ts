/**
 * An exchange as evidence: the request and the answer as text, and a curl command that replays the
 * request's shape, all redacted (signatures, card numbers, CVVs) so they may be attached to reports.
 */
import type { AnswerProblem, Exchange, SentRequest } from './client.ts';
import { truncationText } from '../capped-answer.ts';
import { encodeForm } from '../signing/form-body.ts';
import { redactAuthorization, redactEchoes, redactParams } from '../report/redact.ts';

function redactedHeaders(headers: Readonly<Record<string, string>>): Array<[string, string]> {
  return Object.entries(headers).map(([name, value]) => [
    name,
    name.toLowerCase() === 'authorization' ? redactAuthorization(value) : value,
  ]);
}

const quote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

/** curl for the request, redacted: re-sign with `payconform sign` before replaying it. */
export function curlOf(request: SentRequest): string {
  const headers = redactedHeaders(request.headers)
    .map(([name, value]) => ` \\\n  -H ${quote(`${name}: ${value}`)}`)
    .join('');
  return (
    `curl -sS -X ${request.method} ${quote(request.url)}${headers} \\\n  ` +
    `--data-raw ${quote(encodeForm(redactParams(request.params)))}`
  );
}

/**
 * A problem as one line: a breach of the spec, a departure a gateway profile declares, or a difference from an
 * assumption (docs/assumptions.md).
 */
export function problemLine(p: AnswerProblem): string {
  if (p.deviation !== undefined) return `deviation (declared by the profile's ${p.deviation}): ${p.message}`;
  return p.assumption === undefined
    ? `problem (spec): ${p.message}`
    : `warning (${p.assumption}, an assumption): ${p.message}`;
}

/** The characters of an answer an exchange's evidence shows (the answers of the API are a few hundred). */
export const EVIDENCE_CHARS = 16 * 1024;

/**
 * `secrets` (the merchant's: credentialSecrets) are replaced, and card data masked, wherever they appear: in
 * the answer's body and headers as the gateway echoed them, and in the problems found with it.
 */
export function exchangeText(x: Exchange, secrets: readonly (string | undefined)[] = []): string {
  const request = [
    `${x.request.method} ${x.request.url}`,
    ...redactedHeaders(x.request.headers).map(([n, v]) => `${n}: ${v}`),
    '',
    encodeForm(redactParams(x.request.params)),
  ];
  // Redacted whole, then shortened, so no secret is cut in half past redaction's reach.
  const whole = redactEchoes(
    typeof x.body === 'string' ? x.body : JSON.stringify(x.body, null, 2),
    x.request.params,
    secrets,
  );
  // Evidence is attached to every failing step and written to several files: a page of the answer says enough.
  const body = whole.slice(0, EVIDENCE_CHARS);
  const cut =
    whole.length > body.length ? [`[… ${whole.length - body.length} more characters of the answer not shown]`] : [];
  const answer = [
    `HTTP ${x.httpStatus ?? x.status}${x.httpStatus === undefined ? '' : ` (a refusal: the spec's ${x.status})`}`,
    ...Object.entries(x.headers).map(([n, v]) => `${n}: ${v}`),
    '',
    body,
    ...cut,
    ...(x.truncated === undefined ? [] : [`[truncated: the answer is ${truncationText(x.truncated)}]`]),
  ];
  const problems = x.problems.length ? ['', ...x.problems.map(problemLine)] : [];
  const text = [
    `# ${x.operation}`,
    ...request,
    '',
    ...answer,
    ...problems,
    '',
    '# replay (signature redacted: re-sign with payconform sign)',
    curlOf(x.request),
  ].join('\n');
  return redactEchoes(text, x.request.params, secrets);
}
