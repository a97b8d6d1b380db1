/**
 * The search behind `diagnose`: is a signature that was sent valid, and if not, which known mistake
 * reproduces it? Whether there is a signature to search at all (a control, an Authorization header with
 * oauth_signature, the endpoint's signature method) is the rule book's to say (src/rules/diagnose.ts runs
 * those rules first); this only searches a value that was sent. The correct value is computed first (and
 * is all that runs for a valid request); only an invalid one is recomputed under every mistake, so the
 * cost stays small for vector files.
 */
import { createPublicKey, verify as rsaVerify, type KeyObject } from 'node:crypto';
import { CALLBACK_FORMULA, CALLBACK_NAME, type ControlField, type PathMatch } from '../../catalogue/index.ts';
import { isPayconformError, PayconformError } from '../../errors.ts';
import { getParam, parseAuthorizationHeader, type ParsedAuthorization } from '../authorization-header.ts';
import { computeControl, CONTROL_KEY_PLACEHOLDER, type ControlComputation } from '../control.ts';
import { loadPrivateKey, loadPublicKey } from '../keys.ts';
import { HOW, requireCredential } from '../request.ts';
import { constantTimeEqual } from '../verify.ts';
import { candidateDigest, CONTROL_MISTAKES, explanationForRequest } from './control-mistakes.ts';
import { OAUTH_MISTAKES, type OAuthMistake } from './oauth-mistakes.ts';
import {
  oauthParts,
  recipeBaseString,
  recipeHmac,
  REFERENCE,
  type OAuthParts,
  type OAuthRecipe,
} from './oauth-recipe.ts';
import type { DiagnoseInput, Diagnosis, Mistake } from './types.ts';

/** Using HMAC where RSA is required, or the reverse: found by signing under the method the header names. */
export const WRONG_SIGNATURE_METHOD: Mistake = {
  id: 'wrong-signature-method',
  scheme: 'oauth',
  title: 'the other signature method',
  explanation: 'The request was signed with HMAC-SHA1 where the endpoint requires RSA-SHA256, or the reverse.',
  fix: 'Use HMAC-SHA1 for /api/v2/payout and pan-eligibility, RSA-SHA256 for every /api/v4/ endpoint.',
};

export const MISTAKES: readonly Mistake[] = [...OAUTH_MISTAKES, WRONG_SIGNATURE_METHOD, ...CONTROL_MISTAKES];

/**
 * A signature sent, diagnosed; undefined when none was sent. Without a catalogue match (an OAuth 1.0a request
 * outside the catalogue, as RFC 5849's examples), the method the header names is the one to check.
 */
export function diagnoseSent(input: DiagnoseInput, match: PathMatch | undefined): Diagnosis | undefined {
  const endpoint = match?.endpoint;
  if (match?.endpoint.auth.kind === 'control') {
    const given = controlGiven(input);
    const { operation, auth } = match.endpoint;
    return given === undefined ? undefined : diagnoseControl(input, operation, auth.fields, match.endpointId, given);
  }
  const header = parsedHeader(input);
  if (header === undefined) return undefined;
  const signature = getParam(header, 'oauth_signature');
  const used = getParam(header, 'oauth_signature_method');
  if (signature === undefined || used === undefined) return undefined;
  const required =
    endpoint === undefined ? used : endpoint.auth.kind === 'oauth-hmac-sha1' ? 'HMAC-SHA1' : 'RSA-SHA256';
  return isMethod(required) ? diagnoseOAuth(input, required, header, signature, used) : undefined;
}

/** A callback's or customer return's control, diagnosed under the callback formula (docs/callbacks.md). */
export const diagnoseCallback = (input: DiagnoseInput, given: string): Diagnosis =>
  diagnoseControl(input, CALLBACK_NAME, CALLBACK_FORMULA, '', given);

/** The control sent: given apart, or the request's `control` field. */
export const controlGiven = (input: DiagnoseInput): string | undefined =>
  input.given.control ?? input.request.params.find(([n]) => n === 'control')?.[1];

