/**
 * Test cards by role, so features never spell a card number (reports are scanned for them).
 * The roles and numbers live in src/catalogue/test-cards.ts.
 */
import { isTestCardRole, TEST_CARD_ROLES, TEST_CARDS } from '../../src/catalogue/test-cards.ts';

export function testCard(role: string): string {
  if (!isTestCardRole(role)) throw new Error(`no test card for "${role}" (known: ${TEST_CARD_ROLES.join(', ')})`);
  return TEST_CARDS[role];
}
