/**
 * The hosted checkout page every `-form` endpoint redirects to: card fields, amount, merchant and a
 * pay button. Submitting it completes the order (magic card numbers decide the outcome, docs/mock.md),
 * which `status` then shows. The order keeps the card masked, as a direct payment's; the full
 * number is used to decide and is never stored or shown back.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { endpointByOperation } from '../catalogue/index.ts';
import { decodeForm } from '../signing/form-body.ts';
import type { Pair } from '../signing/form-body.ts';
import { isFinal, type Order, type OrderStore } from './orders.ts';
import { escapeHtml, formOrigin } from '../report/html.ts';
import { page } from './page-html.ts';
import { storedCard } from './stored-card.ts';

/** What the page tells the rest of the mock when it is paid. */
export interface CheckoutHooks {
  /** The order has its outcome (its callback, A-31). */
  readonly finalized: (order: Order) => void;
  /** The signed fields of the customer's return to redirect_url, if the order has one. */
  readonly returnFields: (order: Order) => Pair[] | undefined;
}

/**
 * The page after payment. With a redirect_url, the customer's browser goes back there at once by a
 * self-submitting POST form with the signed return fields, which a button also submits.
 */
function paidPage(res: ServerResponse, order: Order, hooks: CheckoutHooks): void {
  const status = `<p>The order is <strong>${escapeHtml(order.finalStatus)}</strong>.</p>`;
  const back = hooks.returnFields(order);
  if (back === undefined || order.redirectUrl === undefined)
    return page(
      res,
      200,
      'Payment submitted',
      `<h1>Payment submitted</h1>${status}<p>The merchant learns it through status.</p>`,
    );
  const inputs = back
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  // One line: the form as the customer's browser and the tests read it.
  const returnForm =
    `<form id="return" method="post" action="${escapeHtml(order.redirectUrl)}">${inputs}` +
    '<button type="submit">Back to the shop</button></form>';
  // The form may post to redirect_url's origin alone; a URL that names none (not http(s)) posts nowhere.
  const origin = formOrigin(order.redirectUrl);
  page(res, 200, 'Payment submitted', `<h1>Payment submitted</h1>${status}\n${returnForm}`, {
    forms: origin === undefined ? 'none' : [origin],
    script: "document.getElementById('return').submit()",
  });
}

/** Serves GET (the form) and POST (its submission) of `/checkout/{id}` under the mock's prefix. */
export async function serveCheckout(
  req: IncomingMessage,
  res: ServerResponse,
  orderId: string,
  orders: OrderStore,
  action: string,
  hooks: CheckoutHooks,
): Promise<void> {
  const order = orders.byId(orderId);
  if (!order || endpointByOperation(order.operation).mockBehaviour !== 'form')
    return page(res, 404, 'Unknown checkout', '<h1>Unknown checkout</h1><p>No payment is waiting here.</p>');
  const amount =
    order.amount === undefined ? '' : `${escapeHtml(order.currency ?? '')} ${escapeHtml(order.amount)}`.trim();
  if (req.method === 'GET') {
    if (!order.awaitingCheckout) return page(res, 409, 'Already paid', '<h1>This checkout is complete</h1>');
    return page(
      res,
      200,
      'Checkout',
      `
<h1>Pay ${escapeHtml(order.merchantLogin)}</h1><div>Order ${escapeHtml(order.merchantOrderId)}</div>
<div class="amount">${amount || 'Card check'}</div>
<form method="post" action="${escapeHtml(action)}">
  <label for="pan">Card number</label>
  <input id="pan" name="credit_card_number" inputmode="numeric" autocomplete="cc-number" required>
  <label for="name">Name on card</label><input id="name" name="card_printed_name" autocomplete="cc-name" required>
  <div class="row"><div><label for="mm">Month</label><input id="mm" name="expire_month" placeholder="MM" required></div>
  <div><label for="yy">Year</label><input id="yy" name="expire_year" placeholder="YY" required></div>
  <div><label for="cvv">CVV</label>
  <input id="cvv" name="cvv2" inputmode="numeric" autocomplete="cc-csc" required></div></div>
  <button type="submit">Pay ${amount || ''}</button>
</form><p class="note">payconform mock gateway: test cards only (docs/mock.md).</p>`,
      { forms: 'self' },
    );
  }
  if (req.method !== 'POST') return page(res, 405, 'Method not allowed', '<h1>Method not allowed</h1>');
  if (!order.awaitingCheckout) return page(res, 409, 'Already paid', '<h1>This checkout is complete</h1>');
  let body = '';
  for await (const chunk of req) {
    body += chunk;
    if (body.length > 8192) return page(res, 413, 'Too large', '<h1>Too large</h1>');
  }
  let pairs: Pair[];
  try {
    pairs = decodeForm(body);
  } catch {
    return page(res, 400, 'Bad form', '<h1>The form could not be read</h1>');
  }
  const field = (name: string): string | undefined => pairs.find(([n]) => n === name)?.[1].trim() || undefined;
  const number = field('credit_card_number');
  if (number === undefined || !/^[0-9]{12,19}$/.test(number))
    return page(res, 400, 'Card number needed', '<h1>Enter a card number of 12 to 19 digits</h1>');
  // The order keeps the masked card, as a direct payment does: card references, rebills and
  // status then work after a hosted payment as after a direct one.
  order.card = storedCard(
    number,
    field('card_printed_name') ?? '',
    field('expire_month') ?? '12',
    field('expire_year') ?? '30',
  );
  order.finalStatus = order.card.outcome.finalStatus;
  order.awaitingCheckout = false;
  if (isFinal(order)) hooks.finalized(order);
  paidPage(res, order, hooks);
}
