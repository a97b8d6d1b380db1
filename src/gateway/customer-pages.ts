/**
 * The gateway's pages for the customer's browser, as opposed to its API: the hosted checkout of a
 * `-form` order and the 3-D Secure page of a status answer's `html` form, each under the path prefix
 * of the request that made the order. This file is the one place that says which paths they are:
 * the mock serves them, and inspect asks it too, so it serves these pages instead of judging them.
 */
export type CustomerPageKind = 'checkout' | '3ds';

export interface CustomerPagePath {
  readonly kind: CustomerPageKind;
  /** What comes before the page's own path, e.g. /paynet ('' for none). */
  readonly prefix: string;
  readonly orderId: string;
}

const PAGE_PATH = /^((?:\/[^/]+)*?)\/(checkout|3ds)\/([0-9]{1,20})$/;

/** The customer page a path names, or undefined: API paths (anything with an /api/ segment) never are one. */
export function customerPageOf(pathname: string): CustomerPagePath | undefined {
  const m = PAGE_PATH.exec(pathname);
  if (m === null) return undefined;
  // The pattern's three groups always take part in a match.
  const [, prefix = '', kind, orderId = ''] = m;
  if (prefix.split('/').includes('api')) return undefined;
  return { kind: kind === '3ds' ? '3ds' : 'checkout', prefix, orderId };
}

/** The path of a customer page, as redirect-url and the 3-D Secure form name it. */
export const customerPagePath = (kind: CustomerPageKind, prefix: string, orderId: string): string =>
  `${prefix}/${kind}/${orderId}`;
