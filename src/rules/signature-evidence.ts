/**
 * The evidence of a failed signature, for people who must fix it (inspect): which canonicalisation
 * mistake reproduces the value sent (diagnose), the correct and the sent base string (or control
 * input), and the correct signature step by step where the verifier holds the secret (not RSA).
 * Signature values themselves are left out: they are as sensitive as the Authorization header.
 */
import { isPayconformError, type PayconformError } from '../errors.ts';
import { getParam } from '../signing/authorization-header.ts';
import { diagnose, type Diagnosis } from '../signing/diagnose/index.ts';
import { explain, explanationText } from '../signing/explain.ts';
import { signRequest } from '../signing/sign.ts';
import { verifyRequest, type GivenSignature } from '../signing/verify.ts';
import { credentialsOf, type Merchant } from './merchant.ts';
import type { RequestUnderTest } from './request.ts';
import { fail, PASS, type Outcome } from './rule.ts';

export interface SignatureDetail {
  readonly scheme: string;
  /** Diagnosis ids (docs/diagnoses.md) that reproduce the value sent; empty when unexplained. */
  readonly diagnoses: readonly string[];
  /** What the signature should cover (the control key shown as a placeholder). */
  readonly correct?: { readonly baseString?: string | undefined; readonly controlInput?: string | undefined } | undefined;
  /** What the integration signed, under the first diagnosis. */
  readonly sent?: { readonly baseString?: string | undefined; readonly controlInput?: string | undefined } | undefined;
  /** The correct signature step by step (control and HMAC-SHA1). */
  readonly explanation?: string | undefined;
}

/** Steps whose value is the signature itself: a secret in reports, like the Authorization header. */
const SIGNATURE_STEPS = new Set(['digest', 'signature', 'authorization']);

/** The diagnosis of the signature as sent, for the URL the client addressed or, failing that, the one it was forwarded to. */
export function diagnoseSignature(req: RequestUnderTest, merchant: Merchant): Diagnosis {
  const { match, params } = req;
  const run = (url: string): Diagnosis => diagnose({ request: { method: 'POST', url, params: params!, match }, credentials: credentialsOf(merchant), given: { authorization: req.authorization } });
  const d = run(req.seen.url);
  if (d.verdict === 'invalid' && req.seen.alsoSignedFor !== undefined && match!.endpoint.auth.kind !== 'control') {
    const upstream = run(req.seen.alsoSignedFor);
    if (upstream.verdict === 'valid') return upstream;
  }
  return d;
}

export function signatureDetail(req: RequestUnderTest, merchant: Merchant, d: Diagnosis): SignatureDetail {
  return { scheme: d.scheme, diagnoses: d.defects, correct: d.correct, ...(d.partner ? { sent: d.partner } : {}), ...explanationOf(req, merchant) };
}

/** The correct signature's steps, where the verifier holds the secret to make it (not RSA). */
function explanationOf(req: RequestUnderTest, merchant: Merchant): { explanation?: string } {
  const header = req.header;
  if (header !== undefined && getParam(header, 'oauth_signature_method') === 'RSA-SHA256') return {};
  try {
    const result = signRequest({ method: 'POST', url: req.seen.url, params: req.params!.filter(([n]) => n !== 'control') }, { login: merchant.login, controlKey: merchant.merchantControlKey }, {
      ...(header ? { nonce: getParam(header, 'oauth_nonce'), timestamp: getParam(header, 'oauth_timestamp') } : {}),
    });
    const e = explain(result);
    return { explanation: explanationText({ ...e, steps: e.steps.filter((s) => !SIGNATURE_STEPS.has(s.step)) }) };
  } catch (err) {
    if (isPayconformError(err)) return {}; // a request the formula cannot be computed for: the fields rule says why
    throw err;
  }
}

/**
 * A signature that cannot be computed because a field it covers is missing or malformed: refused as
 * that field's problem; with the diagnosis where one is asked for (a misspelt field is a mistake too).
 */
export function unverifiable(req: RequestUnderTest, err: PayconformError<string>): Outcome {
  const evidence = { field: err.field, code: err.code === 'ERR_MISSING_FIELD' ? 'FIELD_MISSING' : 'FIELD_INVALID' };
  if (!req.context.explain) return fail(err.message, evidence);
  const d = diagnoseSignature(req, req.merchant!);
  return fail(d.message, { ...evidence, detail: signatureDetail(req, req.merchant!, d) });
}

/** Whether the signature given verifies for this request sent to `url`. */
function verifies(req: RequestUnderTest, given: GivenSignature, url: string): boolean {
  return verifyRequest({ method: 'POST', url, params: req.params!, match: req.match }, credentialsOf(req.merchant!), given).valid;
}

/**
 * A signature rule's outcome: pass when the given control or Authorization header verifies (an OAuth
 * one behind inspect --upstream also for the sandbox's URL), the field problem that keeps it from
 * being computed, or a failure: one line for a gateway, the diagnosis where one is asked for.
 */
export function signatureOutcome(req: RequestUnderTest, given: GivenSignature, field: string, message: string): Outcome {
  try {
    const { alsoSignedFor } = req.seen;
    if (verifies(req, given, req.seen.url) || (given.authorization !== undefined && alsoSignedFor !== undefined && verifies(req, given, alsoSignedFor))) return PASS;
  } catch (err) {
    if (!isPayconformError(err)) throw err;
    return unverifiable(req, err);
  }
  if (!req.context.explain) return fail(message, { field });
  const d = diagnoseSignature(req, req.merchant!);
  return fail(d.message, { field, detail: signatureDetail(req, req.merchant!, d) });
}
