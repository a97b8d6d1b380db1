/**
 * `payconform verify`: the book's signature rules over one request, with the credentials given as its
 * one merchant. The control's shape, the OAuth header and its parameters, the signature method, the
 * version and the consumer key are the rules the mock and inspect run (control.ts, oauth.ts); the
 * signature itself is their signature rule. The clock and nonce rules are left out: verify judges a
 * request after the fact, not as it arrives.
 */
import { CALLBACK_NAME, type PathMatch } from '../catalogue/index.ts';
import { PayconformError } from '../errors.ts';
import { callbackControl } from '../signing/callback.ts';
import { isControlShaped } from '../signing/control.ts';
import type { Pair } from '../signing/form-body.ts';
import { endpointOf, HOW, requireCredential, type Credentials, type RequestInput } from '../signing/request.ts';
import { signableScheme } from '../signing/sign.ts';
import {
  compareSignature,
  type GivenSignature,
  type SentSignature,
  type Verdict,
  type VerifyReason,
} from '../signing/verify.ts';
import { callbackSigned } from './callbacks.ts';
import { controlFormat, controlPresent, controlSignature } from './control.ts';
import {
  consumerKeyKnown,
  oauthHeaderFormat,
  oauthHeaderPresent,
  oauthSignature,
  oauthVersion,
  signatureMethod,
} from './oauth.ts';
import { requestOf } from './one-request.ts';
import type { RequestUnderTest } from './request.ts';
import type { Evidence } from './rule.ts';
import { firstFailure, type RequestRule } from './run.ts';

/** The shape rules, in the book's order. */
const SHAPE: readonly RequestRule[] = [
  controlPresent,
  controlFormat,
  oauthHeaderPresent,
  oauthHeaderFormat,
  consumerKeyKnown,
  signatureMethod,
  oauthVersion,
];
const SIGNATURE_RULES: readonly RequestRule[] = [controlSignature, oauthSignature];

/** The verdict reason a shape rule's failure is. */
function reasonOf(rule: RequestRule, evidence: Evidence): VerifyReason {
  if (rule === consumerKeyKnown) return 'wrong-consumer-key';
  if (rule === signatureMethod) return 'wrong-signature-method';
  if (rule === oauthVersion) return 'wrong-version';
  // A header with everything but the signature is an unsigned request, not a malformed one.
  if (rule === controlFormat || (rule === oauthHeaderFormat && evidence.field !== 'oauth_signature'))
    return 'malformed';
  return 'missing';
}

export function verifyRequest(request: RequestInput, credentials: Credentials, given: GivenSignature): Verdict {
  const match = endpointOf(request);
  const scheme = signableScheme(match.endpoint);
  const req = requestOf(request, credentials, given, match);
  const base = { operation: match.endpoint.operation, scheme };

  // Without a login there is no merchant login to hold the consumer key to (verify never asked for one).
  const shapeRules = SHAPE.filter((r) => credentials.login !== undefined || r !== consumerKeyKnown);
  const shape = firstFailure(shapeRules, req);
  if (shape !== undefined)
    return { valid: false, reason: reasonOf(shape.rule, shape.evidence), message: shape.evidence.message, ...base };
  requireKey(scheme, credentials);
  const failed = firstFailure(SIGNATURE_RULES, req);
  if (failed?.evidence.code === 'FIELD_MISSING' || failed?.evidence.code === 'FIELD_INVALID') {
    // A field the formula covers is missing or malformed: bad input, as for sign and explain.
    const code = failed.evidence.code === 'FIELD_MISSING' ? 'ERR_MISSING_FIELD' : 'ERR_FORM_BODY';
    throw new PayconformError(code, failed.evidence.message, { field: failed.evidence.field, rule: failed.rule.id });
  }
  const covered = coverage(req, match, scheme, credentials);
  if (failed !== undefined)
    return { valid: false, reason: 'mismatch', message: failed.evidence.message, ...base, ...covered };
  const what =
    scheme === 'control' ? 'control' : `${scheme === 'oauth-hmac-sha1' ? 'HMAC-SHA1' : 'RSA-SHA256'} signature`;
  return { valid: true, reason: 'valid', message: `${what} is valid`, ...base, ...covered };
}

/** The key the signature is checked with: missing, it is bad input (exit 2), named as sign and explain name it. */
function requireKey(scheme: ReturnType<typeof signableScheme>, credentials: Credentials): void {
  if (scheme !== 'oauth-rsa-sha256') requireCredential(credentials.controlKey, 'control key', HOW.controlKey);
  else if (credentials.publicKeyPem === undefined)
    requireCredential(credentials.privateKeyPem, 'public key', HOW.publicKey);
}

/**
 * What the signature covers, for people to compare with what they signed (the key as a placeholder): the
 * endpoint's scheme decides, so a stray header beside a control hides nothing. Only the coverage is read, so the
 * control compared is a stand-in.
 */
function coverage(
  req: RequestUnderTest,
  match: PathMatch,
  scheme: ReturnType<typeof signableScheme>,
  credentials: Credentials,
): { controlInput?: string; baseString?: string } {
  const { header } = req;
  const sent: SentSignature =
    scheme !== 'control' && header !== undefined ? { header, signature: '' } : { control: '' };
  const { controlInput, baseString } = compareSignature(
    { method: req.seen.method, url: req.seen.url, params: req.params ?? [] },
    credentials,
    sent,
    { match },
  );
  return {
    ...(controlInput === undefined ? {} : { controlInput }),
    ...(baseString === undefined ? {} : { baseString }),
  };
}

/**
 * `payconform verify --callback`: the callback rule (callback-signed) over one callback or customer return; the
 * control sent is `given` or the `control` pair.
 */
export function verifyCallbackRequest(
  params: readonly Pair[],
  controlKey: string | undefined,
  given?: string,
): Verdict {
  const base = { operation: CALLBACK_NAME, scheme: 'control' };
  const sent = given ?? params.find(([name]) => name === 'control')?.[1];
  const pairs: readonly Pair[] =
    given === undefined ? params : [...params.filter(([name]) => name !== 'control'), ['control', given]];
  // What a failure would be; missing or of another shape, the rule says so before it reads the key.
  const ifWrong = sent === undefined ? 'missing' : isControlShaped(sent) ? 'mismatch' : 'malformed';
  const key = ifWrong === 'mismatch' ? requireCredential(controlKey, 'control key', HOW.controlKey) : '';
  // A field of the formula missing is bad input (exit 2), as it is for a request's verify, sign and explain.
  const controlInput = key === '' ? {} : { controlInput: callbackControl(pairs, key).controlInput };
  const outcome = callbackSigned.check({ pairs, controlKey: key });
  if (outcome.outcome !== 'fail')
    return { ...base, valid: true, reason: 'valid', message: 'control is valid', ...controlInput };
  return { ...base, valid: false, reason: ifWrong, message: outcome.evidence.message, ...controlInput };
}
