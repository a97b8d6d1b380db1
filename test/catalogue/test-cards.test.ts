// The test cards, the Luhn check and card-number masking: one module, known answers first.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  isTestCard,
  isTestCardRole,
  luhn,
  maskCardNumber,
  TEST_CARD_ROLES,
  TEST_CARDS,
} from '../../src/catalogue/test-cards.ts';
import { THREE_DS_CARD } from '../../src/catalogue/index.ts';
import { cardOutcome, MAGIC_CARDS } from '../../src/mock/magic.ts';

describe('test cards', () => {
  it('are five distinct 16-digit numbers that pass the Luhn check', () => {
    const numbers = Object.values(TEST_CARDS);
    assert.equal(new Set(numbers).size, 5);
    for (const n of numbers) assert.ok(/^[0-9]{16}$/.test(n) && luhn(n), n);
  });

  it("are the mock's magic cards, each with the outcome its role names", () => {
    assert.deepEqual(Object.keys(MAGIC_CARDS).sort(), Object.values(TEST_CARDS).sort());
    assert.deepEqual(
      TEST_CARD_ROLES.map((role) => cardOutcome(TEST_CARDS[role]).finalStatus),
      ['approved', 'declined', 'approved', 'processing', 'error'],
    );
    assert.equal(cardOutcome(TEST_CARDS['3-D Secure']).awaiting3ds, true);
    assert.equal(THREE_DS_CARD, TEST_CARDS['3-D Secure']);
  });

  it('are told apart from other numbers and roles', () => {
    assert.equal(isTestCard('4000000000000002'), true);
    assert.equal(isTestCard('4242424242424242'), false, 'a Luhn-valid card that is not one of ours');
    assert.equal(isTestCardRole('declined'), true);
    assert.equal(isTestCardRole('toString'), false, 'an inherited name is no role');
  });
});

describe('luhn', () => {
  it('accepts the check digit and nothing else (ISO/IEC 7812-1 example 79927398713)', () => {
    assert.equal(luhn('79927398713'), true);
    for (let d = 0; d <= 9; d++) if (d !== 3) assert.equal(luhn(`7992739871${d}`), false, `check digit ${d}`);
    assert.equal(luhn('4111111111111112'), false);
    assert.equal(luhn('0'), true);
  });
});

describe('maskCardNumber', () => {
  it('keeps the first six and last four digits (hand-masked expectations)', () => {
    assert.equal(maskCardNumber('4111111111111111'), '411111******1111');
    assert.equal(maskCardNumber('4000000000003220'), '400000******3220');
    assert.equal(maskCardNumber('6011000990139424123'), '601100*********4123');
    assert.equal(maskCardNumber('411111111111'), '411111**1111', 'twelve digits: two hidden');
  });

  it('reads the digits of a spaced number and hides all of a number too short to mask', () => {
    assert.equal(maskCardNumber('4111 1111 1111 1111'), '411111******1111');
    assert.equal(maskCardNumber('41111111111'), '***********');
    assert.equal(maskCardNumber('12-34'), '*****');
  });
});
