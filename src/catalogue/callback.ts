/**
 * The gateway's messages to the merchant, which the spec does not show (api-spec.md: "Events,
 * callbacks, notifications and their payloads: not shown"); the facts are the API family's public
 * documentation and library (api-family-notes.md, docs/assumptions.md A-31): the callback to
 * `notify_url` or `server_callback_url` (an HTTP GET with the fields in the query string) and the
 * customer's return to `redirect_url`, both signed with one control formula.
 */
import type { ControlField } from './types.ts';

/** `control = SHA-1(status + orderid + client_orderid + merchant_control_key)`: the amount is not in it. */
export const CALLBACK_FORMULA: readonly ControlField[] = [
  { name: 'status', from: 'params', cents: false },
  { name: 'orderid', from: 'params', cents: false },
  { name: 'client_orderid', from: 'params', cents: false },
];

/** The callback's fields in the order the mock sends them (control last). */
export const CALLBACK_FIELDS = [
  'orderid',
  'merchant_order',
  'client_orderid',
  'amount',
  'status',
  'type',
  'control',
] as const;

/** The customer's return to redirect_url carries these (no amount, no type). */
export const RETURN_FIELDS = ['status', 'orderid', 'merchant_order', 'client_orderid', 'control'] as const;

/** The statuses a callback may carry: the library refuses any other. */
export const CALLBACK_STATUSES = ['approved', 'declined', 'filtered', 'error'] as const;

/** How the formula is named wherever an operation name would be shown. */
export const CALLBACK_NAME = 'CALLBACK';

/**
 * The callback's `type`: the transaction the order is, from its path (`sale-form` is a sale, a `return` a reversal),
 *
 */
export function transactionType(path: string): string {
  // The segment before the id: `…/sale-form/123` gives sale-form.
  const segment = /([^/]*)\/[^/]*$/.exec(path)?.[1];
  if (segment === undefined) throw new Error(`internal: callback path ${path} has no operation segment`);
  const operation = segment.replace(/-form$/, '');
  // The public docs name a returned payment's transaction a reversal, and list no "return" type.
  return operation === 'return' ? 'reversal' : operation;
}

/** How a gateway may send callbacks: the public gateways send GET; a profile may say POST. */
export const CALLBACK_METHODS = ['GET', 'POST'] as const;
export type CallbackMethod = (typeof CALLBACK_METHODS)[number];
export const DEFAULT_CALLBACK_METHOD: CallbackMethod = 'GET';

/**
 * The request fields that name the callback URL. `notify_url` is also told of the order's later
 * transactions (reversal, chargeback); given with `server_callback_url`, it takes its place.
 */
export const CALLBACK_URL_FIELDS = ['notify_url', 'server_callback_url'] as const;

/** The request fields that hold a URL of the merchant: the callback's two and the customer's return. */
export const MERCHANT_URL_FIELDS = [...CALLBACK_URL_FIELDS, 'redirect_url'] as const;

/**
 * A merchant URL field as a gateway reads it: trimmed, since the public pages say "leading and trailing
 * whitespace in input parameters will be omitted"; a blank one is not sent (the vendor's shop plugin sends an empty
 * notify_url by default, and means none).
 */
export function merchantUrlText(value: string | undefined): string | undefined {
  const text = value?.trim();
  return text === '' ? undefined : text;
}

/**
 * The URL a gateway can call back or send the customer's browser to, or why the text is none: written as the
 * public pages write one, an absolute http:// or https:// URL (the callback is an HTTP GET, on HTTP or HTTPS ports
 * only), that the WHATWG URL parser (the one every delivery uses) reads.
 */
export function merchantUrl(text: string): URL | { readonly scheme: string | undefined } {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    return { scheme: undefined };
  }
  return /^https?:\/\//i.test(text) ? url : { scheme: url.protocol };
}

/** The request's callback URL and whether it is a notify_url, from a field lookup; a blank field is not sent. */
export function callbackUrlOf(
  field: (name: string) => string | undefined,
): { url: string; notify: boolean } | undefined {
  const notify = merchantUrlText(field('notify_url'));
  if (notify !== undefined) return { url: notify, notify: true };
  const server = merchantUrlText(field('server_callback_url'));
  return server === undefined ? undefined : { url: server, notify: false };
}

/** The only ports the public gateways call back on, by scheme; the mock calls any, and says so. */
export const GATEWAY_CALLBACK_PORTS: Readonly<Record<string, readonly number[]>> = {
  'http:': [80, 8080],
  'https:': [443, 8443],
};

/** Why a real gateway would refuse to call this URL back, or undefined when it would call it. */
export function gatewayRefusesPort(url: URL): string | undefined {
  const allowed = GATEWAY_CALLBACK_PORTS[url.protocol] ?? [];
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return allowed.includes(port)
    ? undefined
    : `port ${port} (it calls back only on 80, 8080 for http and 443, 8443 for https)`;
}

/**
 * The waits between the gateway's 30 attempts, in minutes: doubling from 1 up to 1024, then 1024
 * each (29 waits, 20,479 minutes, about 14.2 days): the public docs' "30 times for 14 days on a
 * progressive timeline", whose steps they do not give (A-31).
 */
export const CALLBACK_ATTEMPTS = 30;
export const callbackWaitMinutes = (retry: number): number => 2 ** Math.min(retry - 1, 10);
