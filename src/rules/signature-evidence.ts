/**
 * The evidence of a failed signature, for people who must fix it (inspect): which canonicalisation
 * mistake reproduces the value sent (diagnose), the correct and the sent base string (or control
 * input), and the correct signature step by step where the verifier holds the secret (not RSA).
 * Signature values themselves are left out: they are as sensitive as the Authorization header.
 */
import { isPayconformError, type PayconformError } from '../errors.ts';
import { getParam } from '../signing/authorization-header.ts';
import { diagnoseSent, type Diagnosis } from '../signing/diagnose/index.ts';
import { explain, explanationText } from '../signing/explain.ts';
import { signRequest } from '../signing/sign.ts';
import { compareSignature, type SentSignature } from '../signing/verify.ts';
import { credentialsOf, type Merchant } from './merchant.ts';
import type { RequestUnderTest, With } from './request.ts';
import { fail, PASS, type Outcome } from './rule.ts';

/** What a signature rule has found there before it asks for the evidence. */
type Signed = With<'endpoint' | 'form' | 'merchant'>;

export interface SignatureDetail {
  readonly scheme: string;
  /** Diagnosis ids (docs/diagnoses.md) that reproduce the value sent; empty when unexplained. */
  readonly diagnoses: readonly string[];
  /** What the signature should cover (the control key shown as a placeholder). */
  readonly correct?:
    { readonly baseString?: string | undefined; readonly controlInput?: string | undefined } | undefined;
  /** What the integration signed, under the first diagnosis. */
  readonly sent?: { readonly baseString?: string | undefined; readonly controlInput?: string | undefined } | undefined;
  /** The correct signature step by step (control and HMAC-SHA1). */
  readonly explanation?: string | undefined;
}

/** Steps whose value is the signature itself: a secret in reports, like the Authorization header. */
const SIGNATURE_STEPS = new Set(['digest', 'signature', 'authorization']);

/** The URL a signature must cover: the one addressed or, behind inspect --upstream, the sandbox's. */
const signedUrl = (req: RequestUnderTest): string => req.seen.signedFor ?? req.seen.url;

/** The diagnosis of the signature as sent, for the URL the signature must cover. */
export function diagnoseSignature(req: Signed, merchant: Merchant, url = signedUrl(req)): Diagnosis {
  const d = diagnoseSent(
    {
      request: { method: 'POST', url, params: req.params },
      credentials: credentialsOf(merchant),
      given: { authorization: req.authorization },
      match: req.match,
    },
    req.match,
  );
  // The signature rules run only on a request that carries its signature (the header rules say when not).
  if (d === undefined) throw new Error(`internal: a signature rule ran on request ${req.seen.url} without one`);
  return d;
}

export function signatureDetail(req: With<'endpoint' | 'form'>, merchant: Merchant, d: Diagnosis): SignatureDetail {
  return {
    scheme: d.scheme,
    diagnoses: d.defects,
    correct: d.correct,
    ...(d.partner ? { sent: d.partner } : {}),
    ...explanationOf(req, merchant),
  };
}

/** The correct signature's steps, where the verifier holds the secret to make it (not RSA). */
function explanationOf(req: With<'endpoint' | 'form'>, merchant: Merchant): { explanation?: string } {
  const header = req.header;
  if (header !== undefined && getParam(header, 'oauth_signature_method') === 'RSA-SHA256') return {};
  try {
    const result = signRequest(
      {
        method: 'POST',
        url: signedUrl(req),
        params: req.params, // a control formula names its fields; an OAuth base string covers every one
      },
      { login: merchant.login, controlKey: merchant.merchantControlKey },
      {
        // The header's own nonce, timestamp and, where it sent none, no oauth_version: the steps then build the
        // base string the signature is checked against.
        ...(header
          ? {
              nonce: getParam(header, 'oauth_nonce'),
              timestamp: getParam(header, 'oauth_timestamp'),
              omitVersion: getParam(header, 'oauth_version') === undefined,
            }
          : {}),
      },
      // The path was matched once; behind --upstream the sandbox's URL may have another prefix: matched anew.
      req.seen.signedFor === undefined ? { match: req.match } : {},
    );
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
export function unverifiable(req: Signed, err: PayconformError<string>): Outcome {
  const evidence = { field: err.field, code: err.code === 'ERR_MISSING_FIELD' ? 'FIELD_MISSING' : 'FIELD_INVALID' };
  if (!req.context.explain) return fail(err.message, evidence);
  const d = diagnoseSignature(req, req.merchant);
  return fail(d.message, { ...evidence, detail: signatureDetail(req, req.merchant, d) });
}

/** Whether the signature sent verifies for this request sent to `url`. */
function verifies(req: Signed, sent: SentSignature, url: string): boolean {
  return compareSignature({ method: 'POST', url, params: req.params }, credentialsOf(req.merchant), sent, {
    match: req.match,
    amountCents: req.amount?.cents,
  }).valid;
}

/**
 * A signature rule's outcome: pass when the given control or Authorization header verifies for the
 * URL it must cover, the field problem that keeps it from being computed, or a failure: one line for
 * a gateway, the diagnosis where one is asked for. Behind inspect --upstream an OAuth signature made
 * for inspect's own URL fails with that reason: the sandbox would refuse it.
 */
export function signatureOutcome(req: Signed, sent: SentSignature, field: string, message: string): Outcome {
  const { signedFor } = req.seen;
  const { merchant } = req;
  if (req.match.endpoint.auth.kind === 'oauth-rsa-sha256' && merchant.publicKeyPem === undefined) {
    return fail(
      `${field}: merchant ${merchant.login} has no publicKeyPem in the merchants file, so its RSA-SHA256 ` +
        `signature cannot be verified`,
      { field },
    );
  }
  try {
    if (verifies(req, sent, signedUrl(req))) return PASS;
    // A control covers no URL, so only an OAuth signature can verify for one and not the other.
    if (signedFor !== undefined && verifies(req, sent, req.seen.url)) return signedForListener(req, field, signedFor);
  } catch (err) {
    if (!isPayconformError(err)) throw err;
    return unverifiable(req, err);
  }
  if (!req.context.explain) return fail(message, { field });
  const d = diagnoseSignature(req, merchant);
  // Nothing in the catalogue of mistakes reproduces it: the message says what that leaves; name the key
  // that was tried, as one of the suspects (another merchant's, or a production key on the sandbox).
  const hint =
    d.defects.length === 0
      ? `; the key tried is merchant ${merchant.login}'s from the merchants file, for ` +
        `endpoint ${req.match.endpointId}`
      : '';
  return fail(`${d.message}${hint}`, { field, detail: signatureDetail(req, merchant, d) });
}

/** A signature valid for the URL the integration addressed (inspect's), not for the sandbox's. */
function signedForListener(req: Signed, field: string, signedFor: string): Outcome {
  const { merchant } = req;
  const { scheme, correct } = diagnoseSignature(req, merchant);
  const sent = diagnoseSignature(req, merchant, req.seen.url).correct;
  const message =
    `${field}: made for inspect's URL ${req.seen.url}, but the sandbox verifies it ` +
    `against ${signedFor} and will refuse it: sign for the sandbox's URL (the origin your integration signs ` +
    `must be the sandbox's even when it sends to inspect)`;
  return fail(message, { field, detail: { scheme, diagnoses: [], correct, sent, ...explanationOf(req, merchant) } });
}
