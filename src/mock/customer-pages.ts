/**
 * The gateway's pages for the customer's browser, as opposed to its API: the hosted checkout of a
 * `-form` order and the 3-D Secure page of a status answer's `html` form, each under the path prefix
 * of the request that made the order. This file is the one place that says which paths they are:
 * inspect asks it too, so it serves these pages instead of judging them as the integration's requests.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { serveCheckout, type CheckoutHooks } from './checkout.ts';
import type { OrderStore } from './orders.ts';
import { serveThreeDsPage } from './three-ds-page.ts';

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
  if (!m || m[1].split('/').includes('api')) return undefined;
  return { kind: m[2] as CustomerPageKind, prefix: m[1], orderId: m[3] };
}

/** The path of a customer page, as redirect-url and the 3-D Secure form name it. */
export const customerPagePath = (kind: CustomerPageKind, prefix: string, orderId: string): string =>
  `${prefix}/${kind}/${orderId}`;

/** Answers the page as the gateway would. */
export async function serveCustomerPage(
  req: IncomingMessage,
  res: ServerResponse,
  at: CustomerPagePath,
  orders: OrderStore,
  hooks: CheckoutHooks,
): Promise<void> {
  if (at.kind === '3ds') return serveThreeDsPage(req, res, at.orderId, orders);
  await serveCheckout(req, res, at.orderId, orders, customerPagePath('checkout', at.prefix, at.orderId), hooks);
}
