/**
 * The customer's own steps on the gateway's hosted pages (checkout, 3-D Secure), which the embedded
 * mock serves through inspect. They are the browser's requests, not the integration's: shown as
 * context beside the API requests, never judged and never counted as passed or failed.
 */
import { customerPagePath, type CustomerPageKind, type CustomerPagePath } from '../gateway/customer-pages.ts';
import { escapeHtml } from '../report/html.ts';

/** What a step shows of the order behind a paid checkout. */
export interface PaidOrder {
  readonly finalStatus: string;
  readonly redirectUrl?: string | undefined;
}

export interface CustomerStep {
  readonly at: string;
  readonly method: string;
  readonly page: CustomerPageKind;
  /** The gateway's order the page belongs to (paynet-order-id). */
  readonly orderId: string;
  /** The page's path with its prefix; the query string is left out. */
  readonly path: string;
  /** The page's HTTP status, or undefined when the mock did not answer. */
  readonly status?: number;
  /** For a checkout the customer paid: the order's outcome, and whether the browser goes on to redirect_url. */
  readonly paid?: { readonly orderStatus: string; readonly toRedirectUrl: boolean };
}

/**
 * One line for the console and the reports:
 * "customer: POST checkout 123 → 200 (paid: approved; back to redirect_url)".
 */
export function customerLine(step: CustomerStep): string {
  const paid = step.paid
    ? ` (paid: ${step.paid.orderStatus}${step.paid.toRedirectUrl ? '; back to redirect_url' : ''})`
    : '';
  return `customer: ${step.method} ${step.page} ${step.orderId} → ${step.status ?? 'no answer'}${paid}`;
}

/** The report.html section: a list apart from the checked requests. */
export function customerSection(steps: readonly CustomerStep[]): string {
  if (steps.length === 0) return '';
  const items = steps.map((s) => `<li><time>${escapeHtml(s.at)}</time> ${escapeHtml(customerLine(s))}</li>`).join('\n');
  return `<section id="customer-steps"><h2>The customer's steps on the hosted pages</h2>
<p class="context">Context, not checks: the browser's requests to the gateway's own pages, served as the gateway would
and not judged.</p>
<ul>${items}</ul></section>`;
}

/** The step of a page the embedded mock answered; a paid checkout is known by its POST answered 200. */
export function customerStepOf(
  at: CustomerPagePath,
  method: string,
  status: number | undefined,
  order: PaidOrder | undefined,
): CustomerStep {
  const paid = at.kind === 'checkout' && method === 'POST' && status === 200 && order !== undefined;
  return {
    at: new Date().toISOString(),
    method,
    page: at.kind,
    orderId: at.orderId,
    path: customerPagePath(at.kind, at.prefix, at.orderId),
    ...(status === undefined ? {} : { status }),
    ...(paid ? { paid: { orderStatus: order.finalStatus, toRedirectUrl: order.redirectUrl !== undefined } } : {}),
  };
}
