/**
 * The masked card the mock keeps of a payment, however it was paid: a direct request's card fields or
 * the hosted checkout page's. The full number decides the outcome and is never kept.
 */
import { TEST_CARDS } from '../catalogue/test-cards.ts';
import { ownString } from '../own-string.ts';
import { cardOutcome, type CardOutcome } from './magic.ts';
import type { StoredCard } from './orders.ts';

const KNOWN_CARDS = new Map<CardOutcome, Map<string, StoredCard>>();

/** The card as kept: first six and last four digits, name, expiry, and the number's magic outcome. */
export function storedCard(number: string, printedName: string, expireMonth: string, expireYear: string): StoredCard {
  // Orders mostly repeat a few test cards: one shared, immutable record each keeps the mock's memory
  // flat over 100,000 orders (npm run bench), and holds no slice of a request body alive.
  // Keyed by what is kept (never the full number) and, apart, by the card's outcome.
  const outcome = cardOutcome(number);
  const key = `${number.slice(0, 6)}|${number.slice(-4)}|${printedName}|${expireMonth}|${expireYear}`;
  let cards = KNOWN_CARDS.get(outcome);
  if (cards === undefined) KNOWN_CARDS.set(outcome, (cards = new Map<string, StoredCard>()));
  let card = cards.get(key);
  if (card === undefined) {
    if (cards.size >= 1024) cards.clear();
    card = Object.freeze({
      bin: ownString(number.slice(0, 6)),
      lastFour: ownString(number.slice(-4)),
      printedName: ownString(printedName),
      expireMonth: ownString(expireMonth),
      expireYear: ownString(expireYear),
      outcome,
    });
    cards.set(key, card);
  }
  return card;
}

/** The card fields of a form (a request, the checkout page), or none without a card number. */
export function cardOfFields(field: (name: string) => string | undefined): StoredCard | undefined {
  const number = field('credit_card_number');
  if (number === undefined) return undefined;
  return storedCard(
    number,
    field('card_printed_name') ?? '',
    field('expire_month') ?? '12',
    field('expire_year') ?? '30',
  );
}

/** What a mock broken on reference-known charges when a reference is unknown. */
export const INVENTED_CARD = storedCard(TEST_CARDS.approved, '', '12', '30');
