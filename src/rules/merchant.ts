/**
 * Merchants as a gateway knows them, and which merchant an endpoint id belongs to. The endpoint id
 * names the merchant whose data a request reaches, on every scheme (A-3: a group id only where the
 * operation accepts one; A-24: even where the spec states no authentication).
 */
import type { Endpoint } from '../catalogue/index.ts';
import { fail, type Outcome } from './rule.ts';

export interface Merchant {
  readonly login: string;
  readonly merchantControlKey: string;
  /** Needed only to verify RSA-SHA256 (/api/v4/): a control-only merchant has none. */
  readonly publicKeyPem?: string | undefined;
  readonly endpointIds: readonly string[];
  readonly endpointGroupIds: readonly string[];
}

/**
 * The merchant owning an endpoint id (or a group id where the endpoint accepts one), or the failure.
 * In the endpoint-group URL form (`…/group/{id}`) the id must be a group id.
 */
export function ownerOf(
  endpoint: Endpoint,
  endpointId: string,
  merchants: readonly Merchant[],
  group = false,
): Merchant | Outcome {
  const byId = group ? undefined : merchants.find((m) => m.endpointIds.includes(endpointId));
  if (byId) return byId;
  const byGroup = merchants.find((m) => m.endpointGroupIds.includes(endpointId));
  if (byGroup && !endpoint.endpointGroup.accepted) {
    return fail(
      `endpointId: ${endpoint.operation} does not accept an endpoint group id (A-3: its public page lists no ` +
        `group URL)`,
      { field: 'endpointId', code: 'ENDPOINT_GROUP_NOT_ALLOWED' },
    );
  }
  if (byGroup) return byGroup;
  return fail(
    group
      ? `endpointId: ${endpointId} is not an endpoint group of any merchant`
      : `endpointId: ${endpointId} is not an endpoint of any merchant`,
    { field: 'endpointId', code: 'ENDPOINT_UNKNOWN' },
  );
}

/** The credentials the signer verifies with, from a merchant record. */
export function credentialsOf(m: Merchant): { login: string; controlKey: string; publicKeyPem: string | undefined } {
  return { login: m.login, controlKey: m.merchantControlKey, publicKeyPem: m.publicKeyPem };
}
