/**
 * Serving the gateway's pages for the customer's browser (checkout, 3-D Secure); which paths they
 * are is src/gateway/customer-pages.ts's to say.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { customerPagePath, type CustomerPagePath } from '../gateway/customer-pages.ts';
import { serveCheckout, type CheckoutHooks } from './checkout.ts';
import type { OrderStore } from './orders.ts';
import { serveThreeDsPage } from './three-ds-page.ts';

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
