/**
 * The search behind `diagnose`: is a signature that was sent valid, and if not, which known mistake
 * reproduces it? Whether there is a signature to search at all (a control, an Authorization header with
 * oauth_signature, the endpoint's signature method) is the rule book's to say (src/rules/diagnose.ts runs
 * those rules first); this only searches a value that was sent. The correct value is computed first (and
 * is all that runs for a valid request); only an invalid one is recomputed under every mistake, so the
 * cost stays small for vector files.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { CALLBACK_FORMULA, CALLBACK_NAME, type ControlField, type PathMatch } from '../../catalogue/index.ts';
import { isPayconformError, PayconformError } from '../../errors.ts';
import { getParam, parseAuthorizationHeader, type ParsedAuthorization } from '../authorization-header.ts';
import { computeControl, CONTROL_KEY_PLACEHOLDER, type ControlComputation } from '../control.ts';
import { loadPrivateKey, loadPublicKey } from '../keys.ts';
import { HOW, requireCredential } from '../request.ts';
import { constantTimeEqual } from '../verify.ts';
import {
  amountSent,
  concatenation,
  CONTROL_MISTAKES,
  digestOf,
  explanationForRequest,
  REFERENCE_CONTROL,
  shapeCanFit,
  shapeFits,
  STEPS,
  type ControlMistake,
  type ControlRecipe,
} from './control-mistakes.ts';
import { OAUTH_MISTAKES } from './oauth-mistakes.ts';
import { signedDigestInfo, signsMessage } from './rsa-digest.ts';
import {
  oauthParts,
  recipeBaseString,
  recipeHmac,
  recipeHmacKey,
  REFERENCE,
  type Memo,
  type OAuthRecipe,
} from './oauth-recipe.ts';
import { BUDGET_MS, MAX_DEPTH, MAX_OAUTH_EVALUATIONS, searchCompositions, type SearchResult } from './search.ts';
import type { DiagnoseInput, Diagnosis, Mistake } from './types.ts';

/** Using HMAC where RSA is required, or the reverse: found by signing under the method the header names. */
export const WRONG_SIGNATURE_METHOD: Mistake = {
  id: 'wrong-signature-method',
  scheme: 'oauth',
  step: 'signature method',
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
  // Stryker disable next-line StringLiteral: the callback formula has no endpoint id to take
  diagnoseControl(input, CALLBACK_NAME, CALLBACK_FORMULA, '', given);

/** The control sent: given apart, or the request's `control` field. */
export const controlGiven = (input: DiagnoseInput): string | undefined =>
  input.given.control ?? input.request.params.find(([n]) => n === 'control')?.[1];

/** The Authorization header given, parsed; undefined when none was given or it does not parse. */
function parsedHeader(input: DiagnoseInput): ParsedAuthorization | undefined {
  const text = input.given.authorization;
  // Stryker disable next-line ConditionalExpression: the parser refuses undefined as any text without "OAuth "
  if (text === undefined) return undefined;
  // Stryker disable BlockStatement,ConditionalExpression: the catch is a guard: the parser throws payconform errors
  try {
    return parseAuthorizationHeader(text);
  } catch (err) {
    if (isPayconformError(err)) return undefined;
    throw err;
  }
}

// Stryker restore BlockStatement,ConditionalExpression
export { isDigestShaped } from './control-mistakes.ts';

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
    // Stryker disable next-line ConditionalExpression: a guard: computeControl throws payconform errors only
    if (!isPayconformError(err)) throw err;
    why = `control cannot be computed (${err.message})`;
  }
  const correctOut = correct ? { controlInput: correct.controlInput } : {};
  if (correct && constantTimeEqual(given, correct.control)) {
    return { ...base, verdict: 'valid', defects: [], message: 'control is valid', correct: correctOut };
  }
  const amount = amountSent(formula, ctx);
  const result = searchCompositions<ControlRecipe>({
    reference: REFERENCE_CONTROL,
    operators: CONTROL_MISTAKES.filter((m) => m.searched?.(amount) ?? true).map((op) => ({
      op,
      variants: op.variantsFor(formula, ctx).filter((v) => shapeCanFit(v, given)),
    })),
    outcome: (recipe) => {
      const text = concatenation(recipe, formula, ctx, key);
      return text === undefined ? undefined : `${recipe.digest}/${recipe.encoding}/${text}`;
    },
    viable: (recipe) => shapeFits(recipe, given),
    reproduces: (out, recipe) => digestOf(recipe, out.slice(out.indexOf('/', out.indexOf('/') + 1) + 1)) === given,
    // Fields left out or added: two sets that give the same value are two explanations (equal or empty values).
    distinct: (recipe) => recipe.named?.join(','),
  });
  const findings = found(result, CONTROL_MISTAKES, (recipe) => recipe.named);
  const explanations: Record<string, string> = {};
  // Each mistake explained once, with the fields of the first composition naming it (the message names the others).
  for (const { mistakes, fields } of findings.compositions ?? []) {
    for (const id of mistakes) {
      const m = CONTROL_MISTAKES.find((x) => x.id === id) as ControlMistake;
      const own = m.explainFields
        ? m.explainFields(fields ?? [], formula, ctx)
        : explanationForRequest(m, formula, ctx);
      if (own !== undefined) explanations[id] ??= own;
    }
  }
  const first = result.found[0]?.recipe;
  const partner = first && concatenation(first, formula, ctx, CONTROL_KEY_PLACEHOLDER);
  return {
    ...base,
    verdict: 'invalid',
    correct: correctOut,
    ...findings,
    ...(Object.keys(explanations).length ? { explanations } : {}),
    message: `${why}; ${reproduction(result, findings, CONTROL_MISTAKES, 'control')}`,
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
  // oauth_signature stays among the pairs: collectSignedPairs never signs it.
  const parts = oauthParts(
    input.request.method ?? 'POST',
    input.request.url,
    input.request.params,
    parsed.pairs,
    parsed.realm,
  );
  const check = signatureCheck(input, signature);
  const correctBase = recipeBaseString(REFERENCE, parts);
  const scheme = method === 'RSA-SHA256' ? 'oauth-rsa-sha256' : 'oauth-hmac-sha1';
  const result = (
    verdict: Diagnosis['verdict'],
    { defects, ...findings }: Findings,
    message: string,
    partnerBase?: string,
  ): Diagnosis => ({
    verdict,
    defects,
    scheme,
    message,
    correct: { baseString: correctBase },
    ...(partnerBase === undefined ? {} : { partner: { baseString: partnerBase } }),
    ...findings,
  });
  if (used === method && check(used, REFERENCE, correctBase))
    return result('valid', { defects: [] }, `${method} signature is valid`);
  if (used !== method) {
    // Signed under the other method (a valid signature there), or under one that is neither.
    const reproduced = isMethod(used) && check(used, REFERENCE, correctBase);
    return result(
      'invalid',
      { defects: reproduced ? [WRONG_SIGNATURE_METHOD.id] : [] },
      reproduced
        ? `${method} signature does not match; reproduced by: ${WRONG_SIGNATURE_METHOD.id} (the signature is a ` +
            `valid ${used} one)`
        : `${method} signature does not match; it names oauth_signature_method ${used.slice(0, 20)}`,
    );
  }
  const hmacKey = (recipe: OAuthRecipe): string => recipeHmacKey(recipe, ...hmacSecrets(input));
  const memo: Memo = new Map();
  const searched = searchCompositions<OAuthRecipe>(
    {
      reference: REFERENCE,
      operators: OAUTH_MISTAKES.map((op) => ({ op, variants: op.recipes })),
      // What the signature depends on; the base string last, after a separator it never holds (it is percent-encoded).
      outcome: (recipe) =>
        method === 'HMAC-SHA1'
          ? `${recipe.hmacHash}\u0000${hmacKey(recipe)}\u0000${recipeBaseString(recipe, parts, memo)}`
          : `${recipe.rsaHash}\u0000${recipeBaseString(recipe, parts, memo)}`,
      viable: () => true,
      reproduces: (out, recipe) => check(method, recipe, out.slice(out.lastIndexOf('\u0000') + 1)),
    },
    BUDGET_MS,
    undefined,
    MAX_OAUTH_EVALUATIONS,
  );
  const first = searched.found[0]?.recipe;
  const findings = found(searched, OAUTH_MISTAKES);
  return result(
    'invalid',
    findings,
    `${method} signature does not match; ${reproduction(searched, findings, OAUTH_MISTAKES, 'OAuth')}`,
    first && recipeBaseString(first, parts),
  );
}

