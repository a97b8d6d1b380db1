/**
 * Test cards by role, so features never spell a card number (reports are scanned for them).
 * They are the mock's magic cards (docs/mock.md), the documented test numbers of the API family.
 */
import { MAGIC_CARDS } from '../../src/mock/magic.ts';

const ROLES: Readonly<Record<string, string>> = {
  approved: '4111111111111111',
  declined: '4000000000000002',
  '3-D Secure': '4000000000003220',
  'stays processing': '4000000000000259',
  'gateway error': '4000000000000119',
};

export function testCard(role: string): string {
  const number = ROLES[role];
  if (number === undefined || !(number in MAGIC_CARDS)) throw new Error(`no test card for "${role}" (known: ${Object.keys(ROLES).join(', ')})`);
  return number;
}
