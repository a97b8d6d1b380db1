/**
 * Signing driven by the catalogue: the URL path names the endpoint, the endpoint names the scheme,
 * and the scheme's own module does the work. Returns every intermediate value.
 */
import { matchPath, type Endpoint, type SignableScheme, type SigningEndpoint } from '../catalogue/index.ts';
import { PayconformError } from '../errors.ts';
import { computeControl, type ControlComputation } from './control.ts';
import { loadPrivateKey, describeKey } from './keys.ts';
import { signOAuth, type OAuthComputation, type OAuthKey } from './oauth.ts';
import { currentTimestamp, newNonce } from './oauth-params.ts';
import { normalizeUrl } from './normalize-url.ts';
import { HOW, requireCredential, type Credentials, type KnownFacts, type RequestInput } from './request.ts';

export interface SignOptions {
  readonly nonce?: string | undefined;
  readonly timestamp?: string | undefined;
  readonly realm?: string | undefined;
  /** Leave oauth_version out, as A-9 allows: to explain a header that was sent without it. */
  readonly omitVersion?: boolean | undefined;
}

interface Resolved {
  readonly endpoint: SigningEndpoint;
  readonly endpointId: string;
  readonly prefix: string;
}

export type SignResult =
  | (Resolved & { readonly scheme: 'control'; readonly control: ControlComputation })
  | (Resolved & {
      readonly scheme: 'oauth-hmac-sha1' | 'oauth-rsa-sha256';
      readonly oauth: OAuthComputation;
      /** How the key appears in explanations: never the key itself. */
      readonly keyDescription: string;
    });

/** The vector format's `expected` fields for a result. */
export interface ExpectedValues {
  controlInput?: string;
  control?: string;
  baseString?: string;
  signature?: string;
  authorization?: string;
}

export function signableScheme(endpoint: Endpoint): SignableScheme {
  if (endpoint.auth.kind === 'unstated') {
    throw new PayconformError(
      'ERR_SCHEME',
      `operation: ${endpoint.operation} has no authentication stated in the spec ("none stated"), so there is ` +
        `nothing to sign`,
      { field: 'operation', rule: 'scheme must be stated' },
    );
  }
  return endpoint.auth.kind;
}

export function signRequest(
  request: RequestInput,
  credentials: Credentials,
  options: SignOptions = {},
  known: KnownFacts = {},
): SignResult {
  const url = normalizeUrl(request.url);
  // A caller that matched the URL already (the rules' request value) hands its match over: no second match.
  const { endpoint, endpointId, prefix } = known.match ?? matchPath(url.pathname);
  const scheme = signableScheme(endpoint);
  // Results are built field by field, not with `...spread`: on Node 20 spreading into an object
  // literal with more properties takes V8's slow path, which cost ~4 µs of a ~25 µs HMAC signing.
  if (endpoint.auth.kind === 'control') {
    const controlKey = requireCredential(credentials.controlKey, 'control key', HOW.controlKey);
    const ctx = { operation: endpoint.operation, endpointId, login: credentials.login, params: request.params };
    return {
      endpoint,
      endpointId,
      prefix,
      scheme: 'control',
      control: computeControl(endpoint.auth.fields, ctx, controlKey),
    };
  }
  const { key, keyDescription } = oauthKey(scheme, credentials);
  const protocol = {
    consumerKey: requireCredential(credentials.login, 'login', HOW.login),
    nonce: options.nonce ?? newNonce(),
    timestamp: options.timestamp ?? currentTimestamp(),
    version: options.omitVersion === true ? undefined : '1.0',
    token: credentials.token,
  };
  const oauth = signOAuth(
    { method: request.method ?? 'POST', url: request.url, params: request.params, normalizedUrl: url },
    protocol,
    key,
    options.realm,
  );
  return {
    endpoint,
    endpointId,
    prefix,
    scheme: scheme as 'oauth-hmac-sha1' | 'oauth-rsa-sha256',
    oauth,
    keyDescription,
  };
}

function oauthKey(scheme: SignableScheme, credentials: Credentials): { key: OAuthKey; keyDescription: string } {
  if (scheme === 'oauth-hmac-sha1') {
    const consumerSecret = requireCredential(credentials.controlKey, 'control key', HOW.controlKey);
    const tokenPart = credentials.tokenSecret === undefined ? '' : '<enc(token_secret)>';
    return {
      key: { method: 'HMAC-SHA1', consumerSecret, tokenSecret: credentials.tokenSecret },
      keyDescription: `enc(<merchant_control_key>)&${tokenPart}`,
    };
  }
  const privateKey = loadPrivateKey(requireCredential(credentials.privateKeyPem, 'private key', HOW.privateKey));
  return { key: { method: 'RSA-SHA256', privateKey }, keyDescription: `<PRIVATE_KEY> (${describeKey(privateKey)})` };
}

export function expectedValues(result: SignResult): ExpectedValues {
  if (result.scheme === 'control')
    return { controlInput: result.control.controlInput, control: result.control.control };
  const { baseString, signature, authorization } = result.oauth;
  return { baseString, signature, authorization };
}
