/**
 * Making a mistake on purpose: the value a partner's code with that mistake would send. Used to
 * build the shipped diagnosis vectors and by the tests that check diagnose names each mistake. An id
 * may name a composition: mistakes at different steps joined with "+" (`separator-pipe+uppercase-hex`).
 */
import { sign as rsaSign } from 'node:crypto';
import { CALLBACK_FORMULA, CALLBACK_NAME, endpointByOperation, type ControlField } from '../../catalogue/index.ts';
import type { ControlContext } from '../control.ts';
import { buildAuthorizationHeader } from '../authorization-header.ts';
import { loadPrivateKey } from '../keys.ts';
import { protocolPairs } from '../oauth-params.ts';
import { HOW, requireCredential, type Credentials, type RequestInput } from '../request.ts';
import {
  concatenation,
  CONTROL_MISTAKES,
  digestOf,
  REFERENCE_CONTROL,
  type ControlRecipe,
} from './control-mistakes.ts';
import { OAUTH_MISTAKES } from './oauth-mistakes.ts';
import { oauthParts, recipeBaseString, recipeHmac, REFERENCE, type OAuthRecipe } from './oauth-recipe.ts';

/** The recipe a composition makes: each named mistake's change (its `variant`), over the reference. */
function composed<R, M extends { readonly id: string }>(
  id: string,
  reference: R,
  known: readonly M[],
  changes: (m: M) => ReadonlyArray<Partial<R>>,
  variant: number,
): R | undefined {
  let recipe = reference;
  for (const part of id.split('+')) {
    const m = known.find((x) => x.id === part);
    const all = m === undefined ? [] : changes(m);
    // In a composition of several, a mistake without that variant makes its first.
    const change = all[variant] ?? (id.includes('+') ? all[0] : undefined);
    if (change === undefined) return undefined;
    recipe = { ...recipe, ...change };
  }
  return recipe;
}

export interface OAuthMistakeInput {
  readonly request: RequestInput;
  readonly credentials: Credentials;
  readonly method: 'HMAC-SHA1' | 'RSA-SHA256';
  readonly nonce: string;
  readonly timestamp: string;
  readonly realm?: string | undefined;
}

/** The Authorization header a partner making mistake `id` (or none: 'none') would send; undefined if it cannot. */
export function oauthHeaderWithMistake(id: string, input: OAuthMistakeInput, variant = 0): string | undefined {
  const recipe: OAuthRecipe | undefined =
    id === 'none' ? REFERENCE : composed(id, REFERENCE, OAUTH_MISTAKES, (m) => m.recipes, variant);
  if (!recipe) return undefined;
  const protocol = protocolPairs({
    consumerKey: input.credentials.login ?? '',
    nonce: input.nonce,
    timestamp: input.timestamp,
    signatureMethod: input.method,
    version: '1.0',
  });
  const base = recipeBaseString(
    recipe,
    oauthParts(input.request.method ?? 'POST', input.request.url, input.request.params, protocol, input.realm),
  );
  const signature =
    input.method === 'HMAC-SHA1'
      ? recipeHmac(recipe, input.credentials.controlKey ?? '', input.credentials.tokenSecret ?? '', base)
      : rsaSign(
          recipe.rsaHash,
          Buffer.from(base),
          loadPrivateKey(requireCredential(input.credentials.privateKeyPem, 'private key', HOW.privateKey)),
        ).toString('base64');
  return buildAuthorizationHeader([...protocol, ['oauth_signature', signature]], input.realm);
}

/**
 * The control value a partner making mistake `id` would send, or undefined where the request gives the mistake no room.
 */
export function controlWithMistake(
  id: string,
  operation: string,
  endpointId: string,
  request: RequestInput,
  credentials: Credentials,
): string | undefined {
  const endpoint = endpointByOperation(operation);
  if (endpoint.auth.kind !== 'control') return undefined;
  return controlUnderMistake(
    id,
    endpoint.auth.fields,
    { operation, endpointId, login: credentials.login, params: request.params },
    credentials.controlKey ?? '',
  );
}

/** The same for a gateway callback (docs/callbacks.md). */
export function callbackControlWithMistake(
  id: string,
  params: RequestInput['params'],
  controlKey: string,
): string | undefined {
  // Stryker disable next-line StringLiteral: the callback formula has no endpoint id to take
  return controlUnderMistake(id, CALLBACK_FORMULA, { operation: CALLBACK_NAME, endpointId: '', params }, controlKey);
}

function controlUnderMistake(
  id: string,
  formula: readonly ControlField[],
  ctx: ControlContext,
  key: string,
): string | undefined {
  const recipe: ControlRecipe | undefined = composed(
    id,
    REFERENCE_CONTROL,
    CONTROL_MISTAKES,
    (m) => m.variantsFor(formula, ctx),
    0,
  );
  const input = recipe && concatenation(recipe, formula, ctx, key);
  const value = input === undefined ? undefined : digestOf(recipe as ControlRecipe, input);
  const correct = concatenation(REFERENCE_CONTROL, formula, ctx, key);
  // The mistake changes nothing here: it cannot be told from a correct control.
  return correct !== undefined && value === digestOf(REFERENCE_CONTROL, correct) ? undefined : value;
}
