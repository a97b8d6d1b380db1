/**
 * The control of the gateway's callback and of the customer's return (src/catalogue/callback.ts):
 * the same computation as a request's control (control.ts), over the callback's formula.
 */
import { CALLBACK_FIELDS, CALLBACK_FORMULA, CALLBACK_NAME } from '../catalogue/index.ts';
import { computeControl, type ControlComputation } from './control.ts';
import type { Pair } from './form-body.ts';

export function callbackControl(params: readonly Pair[], controlKey: string): ControlComputation {
  return computeControl(CALLBACK_FORMULA, { operation: CALLBACK_NAME, endpointId: '', params }, controlKey);
}

/** What an order's callback says about it. */
export interface CallbackFacts {
  readonly orderid: string;
  readonly clientOrderId: string;
  readonly amount: string;
  readonly status: string;
  readonly type: string;
}

/** The callback's form pairs, signed with the key, in CALLBACK_FIELDS order. */
export function callbackPairs(facts: CallbackFacts, controlKey: string): Pair[] {
  const unsigned = {
    orderid: facts.orderid,
    merchant_order: facts.clientOrderId,
    client_orderid: facts.clientOrderId,
    amount: facts.amount,
    status: facts.status,
    type: facts.type,
  };
  const { control } = callbackControl(Object.entries(unsigned), controlKey);
  // A value for every field the catalogue lists, or the type check fails: no field can be missing at run time.
  const values: Record<(typeof CALLBACK_FIELDS)[number], string> = { ...unsigned, control };
  return CALLBACK_FIELDS.map((name): Pair => [name, values[name]]);
}
