/** Types of the endpoint catalogue: one row per endpoint of the spec (api-spec.md, "Endpoints"). */
import type { Operation } from './endpoints.ts';

export type { Operation };

/** Where a control-formula value comes from. */
export type ControlFieldSource =
  /** the endpointId (or endpoint group id) in the URL path */
  | 'url'
  /** the merchant login from the credentials */
  | 'credentials'
  /** a form-body parameter of the same name */
  | 'params';

export interface ControlField {
  /** Spelled as in the spec's formula (`client-order-id` on the 3-D Secure uploads). */
  readonly name: string;
  readonly from: ControlFieldSource;
  /** The value enters the formula as integer cents (spec: "amount in cents"). */
  readonly cents: boolean;
}

export type AuthScheme =
  | { readonly kind: 'control'; readonly fields: readonly ControlField[] }
  | { readonly kind: 'oauth-hmac-sha1' }
  | { readonly kind: 'oauth-rsa-sha256' }
  /** The spec states no scheme ("none stated"). */
  | { readonly kind: 'unstated' };

export type AuthKind = AuthScheme['kind'];
export type SignableScheme = Exclude<AuthKind, 'unstated'>;

export type VersionSegment = 'v2' | 'v4' | '3ds/v1';

/** Every fact of a catalogue row except its operation name. */
export interface EndpointFacts {
  /** Path template below {base_url}, always ending in `/{endpointId}`. */
  readonly path: string;
  readonly version: VersionSegment;
  /** Named request schema, or null where the spec does not show one. */
  readonly requestSchema: string | null;
  /** Named 200 response schema, or null where the spec does not show one. */
  readonly responseSchema: string | null;
  readonly auth: AuthScheme;
  /** An endpoint group id is accepted in place of the endpointId (docs/assumptions.md A-3). */
  readonly acceptsEndpointGroup: boolean;
  /** `table`: a row of the spec's endpoint table; `signing-example`: named only in signing examples. */
  readonly source: 'table' | 'signing-example';
}

export interface Endpoint extends EndpointFacts {
  /** Operation name as in the spec's table (SALE, PREAUTHFORM, PAYOUT_V4 …). */
  readonly operation: Operation;
}

/** A catalogue row, or the stand-in for a generic RFC 5849 request whose URL is no catalogue endpoint. */
export interface SigningEndpoint extends EndpointFacts {
  readonly operation: Operation | 'RFC5849';
}
