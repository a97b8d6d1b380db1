/**
 * Which payment a request that starts an order makes, told apart from another by what a double charge
 * repeats: the merchant, the operation, the amount, the currency and the card. The card is kept
 * only as a SHA-256 of its digits (or the card reference it names): never the number itself.
 */
import { createHash } from 'node:crypto';
import type { With } from './request.ts';

/** The payment's fingerprint, or undefined where the request names no card to tell one payment from another. */
export function paymentOf(req: With<'endpoint' | 'merchant'>): string | undefined {
  const number = req.field('credit_card_number')?.replace(/\D/g, '');
  const ref = req.field('cardrefid')?.trim();
  const card = number ? `pan:${number}` : ref ? `ref:${ref}` : undefined;
  // A hosted form has no card in the request: two shoppers paying the same amount must not look like one payment.
  if (card === undefined) return undefined;
  const money = `${req.amount?.cents ?? req.field('amount') ?? ''} ${req.field('currency') ?? ''}`;
  return createHash('sha256')
    .update([req.merchant.login, req.match.endpoint.operation, money, card].join('\u0000'))
    .digest('hex');
}
