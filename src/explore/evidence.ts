/**
 * A failing generated case as evidence for the bundle: a vector file (payconform-vectors/1, shared
 * vector-format.md) and a curl command (client/exchange-text.ts's). Neither holds a secret: the credentials stand
 * as the vector format's placeholders and the signature sent is left out (re-sign with `payconform sign`), and the
 * World redacts every attachment again on its way out (report/redact.ts).
 */
import type { SentRequest } from '../client/client.ts';
import { curlOf } from '../client/exchange-text.ts';
import { getParam, parseAuthorizationHeader } from '../signing/authorization-header.ts';
import { CONTROL_KEY_PLACEHOLDER } from '../signing/control.ts';
import { PRIVATE_KEY_PLACEHOLDER } from '../vectors/placeholders.ts';
import { VECTOR_FORMAT, type VectorFile, type VectorScheme } from '../vectors/types.ts';
import { oauthMethodOf, unsignedParams } from './cases.ts';
import type { PlannedCase } from './families.ts';
import type { Operation } from '../catalogue/index.ts';

export interface FailedCase {
  readonly family: string;
  readonly operation: Operation;
  readonly case: PlannedCase;
  /** What the gateway must have answered: valid requests accepted, the others refused. */
  readonly expect: 'accepted' | 'refused';
  readonly seed: number;
  readonly path: string;
  readonly login: string | undefined;
}

function schemeOf(operation: Operation): VectorScheme {
  const method = oauthMethodOf(operation);
  return method === undefined ? 'control' : method === 'HMAC-SHA1' ? 'oauth-hmac-sha1' : 'oauth-rsa-sha256';
}

/** The failing request as a vector: the request as sent without its signature, and the verdict it must get. */
export function vectorOf(f: FailedCase): VectorFile {
  const scheme = schemeOf(f.operation);
  const { request } = f.case;
  const { authorization } = request.headers;
  const header = authorization === undefined ? undefined : parseAuthorizationHeader(authorization);
  const nonce = header && getParam(header, 'oauth_nonce');
  const timestamp = header && getParam(header, 'oauth_timestamp');
  return {
    format: VECTOR_FORMAT,
    description: `generated ${f.family} check (seed ${f.seed}, path ${f.path}): replay with certify --seed ${f.seed}`,
    vectors: [
      {
        id: `generated-${f.family}-${f.operation.toLowerCase()}-${f.seed}`,
        description: `${f.case.label}: must be ${f.expect} (rule ${f.case.rule})`,
        scheme,
        operation: f.operation,
        request: { method: request.method, url: request.url, params: unsignedParams(request) },
        credentials: {
          ...(f.login === undefined ? {} : { login: f.login }),
          ...(scheme === 'oauth-rsa-sha256'
            ? { privateKeyPem: PRIVATE_KEY_PLACEHOLDER }
            : { merchantControlKey: CONTROL_KEY_PLACEHOLDER }),
        },
        ...(nonce !== undefined && timestamp !== undefined ? { oauth: { nonce, timestamp } } : {}),
        expected: { verdict: f.expect === 'accepted' ? 'valid' : 'invalid' },
      },
    ],
  };
}

/** The failing request as curl, its signature redacted. */
export const curlCommandOf = (request: SentRequest): string => curlOf(request);
