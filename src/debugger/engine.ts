/**
 * The debugger page's engine: pure functions from what was pasted to everything the page shows. It runs the
 * CLI's own modules (read the request, explain, diagnose, the vector and pack formats); in the page they
 * run on the browser's crypto (browser/node-crypto.ts), chosen when the page is bundled.
 * This is the page's one import of diagnose.
 */
import { isPayconformError, type PayconformError } from '../errors.ts';
import { getParam } from '../signing/authorization-header.ts';
import { CONTROL_KEY_PLACEHOLDER } from '../signing/control.ts';
import { diagnose } from '../rules/diagnose.ts';
import { MISTAKES, type Diagnosis } from '../signing/diagnose/index.ts';
import type { Explanation, ExplainStep } from '../signing/explain.ts';
import { firstDifference } from '../signing/first-difference.ts';
import { percentEncode } from '../signing/percent-encode.ts';
import { resolveEndpoint, type Credentials } from '../signing/request.ts';
import type { VectorScheme } from '../vectors/types.ts';
import type { DebuggerInput, DebuggerResult, FoundMistake, SentAgainstCorrect } from './case.ts';
import { explainCase, sentOAuth } from './explain-case.ts';
import { caseFragment, casePackReadme, caseVectorFile } from './export-case.ts';
import { readRequest, type ReadRequest } from './request-text.ts';

/** The page's labels for the fields the signing code names in its messages. */
const LABELS: Readonly<Record<string, string>> = {
  'control key': 'Control key',
  'private key': 'Private key',
  'public key': 'Public key',
  login: 'Login',
};

/** A deliberate error as one line for the page: a missing credential says which field of the page to fill. */
export function pageMessage(err: PayconformError<string>): string {
  const label = err.field === undefined ? undefined : LABELS[err.field];
  if (label !== undefined && err.rule === 'required') return `${label}: missing (paste it into "${label}")`;
  return err.message.split('\n')[0] ?? err.message;
}

/** Runs `f`; a deliberate error becomes its one-line message, anything else is a bug and goes on. */
function attempt<T>(f: () => T): { value: T } | { error: string } {
  try {
    return { value: f() };
  } catch (err) {
    if (isPayconformError(err)) return { error: pageMessage(err) };
    throw err;
  }
}

const blank = (s: string | undefined): string | undefined => (s === undefined || s.trim() === '' ? undefined : s);

function credentialsOf(input: DebuggerInput, read: ReadRequest): Credentials {
  let consumerKey: string | undefined;
  if (read.authorization !== undefined) {
    const sent = attempt(() => sentOAuth(read));
    consumerKey = 'value' in sent ? getParam(sent.value.header, 'oauth_consumer_key') : undefined;
  }
  return {
    login: blank(input.login) ?? consumerKey,
    controlKey: blank(input.controlKey),
    privateKeyPem: blank(input.privateKeyPem),
    publicKeyPem: blank(input.publicKeyPem),
  };
}

/** The control key in place of its placeholder, for a person who asked to see it. */
function revealKey(steps: readonly ExplainStep[], key: string | undefined): readonly ExplainStep[] {
  if (key === undefined) return steps;
  const encoded = attempt(() => percentEncode(key, 'control key'));
  const reveal = (text: string): string =>
    text
      .replaceAll(`enc(${CONTROL_KEY_PLACEHOLDER})`, 'value' in encoded ? encoded.value : CONTROL_KEY_PLACEHOLDER)
      .replaceAll(CONTROL_KEY_PLACEHOLDER, key);
  return steps.map((s) => ({ ...s, value: reveal(s.value), details: s.details.map(reveal) }));
}

const against = (
  what: string,
  correct: string | undefined,
  sent: string | undefined,
): SentAgainstCorrect | undefined =>
  correct === undefined || sent === undefined
    ? undefined
    : { what, sent, correct, difference: firstDifference(correct, sent) };

