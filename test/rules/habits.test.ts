// The habits only inspect judges, on requests written by hand: a client order id starts one
// order per merchant, a resend needs a status request in between, and what each request adds to the
// history. Each rule says its exact words and why it does not apply.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { OP } from '../../src/catalogue/index.ts';
import { testMerchant } from '../../src/gateway/merchants.ts';
import { noBlindRetry, orderIdUnique, recordHabits, startsOrder } from '../../src/rules/habits.ts';
import { OrderHistory } from '../../src/rules/history.ts';
import { NonceStore } from '../../src/rules/nonces.ts';
import { RequestUnderTest } from '../../src/rules/request.ts';
import { judgeRequest } from '../../src/rules/run.ts';
import { evidence, reason } from './outcomes.ts';

const merchant = testMerchant();
const other = { ...merchant, login: 'other-merchant', endpointIds: ['1002'], endpointGroupIds: [] };
const url = (operation: string, id = '1001') => `http://h/paynet/api/v2/${operation}/${id}`;

/** A history that also lists what it was told, in order. */
class Recording extends OrderHistory {
  readonly told: string[] = [];
  override start(login: string, id: string, payment?: string): void {
    this.told.push(`start ${login} ${id}${payment === undefined ? '' : ' with a payment'}`);
    super.start(login, id, payment);
  }
  override statusAsked(login: string, id: string): void {
    this.told.push(`status ${login} ${id}`);
    super.statusAsked(login, id);
  }
}

function request(target: string, body: string | undefined, history: OrderHistory | undefined): RequestUnderTest {
  return new RequestUnderTest(
    { method: 'POST', url: target, headers: {}, body: body === undefined ? undefined : Buffer.from(body) },
    {
      merchants: [merchant, other],
      windowSeconds: 300,
      now: () => 0,
      nonces: new NonceStore(300),
      maxBodyBytes: 1024,
      explain: false,
      history,
    },
  );
}

describe('startsOrder (A-30)', () => {
  it('is true where the operation acts on no earlier order, or on a card reference; false on an order id', () => {
    for (const op of [OP.SALE, OP.PREAUTH, OP.PAYOUT, OP.REBILL, OP.CARDREF_V4])
      assert.equal(startsOrder(op), true, op);
    for (const op of [OP.CAPTURE, OP.STATUS, OP.VOID, OP.RETURN, OP.CARDREF]) assert.equal(startsOrder(op), false, op);
  });
});

describe('order-id-unique and no-blind-retry', () => {
  it('pass the first start of a client order id', () => {
    for (const rule of [orderIdUnique, noBlindRetry])
      assert.equal(rule.check(request(url('sale'), 'client_orderid=A-1', new OrderHistory())).outcome, 'pass');
  });

  it('fail a second start of the same id by the same merchant, naming it cut to 40 characters', () => {
    const history = new OrderHistory();
    const id = `A-${'9'.repeat(50)}`;
    history.start(merchant.login, id);
    assert.deepEqual(evidence(orderIdUnique.check(request(url('sale'), `client_orderid=${id}`, history))), {
      message: `client order id "${id.slice(0, 40)}" was already used by this merchant`,
      field: 'client_orderid',
    });
    assert.deepEqual(evidence(noBlindRetry.check(request(url('sale'), `client_orderid=${id}`, history))), {
      message: 'sent again with no status request for the order in between',
      field: 'client_orderid',
    });
    // Another merchant's ids are its own.
    assert.equal(orderIdUnique.check(request(url('sale', '1002'), `client_orderid=${id}`, history)).outcome, 'pass');
  });

  it('no-blind-retry passes a resend after a status request for the order', () => {
    const history = new OrderHistory();
    history.start(merchant.login, 'A-2');
    history.statusAsked(merchant.login, 'A-2');
    assert.equal(noBlindRetry.check(request(url('sale'), 'client_orderid=A-2', history)).outcome, 'pass');
    assert.equal(orderIdUnique.check(request(url('sale'), 'client_orderid=A-2', history)).outcome, 'fail');
  });

  it('say why they do not apply: no history, no client order id, an operation on an existing order', () => {
    const history = new OrderHistory();
    history.start(merchant.login, 'A-3');
    for (const rule of [orderIdUnique, noBlindRetry]) {
      assert.equal(
        reason(rule.check(request(url('sale'), 'client_orderid=A-3', undefined))),
        'no request history is kept here',
      );
      assert.equal(reason(rule.check(request(url('sale'), 'amount=1.00', history))), 'no client order id');
    }
    assert.equal(
      reason(orderIdUnique.check(request(url('capture'), 'client_orderid=A-3', history))),
      'the operation acts on an existing order',
    );
    assert.equal(
      reason(noBlindRetry.check(request(url('status'), 'client_orderid=A-3', history))),
      'a status request only reads the order: it may be sent again at any time',
    );
  });

  it('need the endpoint, the form and the merchant: the runner skips them without one, a direct call says so', () => {
    const history = new OrderHistory();
    const cases: Array<[RequestUnderTest, string]> = [
      [
        request('http://h/paynet/nowhere/1001', 'client_orderid=A-4', history),
        'not reached: the path names no catalogue endpoint',
      ],
      [request(url('sale'), undefined, history), 'not reached: the body is not a well-formed form'],
      [request(url('sale', '1003'), 'client_orderid=A-4', history), "not reached: the endpoint id is no merchant's"],
    ];
    for (const rule of [orderIdUnique, noBlindRetry])
      for (const [req, why] of cases) {
        assert.equal(reason(judgeRequest([rule], req)[0]!.outcome), why, `${rule.id}: ${why}`);
        assert.throws(() => rule.check(req), {
          message: `internal: rule ${rule.id} was run without endpoint, form, merchant`,
        });
      }
  });
});

describe('recordHabits', () => {
  it('records a start, and a status request for the order, under the merchant', () => {
    const history = new Recording();
    recordHabits(request(url('sale'), 'client_orderid=A-5', history));
    recordHabits(request(url('status'), 'client_orderid=A-5', history));
    recordHabits(request(url('capture'), 'client_orderid=A-5', history));
    assert.deepEqual(history.told, [`start ${merchant.login} A-5`, `status ${merchant.login} A-5`]);
    assert.deepEqual(history.earlier(merchant.login, 'A-5'), { statusSince: true, made: false, told: false });
  });

  it('records nothing without a history, a client order id, an endpoint or a merchant', () => {
    recordHabits(request(url('sale'), 'client_orderid=A-6', undefined));
    const history = new Recording();
    recordHabits(request(url('sale'), 'amount=1.00', history));
    recordHabits(request('http://h/paynet/nowhere/1001', 'client_orderid=A-6', history));
    recordHabits(request(url('sale', '1003'), 'client_orderid=A-6', history));
    assert.deepEqual(history.told, []);
  });
});