/** The Authorization header given, parsed; undefined when none was given or it does not parse. */
function parsedHeader(input: DiagnoseInput): ParsedAuthorization | undefined {
  const text = input.given.authorization;
  if (text === undefined) return undefined;
  try {
    return parseAuthorizationHeader(text);
  } catch (err) {
    if (isPayconformError(err)) return undefined;
    throw err;
  }
}

/** A SHA-1 digest in some encoding a mistake could give (hex of either case, base64): else nothing to search. */
export const isDigestShaped = (value: string): boolean =>
  /^[0-9a-fA-F]{40}$/.test(value) || /^[A-Za-z0-9+/]{27}=$/.test(value);

function diagnoseControl(
  input: DiagnoseInput,
  operation: string,
  formula: readonly ControlField[],
  endpointId: string,
  given: string,
): Diagnosis {
  const params = input.request.params;
  const base = { scheme: 'control' as const };
  const key = requireCredential(input.credentials.controlKey, 'control key', HOW.controlKey);
  // A `control` pair among the params needs no filtering: values are looked up by formula field names only.
  const ctx = { operation, endpointId, login: input.credentials.login, params };
  let correct: ControlComputation | undefined;
  let why: string;
  try {
    correct = computeControl(formula, ctx, key);
    why = 'control does not match the formula';
  } catch (err) {
    if (!isPayconformError(err)) throw err;
    why = `control cannot be computed (${err.message})`;
  }
  const correctOut = correct ? { controlInput: correct.controlInput } : {};
  if (correct && constantTimeEqual(given, correct.control)) {
    return { ...base, verdict: 'valid', defects: [], message: 'control is valid', correct: correctOut };
  }
  const defects: string[] = [];
  const explanations: Record<string, string> = {};
  let partner: string | undefined;
  for (const m of CONTROL_MISTAKES) {
    const hit = m.candidates(formula, ctx).find((c) => candidateDigest(c, key) === given);
    if (!hit) continue;
    defects.push(m.id);
    const own = explanationForRequest(m, formula, ctx);
    if (own !== undefined) explanations[m.id] = own;
    partner ??= hit.keyFirst ? CONTROL_KEY_PLACEHOLDER + hit.prefix : hit.prefix + CONTROL_KEY_PLACEHOLDER;
  }
  return {
    ...base,
    verdict: 'invalid',
    defects,
    correct: correctOut,
    ...tried(defects, CONTROL_MISTAKES),
    ...(Object.keys(explanations).length ? { explanations } : {}),
    message: `${why}; ${reproduction(defects, CONTROL_MISTAKES, 'control')}`,
    ...(partner === undefined ? {} : { partner: { controlInput: partner } }),
  };
}

type Method = 'HMAC-SHA1' | 'RSA-SHA256';
export const isMethod = (m: string | undefined): m is Method => m === 'HMAC-SHA1' || m === 'RSA-SHA256';

function diagnoseOAuth(
  input: DiagnoseInput,
  method: Method,
  parsed: ParsedAuthorization,
  signature: string,
  used: string,
): Diagnosis {
  const protocol = parsed.pairs.filter(([n]) => n !== 'oauth_signature');
  const parts = oauthParts(
    input.request.method ?? 'POST',
    input.request.url,
    input.request.params,
    protocol,
    parsed.realm,
  );
  const check = signatureCheck(input, signature);
  const correctBase = recipeBaseString(REFERENCE, parts);
  const scheme = method === 'RSA-SHA256' ? 'oauth-rsa-sha256' : 'oauth-hmac-sha1';
  const result = (
    verdict: Diagnosis['verdict'],
    defects: string[],
    message: string,
    partnerBase?: string,
  ): Diagnosis => ({
    verdict,
    defects,
    scheme,
    message,
    correct: { baseString: correctBase },
    ...(partnerBase === undefined ? {} : { partner: { baseString: partnerBase } }),
  });
  if (used === method && check(used, REFERENCE, correctBase))
    return result('valid', [], `${method} signature is valid`);
  if (used !== method) {
    // Signed under the other method (a valid signature there), or under one that is neither.
    const reproduced = isMethod(used) && check(used, REFERENCE, correctBase);
    return result(
      'invalid',
      reproduced ? [WRONG_SIGNATURE_METHOD.id] : [],
      reproduced
        ? `${method} signature does not match; reproduced by: ${WRONG_SIGNATURE_METHOD.id} (the signature is a ` +
            `valid ${used} one)`
        : `${method} signature does not match; it names oauth_signature_method ${used.slice(0, 20)}`,
    );
  }
  const defects: string[] = [];
  let partnerBase: string | undefined;
  for (const m of OAUTH_MISTAKES) {
    const base = firstReproducing(m, parts, (recipe, b) => check(method, recipe, b));
    if (base === undefined) continue;
    defects.push(m.id);
    partnerBase ??= base;
  }
  return {
    ...result(
      'invalid',
      defects,
      `${method} signature does not match; ${reproduction(defects, OAUTH_MISTAKES, 'OAuth')}`,
      partnerBase,
    ),
    ...tried(defects, OAUTH_MISTAKES),
  };
}

