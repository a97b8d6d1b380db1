/**
 * The 3-D Secure page a status answer's `html` form opens in the customer's browser. In the mock the
 * authentication itself is the merchant's upload of its result (upload-cres-result and its kin,
 * docs/mock.md), so the page only says so; it never moves the order.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { THREE_DS_FAIL } from './magic.ts';
import type { OrderStore } from './orders.ts';
import { escapeHtml } from '../report/html.ts';
import { page } from './page-html.ts';

/** Serves GET and POST (the status answer's form posts an empty body) of `/3ds/{id}`. */
export function serveThreeDsPage(req: IncomingMessage, res: ServerResponse, orderId: string, orders: OrderStore): void {
  // Nothing of the body is used; it is drained so the connection stays usable.
  req.resume();
  if (req.method !== 'GET' && req.method !== 'POST')
    return page(res, 405, 'Method not allowed', '<h1>Method not allowed</h1>');
  const order = orders.byId(orderId);
  if (!order)
    return page(
      res,
      404,
      'Unknown authentication',
      '<h1>Unknown authentication</h1><p>No 3-D Secure step is waiting here.</p>',
    );
  if (!order.awaiting3ds) return page(res, 409, 'Authentication complete', '<h1>This 3-D Secure step is complete</h1>');
  page(
    res,
    200,
    '3-D Secure',
    `<h1>3-D Secure authentication</h1><div>Order ${escapeHtml(order.merchantOrderId)}</div>
<p>In the payconform mock the merchant completes this step by uploading its result (upload-cres-result,
upload-pares-result or upload-method-url-result with orderid ${escapeHtml(order.paynetOrderId)});
a result of ${THREE_DS_FAIL} declines the order.</p>
<p class="note">payconform mock gateway: test cards only (docs/mock.md).</p>`,
  );
}