/** The control key and the token secret ('' when none) an HMAC-SHA1 signature is keyed with. */
const hmacSecrets = (input: DiagnoseInput): [string, string] => [
  requireCredential(input.credentials.controlKey, 'control key', HOW.controlKey),
  input.credentials.tokenSecret ?? '',
];

/** Every mistake of the compositions found, smallest compositions first, each once. */
const defectsOf = (result: SearchResult<unknown>): string[] => [...new Set(result.found.flatMap((f) => f.ids))];

type Findings = Pick<Diagnosis, 'defects' | 'compositions' | 'ambiguous' | 'wrongValue' | 'tried'>;

/**
 * The diagnosis's fields for what the search found, or for what it tried when it found nothing; `named` gives the
 * fields a composition's recipe left out or added.
 */
function found<R>(
  result: SearchResult<R>,
  known: readonly Mistake[],
  named: (recipe: R) => readonly string[] | undefined = () => undefined,
): Findings {
  const defects = defectsOf(result);
  if (!defects.length) return { defects, tried: known.map((m) => m.id) };
  // Stryker disable next-line ConditionalExpression: amount-value-wrong alone has a wrongValue, and decimal-amount,
  // the one mistake listed before it, is never searched with it: the first found is it either way
  const wrongValue = known.find((m) => m.wrongValue !== undefined && defects.includes(m.id))?.wrongValue;
  return {
    defects,
    compositions: result.found.map((f) => {
      const fields = named(f.recipe);
      return { mistakes: f.ids, steps: f.steps, ...(fields === undefined ? {} : { fields }) };
    }),
    ambiguous: result.found.length > 1,
    ...(wrongValue === undefined ? {} : { wrongValue }),
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

/** The message's tail: the compositions that reproduce the value, or what was tried and what that leaves. */
export function reproduction(
  result: SearchResult<unknown>,
  findings: Findings,
  known: readonly Mistake[],
  kind: keyof typeof REMAINS,
): string {
  // A composition's fields follow the mistake that left them out or added them (the one at the fields step).
  const names = (findings.compositions ?? []).map((c) =>
    c.mistakes
      .map((id, i) => (c.fields && c.steps[i] === STEPS.fields ? `${id} (${c.fields.join(', ')})` : id))
      .join(' + '),
  );
  if (names.length) {
    const ambiguous = names.length > 1 ? ' (ambiguous: each of these gives the value sent)' : '';
    const wrong = findings.wrongValue;
    const field = wrong ? `; the ${wrong} field's value itself is wrong: correct it, not the signature` : '';
    return `reproduced by: ${names.join(', ')}${ambiguous}${field}`;
  }
  const how = result.complete
    ? `alone and up to ${MAX_DEPTH} together`
    : `up to ${result.depth} together before the search's budget ran out`;
  return (
    `no known mistake reproduces it (all ${known.length} known ${kind} mistakes of docs/diagnoses.md tried, ` +
    `${how}); ${REMAINS[kind]}`
  );
}

/** Does the given signature match a base string under a method and recipe (hashes, key form)? */
function signatureCheck(
  input: DiagnoseInput,
  signature: string,
): (method: Method, recipe: OAuthRecipe, base: string) => boolean {
  let digestInfo: Buffer | null | undefined;
  const bytes = Buffer.from(signature, 'base64');
  const canonical = bytes.toString('base64') === signature;
  return (method, recipe, base) => {
    if (method === 'HMAC-SHA1') {
      return constantTimeEqual(signature, recipeHmac(recipe, ...hmacSecrets(input), base));
    }
    // Recovered once: each base string then costs a hash, not an RSA verification.
    // Stryker disable next-line ConditionalExpression: recovered again each time, the digest is the same (only slower)
    if (digestInfo === undefined) digestInfo = signedDigestInfo(rsaPublicKey(input), bytes);
    return canonical && digestInfo !== null && signsMessage(digestInfo, recipe.rsaHash, base);
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
