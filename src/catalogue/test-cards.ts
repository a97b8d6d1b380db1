/**
 * Card numbers in one place: the form fields that carry card data, the documented test cards of the API family by
 * the role each plays (docs/mock.md: the mock decides an order's outcome by them, a live run sends nothing else), the
 * Luhn check that tells a card number from another long digit string, and the masking that lets a
 * card number be shown at all (design.md, Habits: at most the first six and last four digits).
 */

/** Form fields that carry a full card number (public field names of the API family). */
export const CARD_NUMBER_FIELDS: ReadonlySet<string> = new Set([
  'credit_card_number',
  'destination-card-no',
  'card_number',
]);
/** Form fields that carry a card verification value. */
export const CVV_FIELDS: ReadonlySet<string> = new Set(['cvv2', 'cvv', 'cvc']);

/** The test card of each role. Features name a card by its role, never by its number. */
export const TEST_CARDS = {
  approved: '4111111111111111',
  declined: '4000000000000002',
  '3-D Secure': '4000000000003220',
  'stays processing': '4000000000000259',
  'gateway error': '4000000000000119',
} as const;

export type TestCardRole = keyof typeof TEST_CARDS;

export const TEST_CARD_ROLES = Object.keys(TEST_CARDS) as TestCardRole[];

const NUMBERS: ReadonlySet<string> = new Set(Object.values(TEST_CARDS));

export function isTestCardRole(role: string): role is TestCardRole {
  return Object.hasOwn(TEST_CARDS, role);
}

/** True for the number of a documented test card: the only card numbers a live run may send. */
export function isTestCard(number: string): boolean {
  return NUMBERS.has(number);
}

/** The Luhn (mod 10) check of a digit string (ISO/IEC 7812-1, Annex B): every card number passes it. */
export function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * A card number as it may be shown: its first six and last four digits, the rest `*`; too short to mask safely, all
 * `*`.
 */
export function maskCardNumber(pan: string): string {
  const digits = pan.replace(/[^0-9]/g, '');
  if (digits.length < 12) return '*'.repeat(pan.length);
  return `${digits.slice(0, 6)}${'*'.repeat(digits.length - 10)}${digits.slice(-4)}`;
}
