/**
 * What the mock does with an authenticated request: start an order and answer the endpoint's 200
 * body (catalogue responseSchema; AsyncResponse where the spec shows none), or report an order's
 * status. Driven by the catalogue row, not written per endpoint.
 */
import type { Endpoint } from '../catalogue/index.ts';
import type { Pair } from '../signing/form-body.ts';
import type { Merchant } from './merchants.ts';
import { MockError } from './mock-error.ts';
import type { OrderStore } from './orders.ts';

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

export function runOperation(ctx: OperationContext): Record<string, string> {
  const { endpoint, params } = ctx;
  const login = ctx.merchant?.login ?? '';
  const merchantOrderId = field(params, 'client_orderid', 'client-order-id') ?? '';
  if (endpoint.operation === 'STATUS') {
    const orderid = field(params, 'orderid');
    const order = orderid === undefined ? undefined : ctx.orders.find(orderid, login);
    if (!order) throw new MockError(400, 'ORDER_UNKNOWN', 'orderid: no such order for this merchant', 'orderid');
    return {
      type: 'status-response', status: ctx.orders.poll(order), 'paynet-order-id': order.paynetOrderId,
      'merchant-order-id': order.merchantOrderId, 'serial-number': ctx.serialNumber,
      ...(order.amount === undefined ? {} : { amount: order.amount }), ...(order.currency === undefined ? {} : { currency: order.currency }),
    };
  }
  const order = ctx.orders.create({
    merchantLogin: login, operation: endpoint.operation, merchantOrderId: merchantOrderId || '-',
    amount: field(params, 'amount'), currency: field(params, 'currency'), finalStatus: 'approved',
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
