/**
 * A signature, step by step, as text and as JSON: what each step takes in, what it gives out, and
 * the rule it follows. Secrets appear only as placeholders.
 */
import { CALLBACK_NAME } from '../catalogue/index.ts';
import { formulaText, type ControlComputation } from './control.ts';
import type { Pair } from './form-body.ts';
import { expectedValues, type ExpectedValues, type SignResult } from './sign.ts';

export interface ExplainStep {
  readonly step: string;
  readonly title: string;
  /** The value this step produces. */
  readonly value: string;
  /** Supporting lines: inputs, rules applied. */
  readonly details: string[];
}

export interface Explanation {
  readonly operation: string;
  readonly path: string;
  readonly endpointId: string;
  readonly scheme: string;
  readonly steps: ExplainStep[];
  readonly expected: ExpectedValues;
}

const count = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;
const show = (pairs: readonly Pair[]): string[] => pairs.map(([n, v]) => `${JSON.stringify(n)} = ${JSON.stringify(v)}`);

export function explain(result: SignResult): Explanation {
  const { endpoint, endpointId } = result;
  const steps: ExplainStep[] = [];
  const add: AddStep = (step, title, value, details = []) => void steps.push({ step, title, value, details });
  add('endpoint', 'Endpoint from the catalogue', `${endpoint.operation} ${endpoint.path}`, [
    `endpointId ${endpointId} (from the URL path)${result.prefix ? `, path prefix ${result.prefix}` : ''}`,
    `scheme: ${result.scheme}`,
  ]);

  if (result.scheme === 'control') {
    addControlSteps(add, result.control);
    return {
      operation: endpoint.operation,
      path: endpoint.path,
      endpointId,
      scheme: result.scheme,
      steps,
      expected: expectedValues(result),
    };
  }

  const { oauth } = result;
  const urlNotes = [
    `input: ${oauth.url.input}`,
    'scheme and host lowercased, query and fragment removed (RFC 5849 §3.4.1.2)',
  ];
  if (oauth.url.defaultPortDropped) urlNotes.push(`default port :${oauth.url.explicitPort} dropped`);
  add('url', 'Normalised request URL', oauth.url.normalized, urlNotes);
  add(
    'protocol-params',
    'oauth_* protocol parameters (oauth_signature excluded)',
    count(oauth.protocol.length, 'parameter'),
    show(oauth.protocol),
  );
  add(
    'body-params',
    'Form-body parameters, decoded, in send order',
    count(oauth.body.length, 'parameter'),
    show(oauth.body),
  );
  if (oauth.url.queryPairs.length)
    add(
      'query-params',
      'URL query parameters, decoded',
      count(oauth.url.queryPairs.length, 'parameter'),
      show(oauth.url.queryPairs),
    );
  add(
    'sorted-pairs',
    'Each name and value RFC 3986-encoded, sorted by name then value (byte order)',
    count(oauth.params.sorted.length, 'pair'),
    oauth.params.sorted.map(([n, v]) => `${n}=${v}`),
  );
  add('normalized-params', 'Pairs joined with & (RFC 5849 §3.4.1.3.2)', oauth.params.normalized);
  add('base-string', 'Signature base string: METHOD & enc(URL) & enc(params)', oauth.baseString);
  add(
    'key',
    result.scheme === 'oauth-hmac-sha1'
      ? 'HMAC-SHA1 key: consumer secret & (empty token secret)'
      : 'RSA-SHA256 key (PKCS#1 v1.5 over the UTF-8 base string)',
    result.keyDescription,
  );
  add('signature', 'Signature, Base64', oauth.signature, ['percent-encoded once more in the header']);
  add('authorization', 'Authorization header', oauth.authorization);
  return {
    operation: endpoint.operation,
    path: endpoint.path,
    endpointId,
    scheme: result.scheme,
    steps,
    expected: expectedValues(result),
  };
}

type AddStep = (step: string, title: string, value: string, details?: string[]) => void;

/** The steps of a control value: formula, cents, concatenation, digest. */
function addControlSteps(add: AddStep, control: ControlComputation, formulaSource = 'api-spec.md, Scheme A'): void {
  // The computed fields carry the formula's names, sources and cents flags, in the formula's order.
  add('formula', `Control formula (${formulaSource})`, formulaText(control.fields), [
    'the merchant control key is appended last and never sent',
  ]);
  for (const f of control.fields.filter((x) => x.cents)) {
    add('cents', `Amount in integer cents: ${f.name}`, f.value, [
      `${JSON.stringify(f.raw)} → ${f.value} (decimal arithmetic, no floating point)`,
    ]);
  }
  add(
    'concatenation',
    'Plain concatenation, key last',
    control.controlInput,
    control.fields.map(
      (f) =>
        `${f.name} = ${JSON.stringify(f.value)} ` +
        `(from ${f.from === 'url' ? 'the URL' : f.from === 'credentials' ? 'the login' : 'the form body'})`,
    ),
  );
  add('digest', 'SHA-1 of the UTF-8 concatenation, lowercase hex', control.control);
}

/** The control of a gateway callback or customer return (docs/callbacks.md), step by step. */
export function explainCallback(control: ControlComputation): Explanation {
  const steps: ExplainStep[] = [];
  const add: AddStep = (step, title, value, details = []) => void steps.push({ step, title, value, details });
  add('message', 'Gateway callback to server_callback_url (or customer return to redirect_url)', CALLBACK_NAME, [
    'sent by the gateway, checked by the merchant; the amount is not in the formula, so compare it with your order',
  ]);
  addControlSteps(add, control, 'API family library, docs/assumptions.md A-31');
  return {
    operation: CALLBACK_NAME,
    path: 'server_callback_url',
    endpointId: '',
    scheme: 'control',
    steps,
    expected: { controlInput: control.controlInput, control: control.control },
  };
}

export function explanationText(explanation: Explanation): string {
  const lines: string[] = [];
  explanation.steps.forEach((s, i) => {
    lines.push(`${i + 1}. ${s.title}`);
    lines.push(`   ${s.value}`);
    for (const d of s.details) lines.push(`     ${d}`);
  });
  return lines.join('\n');
}