function sentValue(read: ReadRequest, scheme: string): string | undefined {
  if (scheme === 'control') return read.request.params.find(([n]) => n === 'control')?.[1];
  const sent = attempt(() => sentOAuth(read));
  return 'value' in sent ? getParam(sent.value.header, 'oauth_signature') : undefined;
}

function mistakesOf(d: Diagnosis): FoundMistake[] {
  return d.defects.flatMap((id) => {
    const m = MISTAKES.find((x) => x.id === id);
    return m ? [{ id, title: m.title, explanation: d.explanations?.[id] ?? m.explanation, fix: m.fix }] : [];
  });
}

/** The scheme and operation of the vector: the catalogue row's (a callback is a control of its own). */
function rowOf(read: ReadRequest, callback: boolean): { scheme: VectorScheme; operation: string | undefined } {
  if (callback) return { scheme: 'control', operation: undefined };
  const { endpoint } = resolveEndpoint(read.request.url);
  return { scheme: endpoint.auth.kind as VectorScheme, operation: endpoint.operation };
}

export function runCase(input: DebuggerInput): DebuggerResult {
  const fragment = caseFragment(input);
  const callback = input.callback === true;
  const parsed = attempt(() => readRequest(input.request, callback));
  if ('error' in parsed) return { error: parsed.error, steps: [], mistakes: [], fragment };
  const read = parsed.value;
  const credentials = credentialsOf(input, read);
  const explained = attempt<Explanation>(() => explainCase(read, credentials, callback));
  const explanation = 'value' in explained ? explained.value : undefined;
  const judged = attempt(() => {
    const d = diagnose({
      request: read.request,
      credentials,
      callback,
      given: { authorization: read.authorization },
    });
    return { d, ...rowOf(read, callback) };
  });
  const steps = revealKey(explanation?.steps ?? [], input.showKey ? credentials.controlKey : undefined);
  const base = {
    format: read.format,
    fragment,
    steps,
    ...(explanation ? { endpoint: `${explanation.operation} ${explanation.path}`, scheme: explanation.scheme } : {}),
    ...('error' in explained ? { stepsError: explained.error } : {}),
  };
  if ('error' in judged) return { ...base, error: judged.error, mistakes: [] };
  const { d, scheme, operation } = judged.value;
  const field = d.correct.baseString !== undefined ? 'baseString' : 'controlInput';
  const correctValue = scheme === 'control' ? explanation?.expected.control : explanation?.expected.signature;
  const readme = packReadme(read, credentials, explanation, callback);
  return {
    ...base,
    scheme: base.scheme ?? d.scheme,
    verdict: d.verdict,
    message: d.message,
    mistakes: mistakesOf(d),
    ...(d.tried ? { tried: d.tried } : {}),
    ...optional(
      'value',
      against(scheme === 'control' ? 'control' : 'oauth_signature', correctValue, sentValue(read, scheme)),
    ),
    ...optional(
      'covered',
      against(field === 'baseString' ? 'base string' : 'concatenation', d.correct[field], d.partner?.[field]),
    ),
    vectorFile: caseVectorFile(read, credentials, d, scheme, operation, callback),
    ...('value' in readme ? { packReadme: readme.value } : { packReadmeMissing: readme.error }),
  };
}

/** The pack README shows the signature the spec gives: an RSA one needs the private key. */
function packReadme(
  read: ReadRequest,
  credentials: Credentials,
  explanation: Explanation | undefined,
  callback: boolean,
): { value: string } | { error: string } {
  if (callback) return { error: 'a partner pack covers API operations; a callback has none' };
  if (explanation === undefined) return { error: 'no steps to show (see "Step by step")' };
  if (explanation.scheme === 'oauth-rsa-sha256' && credentials.privateKeyPem === undefined)
    return { error: 'Private key: missing (paste it into "Private key" to make the signature the README shows)' };
  return attempt(() => casePackReadme(read, credentials, explanation));
}

const optional = <K extends string, V>(key: K, value: V | undefined): { [k in K]?: V } =>
  (value === undefined ? {} : { [key]: value }) as { [k in K]?: V };
