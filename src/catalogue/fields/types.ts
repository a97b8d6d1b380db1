/**
 * Types of the field tables (issue 43): one row per field of a request or an answer, each citing the
 * family's public page it was read from. The seed spec shows no field lists ("not shown"), so the pages
 * settle them; where the spec does say something, it wins and `spec` quotes it beside the page.
 */

/** How a field is needed: `conditional` rows say when in `condition`. */
export type Necessity = 'mandatory' | 'optional' | 'conditional';

/** What a value is, before any pattern or length: the row's JSON Schema is made from this. */
export type FieldKind = 'text' | 'amount' | 'currency' | 'digits' | 'url' | 'email' | 'ip' | 'card' | 'enum';

/** Where a row comes from. */
export interface FieldSource {
  /** The public page whose parameter table lists the field (an absolute URL). */
  readonly page: string;
  /** The seed spec's words where it says something of the field; they win over the page. */
  readonly spec?: string;
  /** Where pages disagree with each other (or the page with a shop plugin): what each says. */
  readonly disagreement?: string;
  /** The assumption id (docs/assumptions.md) the row rests on where the pages leave it open. */
  readonly assumption?: string;
}

export interface FieldRow {
  /** As sent on the wire (`client_orderid`, `client-order-id`, `paynet-order-id`). */
  readonly name: string;
  readonly necessity: Necessity;
  /** For a `conditional` row: when the field is needed, in the page's words. */
  readonly condition?: string;
  /** For a `conditional` row the check enforces: the field is needed whenever this other field is sent. */
  readonly requiredWith?: string;
  readonly kind: FieldKind;
  /** Longest value the page allows, in characters, where it gives one. */
  readonly maxLength?: number;
  /** A regular expression the value must match (anchored), where the page or an assumption fixes one. */
  readonly pattern?: string;
  /** The allowed values of an `enum` row. */
  readonly allowed?: readonly string[];
  /** The value enters the control formula (requests only; false on answers). */
  readonly inControl: boolean;
  /** One line: what the field is, after the page. */
  readonly description: string;
  /** A valid value: samples, the OpenAPI document and the Postman collection are built from it. */
  readonly example: string;
  readonly source: FieldSource;
}

/** The fields of one named request or answer schema, and the page of its operation. */
export interface FieldTable {
  /** The schema name (`SaleRequest`, `StatusResponse`); the catalogue rows name it. */
  readonly schema: string;
  /** The operation's public page (the table's rows may cite others). */
  readonly page: string;
  readonly fields: readonly FieldRow[];
}
