/**
 * Checking vectors: recompute every `expected` field present and compare; for verification vectors,
 * reach a verdict and a diagnosis and compare those. Failures carry evidence, never secrets.
 */
import { isPayconformError } from '../errors.ts';
import { CONTROL_KEY_PLACEHOLDER } from '../signing/control.ts';
import { diagnose } from '../rules/diagnose.ts';
import type { ExpectedValues } from '../signing/sign.ts';
import { computeExpected } from './compute.ts';
import type { Vector } from './types.ts';

export interface Mismatch {
  readonly field: string;
  readonly expected: string;
  readonly actual: string;
}

export interface VectorResult {
  readonly id: string;
  readonly passed: boolean;
  readonly mismatches: Mismatch[];
  /** Set when the vector could not be computed at all (a missing formula field, say). */
  readonly error?: string;
}

const SIGNED_FIELDS = ['controlInput', 'control', 'baseString', 'signature', 'authorization'] as const;

export function checkVector(v: Vector): VectorResult {
  try {
    return v.given ? checkVerification(v) : checkSigning(v);
  } catch (err) {
    if (!isPayconformError(err)) throw err;
    return { id: v.id, passed: false, mismatches: [], error: err.message };
  }
}

function checkSigning(v: Vector): VectorResult {
  const actual: ExpectedValues = computeExpected(v);
  const mismatches: Mismatch[] = [];
  for (const field of SIGNED_FIELDS) {
    const want = v.expected[field];
    if (want === undefined) continue;
    let got = actual[field] ?? '';
    // The format's controlInput is the real concatenation; a shared file may show the key as a
    // placeholder instead. Compare in the form the file uses, report in the placeholder form.
    if (field === 'controlInput' && !want.endsWith(CONTROL_KEY_PLACEHOLDER)) {
      const key = v.credentials.merchantControlKey ?? '';
      got = got.slice(0, -CONTROL_KEY_PLACEHOLDER.length) + key;
      if (got !== want) mismatches.push({ field, expected: hideKey(want, key), actual: actual.controlInput ?? '' });
      continue;
    }
    if (got !== want) mismatches.push({ field, expected: want, actual: got });
  }
  return { id: v.id, passed: mismatches.length === 0, mismatches };
}

function checkVerification(v: Vector): VectorResult {
  const c = v.credentials;
  const diagnosis = diagnose({
    request: { method: v.request.method, url: v.request.url, params: v.request.params },
    credentials: {
      login: c.login,
      controlKey: c.merchantControlKey,
      privateKeyPem: c.privateKeyPem,
      publicKeyPem: c.publicKeyPem,
      token: c.token,
      tokenSecret: c.tokenSecret,
    },
    given: v.given ?? {},
    operation: v.operation,
    callback: v.message === 'callback',
  });
  const mismatches: Mismatch[] = [];
  if (diagnosis.verdict !== v.expected.verdict)
    mismatches.push({ field: 'verdict', expected: v.expected.verdict ?? '', actual: diagnosis.verdict });
  const want = v.expected.defect ?? null;
  const found = want === null ? diagnosis.defects.length === 0 : diagnosis.defects.includes(want);
  if (!found)
    mismatches.push({
      field: 'defect',
      expected: String(want),
      actual: diagnosis.defects.length ? diagnosis.defects.join(', ') : 'null',
    });
  return { id: v.id, passed: mismatches.length === 0, mismatches };
}

/** The real concatenation with the key (if any) swapped for its placeholder, so a report never shows it. */
function hideKey(controlInput: string, key: string): string {
  return key !== '' && controlInput.endsWith(key)
    ? controlInput.slice(0, -key.length) + CONTROL_KEY_PLACEHOLDER
    : controlInput;
}
