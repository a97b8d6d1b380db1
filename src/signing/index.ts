/** The reference signer: pure functions, every intermediate value exposed. */
export { toCents } from './cents.ts';
export { percentEncode, percentDecode } from './percent-encode.ts';
export { decodeForm, encodeForm, parseParamOption, type Pair } from './form-body.ts';
export { normalizeUrl, type NormalizedUrl } from './normalize-url.ts';
export { normalizeParams, compareEncodedPairs, type NormalizedParams } from './normalize-params.ts';
export { signatureBaseString } from './base-string.ts';
export { hmacSigningKey, hmacSha1Signature } from './hmac-sha1.ts';
export { rsaSha256Signature, rsaSha256Verify } from './rsa-sha256.ts';
export {
  loadPrivateKey,
  loadPublicKey,
  generateRsaKeyPair,
  describeKey,
  KEY_SIZES,
  MIN_RSA_BITS,
  type KeySize,
} from './keys.ts';
export {
  protocolPairs,
  newNonce,
  currentTimestamp,
  type ProtocolParams,
  type SignatureMethod,
} from './oauth-params.ts';
export {
  buildAuthorizationHeader,
  parseAuthorizationHeader,
  getParam,
  type ParsedAuthorization,
} from './authorization-header.ts';
export {
  computeControl,
  controlFieldValues,
  formulaText,
  CONTROL_KEY_PLACEHOLDER,
  CONTROL_PATTERN,
  isControlShaped,
  type ControlComputation,
  type ControlContext,
} from './control.ts';
export {
  signOAuth,
  oauthBaseString,
  collectSignedPairs,
  signWithKey,
  type OAuthComputation,
  type OAuthKey,
  type OAuthRequest,
} from './oauth.ts';
export {
  signRequest,
  expectedValues,
  signableScheme,
  type SignResult,
  type SignOptions,
  type ExpectedValues,
} from './sign.ts';
export {
  compareSignature,
  constantTimeEqual,
  type Comparison,
  type SentSignature,
  type Verdict,
  type VerifyReason,
  type GivenSignature,
} from './verify.ts';
export { explain, explainCallback, explanationText, type Explanation, type ExplainStep } from './explain.ts';
export { callbackControl, callbackPairs, type CallbackFacts } from './callback.ts';
export { resolveEndpoint, type Credentials, type RequestInput } from './request.ts';
