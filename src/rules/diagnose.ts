/**
 * `payconform diagnose`: a partner's request as sent, judged by the book's rules for whether it carries a
 * signature to diagnose (the control, the OAuth header and its parameters, the endpoint's signature method:
 * the same rules and words as the mock, inspect and verify), then searched for the known mistake that
 * reproduces the value sent (src/signing/diagnose).
 */
import { endpointByOperation, findPath, type PathMatch } from '../catalogue/index.ts';
import {
  controlGiven,
  diagnoseCallback,
  diagnoseSent,
  isDigestShaped,
  isMethod,
  type DiagnoseInput,
  type Diagnosis,
} from '../signing/diagnose/index.ts';
import { normalizeUrl } from '../signing/normalize-url.ts';
import type { Pair } from '../signing/form-body.ts';
import { HOW, requireCredential } from '../signing/request.ts';
import { signableScheme } from '../signing/sign.ts';
import { callbackSigned } from './callbacks.ts';
import { controlFormat, controlPresent } from './control.ts';
import {
  authorizationSent,
  authorizationWellFormed,
  oauthHeaderFormat,
  oauthHeaderPresent,
  signatureMethod,
} from './oauth.ts';
import { requestOf } from './one-request.ts';
import { firstFailure } from './run.ts';

/** What must hold before there is a value to search, in the book's order. */
const SENT = [controlPresent, oauthHeaderPresent, oauthHeaderFormat, signatureMethod];

export function diagnose(input: DiagnoseInput): Diagnosis {
  if (input.callback) return diagnoseCallbackRequest(input);
  const match = matchOf(input);
  if (match === undefined) return diagnoseOutsideCatalogue(input);
  const scheme = signableScheme(match.endpoint);
  const invalid = (message: string): Diagnosis => ({ verdict: 'invalid', defects: [], scheme, message, correct: {} });
  const req = requestOf(input.request, input.credentials, input.given, match);
  const unsent = firstFailure(SENT, req);
  // Signed under the other method, the signature is still searched: the search says whether it is valid there.
  if (unsent !== undefined && unsent.rule !== signatureMethod) return invalid(unsent.evidence.message);
  const control = controlGiven(input);
  // Not a digest in any form a mistake could give (SHA-1, SHA-256, MD5): nothing to search; the format rule says why.
  // (controlFormat judges control endpoints only: an OAuth endpoint's stray control is not its signature.)
  if (control !== undefined && !isDigestShaped(control)) {
    const malformed = firstFailure([controlFormat], req);
    if (malformed !== undefined) return invalid(malformed.evidence.message);
  }
  const d = diagnoseSent(input, match);
  if (d === undefined) throw new Error('internal: the rules found a signature that diagnose cannot read');
  if (unsent === undefined) return d;
  const valid = d.defects.length > 0 ? ` (the signature is a valid ${unsent.evidence.actual} one)` : '';
  return { ...d, message: unsent.evidence.message + valid };
}

/**
 * The catalogue row: the match the caller made, or the URL's; an operation given names the formula, with the
 * URL's endpoint id (its last path segment when the path is no catalogue path). None: an OAuth 1.0a request
 * outside the catalogue.
 */
function matchOf(input: DiagnoseInput): PathMatch | undefined {
  const { request, operation, match } = input;
  if (match !== undefined && operation === undefined) return match;
  const pathname = normalizeUrl(request.url).pathname;
  const found = findPath(pathname);
  if (operation === undefined) return found;
  const endpoint = endpointByOperation(operation);
  return found !== undefined
    ? { ...found, endpoint }
    : { endpoint, endpointId: pathname.slice(pathname.lastIndexOf('/') + 1), prefix: '' };
}

/**
 * An OAuth 1.0a request outside the catalogue (RFC 5849's examples): no rule of the book applies, so the header
 * checks the rules are made of run alone, and the method the header names must be one diagnose can check.
 */
function diagnoseOutsideCatalogue(input: DiagnoseInput): Diagnosis {
  const req = requestOf(input.request, input.credentials, input.given, undefined);
  const used = req.oauthParam('oauth_signature_method');
  const scheme = used === 'RSA-SHA256' ? 'oauth-rsa-sha256' : 'oauth-hmac-sha1';
  const invalid = (message: string): Diagnosis => ({ verdict: 'invalid', defects: [], scheme, message, correct: {} });
  for (const check of [authorizationSent, authorizationWellFormed]) {
    const outcome = check(req);
    if (outcome.outcome === 'fail') return invalid(outcome.evidence.message);
  }
  if (!isMethod(used))
    return invalid(
      `authorization: oauth_signature_method ${String(used).slice(0, 20)} is neither HMAC-SHA1 nor RSA-SHA256 ` +
        '(outside the catalogue, the methods diagnose checks)',
    );
  const d = diagnoseSent(input, undefined);
  if (d === undefined) throw new Error('internal: a well-formed header that diagnose cannot read');
  return d;
}

/** A callback or customer return: its control checked by the callback rule, then searched. */
function diagnoseCallbackRequest(input: DiagnoseInput): Diagnosis {
  const given = controlGiven(input);
  // Missing, the rule says so before it reads the key.
  if (given === undefined) return callbackRefused(input.request.params, '');
  if (isDigestShaped(given)) return diagnoseCallback(input, given);
  // Of no digest shape, it matches no value of the formula.
  const controlKey = requireCredential(input.credentials.controlKey, 'control key', HOW.controlKey);
  return callbackRefused([...input.request.params, ['control', given]], controlKey);
}

function callbackRefused(pairs: readonly Pair[], controlKey: string): Diagnosis {
  const outcome = callbackSigned.check({ pairs, controlKey });
  if (outcome.outcome !== 'fail') throw new Error('internal: a callback control no digest passed its rule');
  return { verdict: 'invalid', defects: [], scheme: 'control', message: outcome.evidence.message, correct: {} };
}
