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
  const unsigned: Pair[] = [
    ['orderid', facts.orderid],
    ['merchant_order', facts.clientOrderId],
    ['client_orderid', facts.clientOrderId],
    ['amount', facts.amount],
    ['status', facts.status],
    ['type', facts.type],
  ];
  const values = new Map<string, string>([...unsigned, ['control', callbackControl(unsigned, controlKey).control]]);
  return CALLBACK_FIELDS.map((name): Pair => {
    const value = values.get(name);
    if (value === undefined) throw new Error(`internal: callback field ${name} is not built here`);
    return [name, value];
  });
}
