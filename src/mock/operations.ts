/**
 * What the mock does with an authenticated request, driven by the catalogue row: start an order and
 * answer the endpoint's 200 body (AsyncResponse where the spec shows none), report an order's
 * status, or move an existing order on (capture, void, return, 3-D Secure results). An illegal move
 * is refused and changes nothing (docs/mock.md).
 */
import type { Endpoint } from '../catalogue/index.ts';
import { isPayconformError } from '../errors.ts';
import { toCents } from '../signing/cents.ts';
import type { Pair } from '../signing/form-body.ts';
import { cardOutcome, SERVER_ERROR_ORDER_ID } from './magic.ts';
import type { Merchant } from './merchants.ts';
import { MockError } from './mock-error.ts';
import type { Order, OrderStore } from './orders.ts';

export interface OperationContext {
  readonly endpoint: Endpoint;
  readonly params: readonly Pair[];
  readonly merchant: Merchant | undefined;
  readonly orders: OrderStore;
  readonly serialNumber: string;
  /** Where this mock is reached, for redirect URLs. */
  readonly publicBase: string;
}

const field = (params: readonly Pair[], ...names: string[]): string | undefined =>
  names.map((n) => params.find(([k]) => k === n)?.[1]).find((v) => v !== undefined);

function cents(params: readonly Pair[]): bigint | undefined {
  const amount = field(params, 'amount');
  if (amount === undefined) return undefined;
  try {
    return BigInt(toCents(amount));
  } catch (err) {
    if (isPayconformError(err)) throw new MockError(400, 'FIELD_INVALID', err.message, 'amount');
    throw err;
  }
}

const THREE_DS_UPLOADS = new Set(['TDS_UPLOAD_CRES_RESULT', 'TDS_UPLOAD_METHOD_URL_RESULT', 'TDS_UPLOAD_PARES_RESULT']);

/** Moves an existing order on, or refuses with the rule it breaks (nothing is changed then). */
function moveOrder(operation: string, parent: Order, amount: bigint | undefined): void {
  const refuse = (why: string): never => { throw new MockError(400, 'ORDER_STATE', `orderid: ${why}`, 'orderid'); };
  const exceeds = (why: string): never => { throw new MockError(400, 'AMOUNT_EXCEEDS', `amount: ${why}`, 'amount'); };
  const approved = parent.finalStatus === 'approved' && !parent.awaiting3ds;
  if (THREE_DS_UPLOADS.has(operation)) {
    if (!parent.awaiting3ds) refuse('no 3-D Secure step is pending for this order');
    parent.awaiting3ds = false;
    return;
  }
  if (parent.voided) refuse('the order is voided');
  if (operation === 'CAPTURE') {
    if (parent.operation !== 'PREAUTH') refuse('only a preauth can be captured');
    if (!approved) refuse(`a ${parent.finalStatus} preauth cannot be captured`);
    const room = (parent.amountCents ?? 0n) - parent.capturedCents;
    if ((amount ?? room) > room) exceeds(`capture above the authorised amount (${room} cents left)`);
    parent.capturedCents += amount ?? room;
  } else if (operation === 'VOID') {
    if (parent.operation !== 'SALE' && parent.operation !== 'PREAUTH') refuse('only a sale or a preauth can be voided');
    if (parent.capturedCents > 0n || parent.returnedCents > 0n) refuse('a captured or returned order is settled and cannot be voided');
    if (parent.finalStatus !== 'approved') refuse(`a ${parent.finalStatus} order cannot be voided`);
    parent.voided = true;
  } else if (operation === 'RETURN') {
    const base = parent.operation === 'SALE' && approved ? parent.amountCents ?? 0n : parent.operation === 'PREAUTH' ? parent.capturedCents : refuse('only an approved sale or a captured preauth can be returned');
    if (base === 0n) refuse('nothing was captured to return');
    const room = base - parent.returnedCents;
    if ((amount ?? room) > room) exceeds(`return above the ${parent.operation === 'SALE' ? 'sale' : 'captured'} amount (${room} cents left)`);
    parent.returnedCents += amount ?? room;
  }
}

const MOVES = new Set(['CAPTURE', 'VOID', 'RETURN', ...THREE_DS_UPLOADS]);

export function runOperation(ctx: OperationContext): Record<string, string> {
  const { endpoint, params, orders } = ctx;
  const login = ctx.merchant?.login ?? '';
  const merchantOrderId = field(params, 'client_orderid', 'client-order-id') ?? '';
  if (merchantOrderId === SERVER_ERROR_ORDER_ID) throw new MockError(500, 'SERVER_ERROR', `client_orderid ${SERVER_ERROR_ORDER_ID} makes the mock answer 500 on purpose`);
  const amountCents = cents(params);
  const parentOf = (): Order => {
    const orderid = field(params, 'orderid');
    const order = orderid === undefined ? undefined : orders.find(orderid, login);
    if (!order) throw new MockError(400, 'ORDER_UNKNOWN', 'orderid: no such order for this merchant', 'orderid');
    return order;
  };
  if (endpoint.operation === 'STATUS') {
    const order = parentOf();
    const status = orders.poll(order);
    return {
      type: 'status-response', status, 'paynet-order-id': order.paynetOrderId, 'merchant-order-id': order.merchantOrderId, 'serial-number': ctx.serialNumber,
      ...(order.amount === undefined ? {} : { amount: order.amount }), ...(order.currency === undefined ? {} : { currency: order.currency }),
      ...(order.awaiting3ds ? { html: `<form method="post" action="${ctx.publicBase}/3ds/${order.paynetOrderId}"><button>Authenticate</button></form>` } : {}),
    };
  }
  if (MOVES.has(endpoint.operation)) moveOrder(endpoint.operation, parentOf(), amountCents);
  const outcome = cardOutcome(field(params, 'credit_card_number'));
  const order = orders.create({
    merchantLogin: login, operation: endpoint.operation, merchantOrderId: merchantOrderId || '-',
    amountCents, amount: field(params, 'amount'), currency: field(params, 'currency'),
    finalStatus: MOVES.has(endpoint.operation) ? 'approved' : outcome.finalStatus,
    awaiting3ds: !MOVES.has(endpoint.operation) && outcome.awaiting3ds,
    awaitingCheckout: endpoint.responseSchema === 'AsyncCheckoutFormRedirect',
  });
  const base = { status: 'processing', 'paynet-order-id': order.paynetOrderId, 'merchant-order-id': order.merchantOrderId, 'serial-number': ctx.serialNumber };
  switch (endpoint.responseSchema) {
    case 'AsyncCheckoutFormRedirect':
      return { type: 'async-form-response', ...base, 'redirect-url': `${ctx.publicBase}/checkout/${order.paynetOrderId}` };
    case 'CardRefAsyncResponse':
    case 'CardRefV4AsyncResponse':
      return { type: 'async-response', ...base, 'card-ref-id': `CR${order.paynetOrderId}` };
    case 'CreateRecurringPaymentResponse':
      return { type: 'async-response', ...base, 'recurring-payment-id': `RP${order.paynetOrderId}` };
    case 'CardInfoAsyncResponse':
      return { type: 'async-response', ...base, bin: '411111', 'last-four-digits': '1111', 'card-printed-name': 'TEST CARD', 'expire-month': '12', 'expire-year': '30' };
    default:
      return { type: 'async-response', ...base };
  }
}
