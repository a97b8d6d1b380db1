// The rules a merchant's callback handler is judged by (inspect --callback-checks), straight from the
// book: a hostile callback must be refused (any 4xx or 5xx), a genuine one taken with 200.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CALLBACK_HANDLER_RULES, RULE_BY_ID } from '../../src/rules/book.ts';
import { handlerRefusesForgedControl, handlerTakesGenuine, type HandlerAnswer } from '../../src/rules/callbacks.ts';
import type { Outcome } from '../../src/rules/rule.ts';

const messageOf = (o: Outcome): string => (o.outcome === 'fail' ? o.evidence.message : '');
const get = (status?: number, error?: string): HandlerAnswer => ({ method: 'GET', status, error });

describe('callback handler rules', () => {
  it('are rules of the book, played hostile first, each with a title, clause, basis and fix', () => {
    assert.deepEqual(
      CALLBACK_HANDLER_RULES.map((r) => r.id),
      [
        'callback-forged-control',
        'callback-other-amount',
        'callback-unknown-order',
        'callback-hostile-changes-nothing',
        'callback-duplicate-together',
        'callback-genuine',
        'callback-genuine-again',
        'callback-late-status',
        'callback-chargeback-not-payment',
        'callback-chargeback-booked',
        'callback-after-window',
      ],
    );
    for (const rule of CALLBACK_HANDLER_RULES) {
      const info = RULE_BY_ID.get(rule.id);
      assert.ok(info && info.title && info.hint && /A-31/.test(info.clause), rule.id);
      assert.equal(info.basis, 'assumption');
    }
  });

  it('a forged callback must be refused: 403 and 500 pass; 200, 204 and no answer fail', () => {
    assert.equal(handlerRefusesForgedControl.check(get(403)).outcome, 'pass');
    assert.equal(handlerRefusesForgedControl.check(get(500)).outcome, 'pass');
    assert.equal(handlerRefusesForgedControl.check(get(200)).outcome, 'fail');
    assert.equal(handlerRefusesForgedControl.check(get(204)).outcome, 'fail');
    const silent = handlerRefusesForgedControl.check(get(undefined, 'timeout'));
    assert.match(messageOf(silent), /^no answer \(timeout\) to the GET; expected a refusal \(4xx or 5xx\): /);
  });

  it('a genuine callback must be taken with 200; a refused GET says where the fields are, a POST does not', () => {
    assert.equal(handlerTakesGenuine.check(get(200)).outcome, 'pass');
    assert.match(messageOf(handlerTakesGenuine.check(get(204))), /^answered 204 to the GET; expected 200: [^;]*$/);
    assert.match(messageOf(handlerTakesGenuine.check(get(403))), /; the public API sends callbacks as HTTP GET/);
    const post = handlerTakesGenuine.check({ method: 'POST', status: 403 });
    assert.match(messageOf(post), /^answered 403 to the POST; expected 200: /);
    assert.doesNotMatch(messageOf(post), /HTTP GET/);
  });
});
