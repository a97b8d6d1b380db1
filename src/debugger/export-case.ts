/**
 * What the page hands back: the case as a verification vector (`payconform vectors check` runs it), the
 * partner-pack README of its operation (vectors pack's own text), and a link whose fragment carries the
 * inputs but never a key. Secrets in the vector are the placeholders `vectors check` fills from
 * PAYCONFORM_CONTROL_KEY / PAYCONFORM_PRIVATE_KEY_FILE.
 */
import type { Explanation } from '../signing/explain.ts';
import type { Credentials } from '../signing/request.ts';
import { operationReadme } from '../vectors/pack-readme.ts';
import { hideSecrets } from '../vectors/placeholders.ts';
import { VECTOR_FORMAT, type Vector, type VectorFile } from '../vectors/types.ts';
import type { DebuggerInput } from './case.ts';
import { sentOAuth } from './explain-case.ts';
import type { ReadRequest } from './request-text.ts';

export const CASE_ID = 'debugger-case';
/** A callback's formula takes no URL; the vector format wants one. */
const CALLBACK_URL = 'https://merchant.example/callback';

function vectorCredentials(c: Credentials): Vector['credentials'] {
  return {
    ...(c.login !== undefined ? { login: c.login } : {}),
    ...(c.controlKey !== undefined ? { merchantControlKey: c.controlKey } : {}),
    ...(c.privateKeyPem !== undefined ? { privateKeyPem: c.privateKeyPem } : {}),
    ...(c.publicKeyPem !== undefined ? { publicKeyPem: c.publicKeyPem } : {}),
  };
}

function caseRequest(read: ReadRequest): Vector['request'] {
  const { method, url, params } = read.request;
  return { method: method ?? 'POST', url: url === '' ? CALLBACK_URL : url, params: [...params] };
}

/** What the vector keeps of a diagnosis (engine.ts alone imports diagnose). */
export interface CaseVerdict {
  readonly verdict: 'valid' | 'invalid';
  readonly defects: readonly string[];
}

/** The case as a verification vector file: what was sent, and the verdict and defect to reach. */
export function caseVectorFile(
  read: ReadRequest,
  credentials: Credentials,
  d: CaseVerdict,
  scheme: Vector['scheme'],
  operation: string | undefined,
  callback: boolean,
): string {
  const sentControl = read.request.params.find(([n]) => n === 'control')?.[1];
  const vector: Vector = {
    id: CASE_ID,
    description: `pasted into the signature debugger: ${d.verdict}${d.defects[0] ? `, ${d.defects[0]}` : ''}`,
    scheme,
    ...(callback ? { message: 'callback' as const } : operation !== undefined ? { operation } : {}),
    request: caseRequest(read),
    credentials: vectorCredentials(credentials),
    given: scheme === 'control' ? { control: sentControl ?? '' } : { authorization: read.authorization ?? '' },
    expected: { verdict: d.verdict, defect: d.defects[0] ?? null },
  };
  const file: VectorFile = {
    format: VECTOR_FORMAT,
    description:
      'One case from the payconform signature debugger. Secrets are placeholders: set PAYCONFORM_CONTROL_KEY ' +
      '(and PAYCONFORM_PRIVATE_KEY_FILE) and run `payconform vectors check` on this file.',
    vectors: [hideSecrets(vector)],
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** The partner-pack README of the operation, with this request as its one vector (secrets as placeholders). */
export function casePackReadme(read: ReadRequest, credentials: Credentials, e: Explanation): string {
  const { nonce, timestamp, realm } =
    e.scheme === 'control' ? { nonce: '', timestamp: '', realm: '' } : sentOAuth(read);
  const vector: Vector = {
    id: CASE_ID,
    description: 'The request pasted into the signature debugger, signed as the spec says.',
    scheme: e.scheme as Vector['scheme'],
    operation: e.operation,
    request: caseRequest(read),
    credentials: vectorCredentials(credentials),
    ...(e.scheme === 'control' ? {} : { oauth: { nonce, timestamp, ...(realm ? { realm } : {}) } }),
    expected: e.expected,
  };
  return operationReadme(e.operation, [vector], []);
}

/** The inputs as a URL fragment: the request, login and callback flag; never a key. */
export function caseFragment(input: DebuggerInput): string {
  const fields = new URLSearchParams();
  if (input.request !== '') fields.set('request', input.request);
  if (input.login) fields.set('login', input.login);
  if (input.callback) fields.set('callback', '1');
  const text = fields.toString();
  return text === '' ? '' : `#${text}`;
}

/** The inputs a fragment carries back (keys are never in it). */
export function inputFromFragment(fragment: string): Pick<DebuggerInput, 'request' | 'login' | 'callback'> {
  const fields = new URLSearchParams(fragment.replace(/^#/, ''));
  return {
    request: fields.get('request') ?? '',
    login: fields.get('login') ?? undefined,
    callback: fields.get('callback') === '1',
  };
}
