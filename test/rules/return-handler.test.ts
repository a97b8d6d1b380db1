// The customer-return handler rules on answers written here: a hostile return passes when refused (4xx, 5xx)
// or sent to another page than the genuine return's; it fails on a 2xx, on the genuine return's page (whatever
// order the query names), and on no answer. A genuine return passes on a page or a redirect only.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RETURN_HANDLER_RULES } from '../../src/rules/book.ts';
import { returnRefusesForgedControl, returnTakesGenuine } from '../../src/rules/return-handler.ts';
import type { ReturnAnswer } from '../../src/rules/return-handler.ts';

const genuine: ReturnAnswer = { status: 303, location: '/payment/result?order=A-1' };
const hostile = (answer: ReturnAnswer): string => returnRefusesForgedControl.check({ answer, genuine }).outcome;

describe('return handler rules', () => {
  it('take a refusal or another page for a hostile return', () => {
    assert.equal(hostile({ status: 403 }), 'pass');
    assert.equal(hostile({ status: 500 }), 'pass');
    assert.equal(hostile({ status: 303, location: '/payment/failed' }), 'pass');
    assert.equal(hostile({ status: 302, location: 'https://elsewhere.example/payment/result?order=A-1' }), 'pass');
  });

  it("fail a hostile return answered 2xx, sent to the genuine return's page, or not answered", () => {
    assert.equal(hostile({ status: 200 }), 'fail');
    assert.equal(hostile({ status: 303, location: '/payment/result?order=A-1' }), 'fail');
    assert.equal(hostile({ status: 303, location: '/payment/result?order=SOMEONE-ELSE' }), 'fail');
    assert.equal(hostile({ error: 'timeout' }), 'fail');
  });

  it('take a genuine return shown a page or sent on, and fail it refused or unanswered', () => {
    const judged = (answer: ReturnAnswer): string => returnTakesGenuine.check({ answer }).outcome;
    assert.deepEqual(
      [200, 303, 302].map((status) => judged({ status })),
      ['pass', 'pass', 'pass'],
    );
    assert.deepEqual(
      [403, 404, 500].map((status) => judged({ status })),
      ['fail', 'fail', 'fail'],
    );
    assert.equal(judged({ error: 'ECONNREFUSED' }), 'fail');
  });

  it('rest on A-45 with the Final Redirect page in the clause, hostile ones first', () => {
    for (const rule of RETURN_HANDLER_RULES) {
      assert.deepEqual(rule.assumptions, ['A-45']);
      assert.match(rule.clause, /https:\/\/doc2\.payneteasy\.com\/integration\/API_commands\/final_redirect\.html/);
    }
    assert.deepEqual(
      RETURN_HANDLER_RULES.map((r) => r.id),
      [
        'return-forged-control',
        'return-other-status',
        'return-unknown-order',
        'return-genuine',
        'return-genuine-again',
      ],
    );
  });
});