/**
 * What an unexplained value leaves once every known mistake was tried: said instead of blaming the
 * key alone, since a value signed other than it was sent fails the same way.
 */
const REMAINS = {
  control:
    'that leaves a control key other than the one given, a formula value other than the one sent (amount, order ' +
    'id, email, endpoint id or login), or a formula payconform does not know',
  OAuth:
    'that leaves a key other than the one given, a parameter or URL signed other than it was sent, or a signing ' +
    'step payconform does not know',
};

/** The message's tail: the mistakes that reproduce the value, or how many were tried and what that leaves. */
function reproduction(defects: readonly string[], known: readonly Mistake[], kind: keyof typeof REMAINS): string {
  if (defects.length) return `reproduced by: ${defects.join(', ')}`;
  return (
    `no known mistake reproduces it (all ${known.length} known ${kind} mistakes of docs/diagnoses.md ` +
    `tried); ${REMAINS[kind]}`
  );
}

/** The ids tried, only when none of them reproduces the value (for --json and the report). */
const tried = (defects: readonly string[], known: readonly Mistake[]): Pick<Diagnosis, 'tried'> =>
  defects.length ? {} : { tried: known.map((m) => m.id) };

/** The base string of the first recipe of a mistake that reproduces the signature, if any. */
function firstReproducing(
  m: OAuthMistake,
  parts: OAuthParts,
  test: (recipe: OAuthRecipe, base: string) => boolean,
): string | undefined {
  for (const recipe of m.recipes) {
    const base = recipeBaseString(recipe, parts);
    if (test(recipe, base)) return base;
  }
  return undefined;
}

/** Does the given signature match a base string under a method and recipe (hashes, key form)? */
function signatureCheck(
  input: DiagnoseInput,
  signature: string,
): (method: Method, recipe: OAuthRecipe, base: string) => boolean {
  let publicKey: KeyObject | undefined;
  const bytes = Buffer.from(signature, 'base64');
  const canonical = bytes.toString('base64') === signature;
  return (method, recipe, base) => {
    if (method === 'HMAC-SHA1') {
      const secret = requireCredential(input.credentials.controlKey, 'control key', HOW.controlKey);
      return constantTimeEqual(signature, recipeHmac(recipe, secret, input.credentials.tokenSecret ?? '', base));
    }
    publicKey ??= rsaPublicKey(input);
    return canonical && rsaVerify(recipe.rsaHash, Buffer.from(base), publicKey, bytes);
  };
}

function rsaPublicKey(input: DiagnoseInput): KeyObject {
  const { publicKeyPem, privateKeyPem } = input.credentials;
  if (publicKeyPem !== undefined) return loadPublicKey(publicKeyPem);
  if (privateKeyPem !== undefined) return createPublicKey(loadPrivateKey(privateKeyPem));
  throw new PayconformError('ERR_CREDENTIALS', `public key: missing (${HOW.publicKey})`, {
    field: 'public key',
    rule: 'required',
  });
}
