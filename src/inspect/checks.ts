/**
 * What `payconform inspect` checks in every request a merchant's integration sends: one row per
 * check, with the spec clause (or assumption) it comes from and the fix a developer needs.
 */
export type CheckId =
  | 'endpoint' | 'method' | 'accept' | 'content-type' | 'form-encoding' | 'fields' | 'amount'
  | 'order-id-unique' | 'signature' | 'oauth-nonce' | 'oauth-timestamp' | 'oauth-in-body' | 'no-blind-retry';

export interface Check {
  readonly title: string;
  /** Where the rule comes from: a section of docs/spec/api-spec.md or an assumption id. */
  readonly clause: string;
  /** What to change when the check fails. */
  readonly hint: string;
}

export const CHECKS: Readonly<Record<CheckId, Check>> = {
  endpoint: { title: 'known endpoint', clause: 'Endpoints (path table; endpointId int64)', hint: 'Use a path of the catalogue (payconform catalogue) ending in your numeric endpointId.' },
  method: { title: 'POST', clause: 'Endpoints: "Method: POST"', hint: 'Send every API request as POST.' },
  accept: { title: 'Accept header', clause: 'Endpoints: "Request header: Accept: application/vnd.pay+json, required"', hint: 'Send Accept: application/vnd.pay+json exactly.' },
  'content-type': { title: 'content type', clause: 'Endpoints: "Request body: application/x-www-form-urlencoded"', hint: 'Send Content-Type: application/x-www-form-urlencoded (a charset parameter is fine).' },
  'form-encoding': { title: 'form encoding', clause: 'Scheme B rule 6; A-10 (form rules, UTF-8)', hint: 'Encode the body once, as UTF-8, with valid %XX escapes; let your HTTP library do it from name/value pairs.' },
  fields: { title: 'required fields, well-formed', clause: 'Named schemas (fields: A-25)', hint: 'Send every mandatory field of the request schema once, in the documented format.' },
  amount: { title: 'amount format', clause: 'Resources: amount "number"; A-7', hint: 'Write amounts as a plain decimal with at most two decimals, e.g. 10.00 (no sign, exponent or separators).' },
  'order-id-unique': { title: 'client_orderid unique per merchant', clause: 'Identifiers (client_orderid); A-20', hint: 'Give every new order its own client_orderid.' },
  signature: { title: 'signature', clause: 'Authentication: Scheme A (control) or Scheme B (OAuth 1.0a)', hint: 'See the diagnosis and the step-by-step explanation; fix the named canonicalisation step.' },
  'oauth-nonce': { title: 'OAuth nonce unique', clause: 'Limits: "The nonce must be unique per request"; A-22', hint: 'Make a fresh random oauth_nonce for every request, retries included.' },
  'oauth-timestamp': { title: 'OAuth timestamp fresh', clause: 'Scheme B: oauth_timestamp "current time in seconds"; A-22', hint: 'Use the current Unix time in seconds, and keep the server clock in sync (NTP).' },
  'oauth-in-body': { title: 'no oauth_* in the body', clause: 'Scheme B rule 6: oauth_* go in the Authorization header, not in the form body; A-26', hint: 'Send the oauth_* parameters only in the Authorization header.' },
  'no-blind-retry': { title: 'no retry without a status check', clause: 'A-20 (a timed-out POST may have moved money)', hint: 'After a time-out, ask status for the order before sending it again; never resend a money-moving request blindly.' },
};

export const CHECK_IDS = Object.keys(CHECKS) as CheckId[];
