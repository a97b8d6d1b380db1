/**
 * An order at its final status with what its callback needs: the mock hands it to its
 * callback sender, and inspect --callback-checks plays the gateway's callbacks from it.
 */
import type { CallbackFacts } from '../signing/callback.ts';
import type { Merchant } from '../rules/merchant.ts';

export interface FinalOrder {
  readonly facts: CallbackFacts;
  readonly callbackUrl: string;
  readonly merchant: Merchant;
}
