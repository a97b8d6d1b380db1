/** Types of the endpoint catalogue: one row per endpoint of the spec (api-spec.md, "Endpoints"). */
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
  /** Enters the formula only when sent (return: "amount (in minor units, if sent)"); absent or blank, nothing. */
  readonly whenSent?: true;
}

export type AuthScheme =
  | {
      readonly kind: 'control';
      readonly fields: readonly ControlField[];
      /**
       * Set where the spec states no authentication ("none stated") and the family's public page of
       * the operation states this formula: the page's URL. The formula then rests on A-12, not the spec.
       */
      readonly fromPublicPage?: string;
    }
  | { readonly kind: 'oauth-hmac-sha1' }
  | { readonly kind: 'oauth-rsa-sha256' }
  /** The spec states no scheme ("none stated"). */
  | { readonly kind: 'unstated' };

export type AuthKind = AuthScheme['kind'];
export type SignableScheme = Exclude<AuthKind, 'unstated'>;

export type VersionSegment = 'v2' | 'v4' | '3ds/v1';

/** The facts of a row that signing reads; a generic RFC 5849 request (SigningEndpoint) has them too. */
export interface EndpointFacts {
  /** Path template below {base_url}, always ending in `/{endpointId}`. */
  readonly path: string;
  readonly version: VersionSegment;
  /** Named request schema, or null where the spec does not show one. */
  readonly requestSchema: string | null;
  /** Named 200 response schema, or null where the spec does not show one. */
  readonly responseSchema: string | null;
  readonly auth: AuthScheme;
  /**
   * Whether an endpoint group id is accepted in the endpointId's place, as the family's public page
   * for the operation shows it (docs/assumptions.md A-3); `page` is that page, or null where none is known.
   */
  readonly endpointGroup: EndpointGroup;
  /** `table`: a row of the spec's endpoint table; `signing-example`: named only in signing examples. */
  readonly source: 'table' | 'signing-example';
}

/** What the mock does with an accepted request of this operation (src/mock/operations.ts). */
export type MockBehaviour =
  /** starts an order whose card decides its outcome */
  | 'payment'
  /** starts an order that waits for the hosted checkout form */
  | 'form'
  /** moves an existing order on: capture, void, return, payout-pay, 3-D Secure results */
  | 'move'
  | 'status'
  /** a card reference from an approved card order */
  | 'card-ref-of-order'
  /** a card reference from card fields */
  | 'card-ref-of-card'
  | 'card-info'
  /** charges the card behind a card reference */
  | 'by-card-ref'
  | 'recurring-create'
  | 'recurring-process';

/** The features/ folder of an endpoint's generated feature file. */
export type FeatureArea = 'payments' | 'forms' | 'cards' | 'recurring' | 'payouts' | 'threeds' | 'status' | 'transfers';

/** A row's endpoint-group fact: stated per row from the public docs, never derived. */
export interface EndpointGroup {
  /**
   * The public page lists `…/{operation}/group/ENDPOINTGROUPID` (or, on the 3-D Secure uploads,
   * ENDPOINTGROUPID in the id's place).
   */
  readonly accepted: boolean;
  /** The public page that settles it; null where the family publishes no page for the operation. */
  readonly page: string | null;
}

/** Facts of a row that the mock, the request check and the feature generator read; signing needs none. */
export interface EndpointUse {
  /**
   * The request schema the form body is checked against and samples are built from: the spec's
   * `requestSchema`, or ours where the spec shows none (docs/assumptions.md A-25).
   */
  readonly checkedRequestSchema: string;
  readonly mockBehaviour: MockBehaviour;
  readonly featureArea: FeatureArea;
  /** The operation moves funds: a live run of it is tagged @money. */
  readonly movesMoney: boolean;
}
