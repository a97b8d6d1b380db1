// The world's callback handler rules (A-54..A-57), each judged on its own: the handler's answers, then what the
// shop holds as paid before and after (in cents), or what could not be judged without it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  amountOf,
  handlerAfterWindow,
  handlerChargebackBooked,
  handlerChargebackNotPayment,
  handlerDuplicateTogether,
  handlerHostileChangesNothing,
  handlerLateStatusChangesNothing,
  RETRY_WINDOW_MINUTES,
  type PaidSeen,
  type WorldSeen,
} from '../../src/rules/callback-world.ts';
import type { HandlerAnswer } from '../../src/rules/callbacks.ts';
import type { Outcome } from '../../src/rules/rule.ts';

const ok = { method: 'GET', status: 200 };
const seen = (paid: PaidSeen, answers: readonly HandlerAnswer[] = [ok], status = 'approved'): WorldSeen => ({
  answers,
  paid,
  amountCents: 2500n,
  status,
});
const says = (o: Outcome): string => (o.outcome === 'fail' ? o.evidence.message : o.outcome === 'skip' ? o.reason : '');

describe('the world callback rules', () => {
  it('amounts: cents as the shop writes them, signed', () => {
    assert.deepEqual(
      [amountOf(2500n), amountOf(-1n), amountOf(0n), amountOf(100005n)],
      ['25.00', '-0.01', '0.00', '1000.05'],
    );
  });

  it('two at once: both 200, and paid the amount once (approved) or nothing (declined)', () => {
    const rule = handlerDuplicateTogether;
    assert.equal(rule.check(seen({ before: 0n, after: 2500n }, [ok, ok])).outcome, 'pass');
    assert.equal(
      says(rule.check(seen({ before: 0n, after: 5000n }, [ok, ok]))),
      'paid: 50.00 after two identical approved callbacks at the same moment; expected 25.00: booked twice',
    );
    assert.equal(rule.check(seen({ before: 0n, after: 0n }, [ok, ok], 'declined')).outcome, 'pass');
    assert.match(says(rule.check(seen({ before: 0n, after: 2500n }, [ok, ok], 'declined'))), /expected 0\.00$/);
    assert.match(
      says(rule.check(seen(undefined, [ok, { method: 'GET', status: 500 }]))),
      /^answered 500 to one of two/,
    );
    assert.match(says(rule.check(seen(undefined, [ok, { method: 'GET', error: 'timeout' }]))), /no answer/);
    // Without the state, the answers alone: a pass whose state part the checker reports as not judged.
    assert.equal(rule.check(seen(undefined, [ok, ok])).outcome, 'pass');
    assert.equal(rule.statePart, 'booked once');
  });

  it('a state that could not be read fails, whatever the answers', () => {
    for (const rule of [handlerDuplicateTogether, handlerLateStatusChangesNothing, handlerAfterWindow])
      assert.match(says(rule.check(seen({ unreadable: 'answered 500' }))), /^paid: the shop's state could not be read/);
  });

  it('late, after the window, hostile: paid must not change at all', () => {
    for (const rule of [handlerLateStatusChangesNothing, handlerAfterWindow, handlerHostileChangesNothing]) {
      assert.equal(rule.check(seen({ before: 2500n, after: 2500n }, [])).outcome, 'pass', rule.id);
      assert.match(
        says(rule.check(seen({ before: 2500n, after: 0n }, []))),
        /25\.00 before .*, 0\.00 after; expected no change/,
      );
    }
    assert.equal(
      says(handlerHostileChangesNothing.check(seen(undefined, []))),
      'nothing changed: not judged, no --callback-state',
    );
  });

  it('after the window: 29 waits of 1, 2, 4 … 1024 minutes, then 1024 (docs/callbacks.md: 20,479 minutes)', () => {
    assert.equal(RETRY_WINDOW_MINUTES, 1 + 2 + 4 + 8 + 16 + 32 + 64 + 128 + 256 + 512 + 1024 + 18 * 1024);
    assert.equal(RETRY_WINDOW_MINUTES, 20_479);
    assert.match(
      says(handlerAfterWindow.check(seen(undefined, [{ method: 'GET', status: 404 }]))),
      /^answered 404 to the genuine callback as it comes after the retry window \(20479 min\); expected 200/,
    );
  });

  it('a chargeback: not a payment (paid must not grow), and booked (dropped by its amount, once)', () => {
    const notPayment = handlerChargebackNotPayment;
    const booked = handlerChargebackBooked;
    assert.equal(notPayment.check(seen({ before: 2500n, after: 0n })).outcome, 'pass');
    assert.equal(notPayment.check(seen({ before: 2500n, after: 2500n })).outcome, 'pass');
    assert.match(says(notPayment.check(seen({ before: 2500n, after: 5000n }))), /booked as a payment$/);
    assert.equal(says(notPayment.check(seen(undefined))), 'paid not grown: not judged, no --callback-state');
    assert.equal(booked.check(seen({ before: 2500n, after: 0n })).outcome, 'pass');
    assert.match(
      says(booked.check(seen({ before: 2500n, after: 2500n }))),
      /expected 0\.00: the chargeback was ignored$/,
    );
    assert.match(says(booked.check(seen({ before: 2500n, after: -2500n }))), /-25\.00 after; expected 0\.00$/);
    // Grown is the other rule's failure: this one says so instead of failing twice.
    assert.deepEqual(booked.check(seen({ before: 2500n, after: 5000n })), {
      outcome: 'skip',
      reason: 'paid grew: judged by callback-chargeback-not-payment',
    });
    assert.match(
      says(booked.check(seen(undefined, [{ method: 'GET', status: 409 }]))),
      /^answered 409 to the chargeback/,
    );
  });
});
