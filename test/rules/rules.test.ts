// The rule book: every rule well described, and every rule seen failing once and passing once. The
// request rules are judged on requests payconform's own client builds, each with one mistake made
// by hand; the order and answer rules on states and answers written here.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { endpointByOperation, OP, type Operation } from '../../src/catalogue/index.ts';
import { buildRequest, type SentRequest } from '../../src/client/client.ts';
import { PayconformError } from '../../src/errors.ts';
import { DEFECTS } from '../../src/mock/defects.ts';
import { MockError, refusal } from '../../src/mock/mock-error.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';
import {
  ANSWER_RULES,
  CALLBACK_RULES,
  EXPECTATION_RULES,
  ORDER_RULES,
  REQUEST_RULES,
  RULE_BY_ID,
  RULES,
  rulesRefusingWith,
  type RequestRuleId,
} from '../../src/rules/book.ts';
import { createHash } from 'node:crypto';
import { recordAnswer, recordHabits } from '../../src/rules/habits.ts';
import { OrderHistory, type AnswerOutcome } from '../../src/rules/history.ts';
import { NonceStore } from '../../src/rules/nonces.ts';
import type { OrderState } from '../../src/rules/orders.ts';
import { RequestUnderTest, type RuleContext } from '../../src/rules/request.ts';
import { judgeRequest } from '../../src/rules/run.ts';
import { answerFailure, judgeAnswer } from '../../src/rules/judge-answer.ts';
import { sampleRequest } from '../../src/schemas/index.ts';
import type { Pair } from '../../src/signing/form-body.ts';

const merchant = testMerchant();
const credentials = {
  login: merchant.login,
  controlKey: merchant.merchantControlKey,
  privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
};
const BASE = 'http://127.0.0.1:8080/paynet';
const NOW = 1_700_000_000_000;
let serial = 0;

function build(
  operation: Operation,
  overrides: Pair[] = [],
  options: Parameters<typeof buildRequest>[3] = {},
): SentRequest {
  const endpoint = endpointByOperation(operation);
  const idField = endpoint.version === 'v4' || operation.startsWith('TDS_') ? 'client-order-id' : 'client_orderid';
  return buildRequest(
    endpoint,
    { baseUrl: BASE, credentials, endpointId: '1001' },
    sampleRequest(endpoint, [[idField, `RB-${++serial}`], ...overrides]),
    { unsigned: endpoint.auth.kind === 'unstated', timestamp: String(NOW / 1000), ...options },
  );
}

function context(prefix?: string): RuleContext {
  return {
    merchants: [merchant],
    windowSeconds: 300,
    now: () => NOW,
    nonces: new NonceStore(300),
    prefix,
    maxBodyBytes: 64 * 1024,
    explain: true,
    history: new OrderHistory(),
  };
}

type Seen = {
  r: SentRequest;
  body?: Buffer;
  method?: string;
  headers?: Record<string, string | undefined>;
  url?: string;
  /** How its exchange ended, as the listener tells inspect (the habits of A-58 read it). */
  answer?: AnswerOutcome;
};

/** The rules that fail, in order, for each request sent through one context. */
function failing(ctx: RuleContext, ...seen: Seen[]): RequestRuleId[] {
  let ids: RequestRuleId[] = [];
  for (const s of seen) {
    const req = new RequestUnderTest(
      {
        method: s.method ?? 'POST',
        url: s.url ?? s.r.url,
        headers: s.headers ?? s.r.headers,
        body: s.body ?? Buffer.from(s.r.body),
      },
      ctx,
    );
    ids = judgeRequest(REQUEST_RULES, req)
      .filter((j) => j.outcome.outcome === 'fail')
      .map((j) => j.rule.id);
    recordHabits(req);
    if (s.answer) recordAnswer(req, s.answer);
  }
  return ids;
}

const without = (body: string, name: string): Buffer =>
  Buffer.from(
    body
      .split('&')
      .filter((p) => !p.startsWith(`${name}=`))
      .join('&'),
  );

/** One request per request rule that breaks that rule (and what else breaks with it). */
const MISTAKES: Record<RequestRuleId, () => Seen[]> = {
  'method-post': () => [{ r: build(OP.SALE), method: 'GET' }],
  'endpoint-known': () => {
    const r = build(OP.SALE);
    return [{ r, url: r.url.replace('/sale/', '/sell/') }];
  },
  'accept-header': () => {
    const r = build(OP.SALE);
    return [{ r, headers: { ...r.headers, accept: 'application/json' } }];
  },
  'content-type': () => {
    const r = build(OP.SALE);
    return [{ r, headers: { ...r.headers, 'content-type': 'text/plain' } }];
  },
  'no-control-key-in-request': () => [{ r: build(OP.SALE, [['merchant_control', merchant.merchantControlKey]]) }],
  'body-size': () => [{ r: build(OP.SALE, [['comment', 'x'.repeat(70_000)]]) }],
  'form-encoding': () => [{ r: build(OP.SALE), body: Buffer.from('amount=%zz') }],
  'encoded-once': () => {
    const r = build(OP.SALE, [['order_desc', 'a b']]);
    return [{ r, body: Buffer.from(r.body.replace('order_desc=a%20b', 'order_desc=a%2520b')) }];
  },
  'endpoint-owner': () => [{ r: build(OP.SALE, [], { endpointId: '999' }) }],
  'control-present': () => {
    const r = build(OP.SALE);
    return [{ r, body: without(r.body, 'control') }];
  },
  'control-format': () => {
    const r = build(OP.SALE);
    return [
      {
        r,
        body: Buffer.from(r.body.replace(/control=([0-9a-f]{40})/, (_, c: string) => `control=${c.toUpperCase()}`)),
      },
    ];
  },
  'control-signature': () => {
    const r = build(OP.SALE);
    return [{ r, body: Buffer.from(r.body.replace(/amount=[^&]*/, 'amount=10.01')) }];
  },
  'oauth-header-present': () => [{ r: build(OP.PAYOUT, [], { unsigned: true }) }],
  'oauth-header-format': () => {
    const r = build(OP.PAYOUT);
    return [{ r, headers: { ...r.headers, authorization: 'OAuth oauth_consumer_key' } }];
  },
  'oauth-body-consistent': () => [
    { r: build(OP.PAYOUT), body: Buffer.from(`${build(OP.PAYOUT).body}&oauth_nonce=other`) },
  ],
  'consumer-key-known': () => {
    const r = build(OP.PAYOUT);
    return [
      {
        r,
        headers: {
          ...r.headers,
          authorization: r.headers.authorization!.replace(
            `oauth_consumer_key="${merchant.login}"`,
            'oauth_consumer_key="someone-else"',
          ),
        },
      },
    ];
  },
  'signature-method': () => {
    const r = build(OP.PAYOUT);
    return [
      { r, headers: { ...r.headers, authorization: r.headers.authorization!.replace('HMAC-SHA1', 'PLAINTEXT') } },
    ];
  },
  'oauth-version': () => {
    const r = build(OP.PAYOUT);
    return [
      {
        r,
        headers: {
          ...r.headers,
          authorization: r.headers.authorization!.replace('oauth_version="1.0"', 'oauth_version="2.0"'),
        },
      },
    ];
  },
  'oauth-timestamp-window': () => [{ r: build(OP.PAYOUT, [], { timestamp: String(NOW / 1000 - 301) }) }],
  'oauth-signature': () => {
    const r = build(OP.PAYOUT_V4);
    return [{ r, body: Buffer.from(r.body.replace(/amount=[^&]*/, 'amount=99')) }];
  },
  'nonce-unique': () => {
    const r = build(OP.PAYOUT, [], { nonce: 'n-1' });
    return [{ r }, { r: build(OP.PAYOUT, [], { nonce: 'n-1' }) }];
  },
  'no-oauth-in-body': () => [{ r: build(OP.PAYOUT_V4, [['oauth_version', '1.0']]) }],
  'login-of-merchant': () => [{ r: build(OP.STATUS, [['login', 'someone-else']]) }],
  'required-fields': () => [{ r: build(OP.PAYOUT_V4, [['expire_month', '13']]) }],
  'merchant-urls': () => [{ r: build(OP.SALE, [['notify_url', 'not a url']]) }],
  'amount-format': () => [{ r: build(OP.PAYOUT, [['amount', '1e3']]) }],
  'card-data-where-asked': () => [{ r: build(OP.SALEFORM, [['cvv2', '123']]) }],
  'order-id-unique': () => [
    { r: build(OP.SALE, [['client_orderid', 'SAME']]) },
    { r: build(OP.SALE, [['client_orderid', 'SAME']]) },
  ],
  'no-blind-retry': () => [
    { r: build(OP.SALE, [['client_orderid', 'AGAIN']]) },
    { r: build(OP.SALE, [['client_orderid', 'AGAIN']]) },
  ],
  'no-new-order-while-unknown': () => [
    { r: build(OP.SALE, [['client_orderid', 'FIRST']]), answer: { kind: 'lost', fault: 'timeout' } },
    { r: build(OP.SALE, [['client_orderid', 'SECOND']]) },
  ],
};

describe('the rule book', () => {
  it('gives every rule a unique id, a clause, a basis, a hint, and refusals with UPPER_SNAKE codes', () => {
    assert.equal(new Set(RULES.map((r) => r.id)).size, RULES.length);
    for (const rule of RULES) {
      assert.match(rule.id, /^[a-z0-9]+(-[a-z0-9]+)*$/, rule.id);
      assert.ok(rule.clause.length > 3 && rule.hint.length > 10 && rule.title.length > 2, rule.id);
      assert.ok(rule.basis === 'spec' || rule.basis === 'assumption', rule.id);
      // A rule that rests on an assumption names it; the mock's own statuses are A-21.
      if (rule.basis === 'assumption')
        assert.match(rule.clause, /A-[0-9]+/, `${rule.id} rests on an assumption and must name its id`);
      for (const { status, code } of rule.refusals) {
        assert.match(code, /^[A-Z][A-Z_]+$/, rule.id);
        assert.ok([400, 403, 404, 405, 406, 413, 415].includes(status), `${rule.id}: ${status}`);
      }
    }
  });

  it('names, for every error code, the rules that refuse with it', () => {
    assert.deepEqual(
      rulesRefusingWith('CONTROL_INVALID').map((r) => r.id),
      ['control-signature'],
    );
    assert.deepEqual(
      rulesRefusingWith('FIELD_MISSING')
        .map((r) => r.id)
        .sort(),
      ['control-signature', 'oauth-signature', 'required-fields'],
    );
    assert.deepEqual(rulesRefusingWith('NO_SUCH_CODE'), []);
  });

  it("turns a failed rule into a refusal of the one error root, with the rule's status and code", () => {
    const accept = REQUEST_RULES.find((r) => r.id === 'accept-header')!;
    const err = refusal(accept, { message: 'accept: must be application/vnd.pay+json', field: 'accept' });
    assert.ok(err instanceof PayconformError && err instanceof MockError);
    assert.deepEqual(
      [err.name, err.status, err.code, err.field, err.message],
      ['MockError', 406, 'NOT_ACCEPTABLE', 'accept', 'accept: must be application/vnd.pay+json'],
    );
    const fields = REQUEST_RULES.find((r) => r.id === 'required-fields')!;
    assert.equal(refusal(fields, { message: 'x: must appear once', code: 'FIELD_DUPLICATE' }).code, 'FIELD_DUPLICATE');
  });

  it('lets every defect break rules that exist, each by id', () => {
    for (const [name, spec] of Object.entries(DEFECTS)) {
      assert.ok(spec.breaks.length > 0, name);
      for (const id of spec.breaks) assert.ok(RULE_BY_ID.has(id), `${name} breaks ${id}`);
      for (const id of Object.keys('bent' in spec ? spec.bent : {}))
        assert.ok((spec.breaks as readonly string[]).includes(id), `${name} bends ${id} without breaking it`);
    }
  });
});

describe('request rules', () => {
  it('pass a correct request of every kind of scheme', () => {
    for (const op of [OP.SALE, OP.STATUS, OP.PAYOUT, OP.PAYOUT_V4, OP.CARDINFO, OP.TDS_UPLOAD_CRES_RESULT])
      assert.deepEqual(failing(context('/paynet'), { r: build(op) }), [], op);
  });

  it('has a mistake for every request rule (a new rule comes with the request that breaks it)', () => {
    assert.deepEqual(Object.keys(MISTAKES).sort(), REQUEST_RULES.map((r) => r.id).sort());
  });

  for (const rule of REQUEST_RULES) {
    it(`${rule.id} fails on its mistake`, () => {
      const ids = failing(context(), ...MISTAKES[rule.id]());
      assert.ok(ids.includes(rule.id), `${rule.id} did not fail; failed: ${ids.join(', ') || 'none'}`);
    });
  }

  it('endpoint-owner takes a group id exactly where the public page lists a group URL (A-3), in either URL form', () => {
    // The test merchant's group is 2001. status, capture and return: their pages list …/group/ENDPOINTGROUPID.
    for (const op of [OP.STATUS, OP.CAPTURE, OP.RETURN, OP.SALE]) {
      for (const groupUrl of [true, false])
        assert.deepEqual(
          failing(context('/paynet'), { r: build(op, [], { endpointId: '2001', groupUrl }) }),
          [],
          `${op} ${groupUrl}`,
        );
    }
    // create-recurring-payment and pan-eligibility/send: their pages list …/ENDPOINTID only.
    for (const op of [OP.CREATE_RP_V4, OP.PAN_ELIGIBILITY_SEND]) {
      for (const groupUrl of [true, false])
        assert.deepEqual(
          failing(context('/paynet'), { r: build(op, [], { endpointId: '2001', groupUrl }) }),
          ['endpoint-owner'],
          `${op} ${groupUrl}`,
        );
    }
    // In the group URL form the id must be a group id: the endpoint id 1001 is none.
    assert.deepEqual(failing(context('/paynet'), { r: build(OP.STATUS, [], { groupUrl: true }) }), ['endpoint-owner']);
  });

  it('endpoint-known refuses another prefix when the gateway serves under one, and accepts any when it does not say', () => {
    const r = build(OP.SALE);
    const other = { r, url: r.url.replace('/paynet/', '/other/') };
    assert.deepEqual(failing(context('/paynet'), other), ['endpoint-known']);
    assert.deepEqual(
      failing(context(), { r, url: r.url.replace('/paynet/', '/other/') }).includes('endpoint-known'),
      false,
    );
  });
});

const order = (o: Partial<OrderState>): OrderState => ({
  operation: OP.PREAUTH,
  finalStatus: 'approved',
  awaiting3ds: false,
  awaitingCheckout: false,
  voided: false,
  amountCents: 1000n,
  capturedCents: 0n,
  returnedCents: 0n,
  ...o,
});

describe('order rules', () => {
  const rule = (id: string) => ORDER_RULES.find((r) => r.id === id)! as { check(input: unknown): { outcome: string } };
  const cases: Array<[string, unknown, unknown]> = [
    // [rule, an input it fails, an input it passes]
    ['order-known', { order: undefined }, { order: order({}) }],
    ['reference-known', { field: 'cardrefid', found: false }, { field: 'cardrefid', found: true }],
    [
      'card-ref-of-approved-card',
      { parent: order({ finalStatus: 'declined' }), hasCard: true },
      { parent: order({}), hasCard: true },
    ],
    [
      '3ds-step-pending',
      { operation: OP.TDS_UPLOAD_PARES_RESULT, parent: order({}) },
      { operation: OP.TDS_UPLOAD_PARES_RESULT, parent: order({ awaiting3ds: true }) },
    ],
    [
      'order-not-voided',
      { operation: OP.CAPTURE, parent: order({ voided: true }) },
      { operation: OP.CAPTURE, parent: order({}) },
    ],
    [
      'order-fits-operation',
      { operation: OP.CAPTURE, parent: order({ operation: OP.SALE }) },
      { operation: OP.CAPTURE, parent: order({}) },
    ],
    [
      'void-before-settlement',
      { operation: OP.VOID, parent: order({ capturedCents: 1n }) },
      { operation: OP.VOID, parent: order({}) },
    ],
    [
      'order-approved',
      { operation: OP.VOID, parent: order({ finalStatus: 'processing' }) },
      { operation: OP.VOID, parent: order({}) },
    ],
    [
      'capture-within-authorised',
      { operation: OP.CAPTURE, parent: order({ capturedCents: 600n }), amountCents: 401n },
      { operation: OP.CAPTURE, parent: order({ capturedCents: 600n }), amountCents: 400n },
    ],
    [
      'pay-once',
      { operation: OP.PAYOUT_V4_PAY, parent: order({ operation: OP.PAYOUT_V4_CHECK, capturedCents: 1000n }) },
      { operation: OP.PAYOUT_V4_PAY, parent: order({ operation: OP.PAYOUT_V4_CHECK }) },
    ],
    [
      'return-within-paid',
      { operation: OP.RETURN, parent: order({ operation: OP.SALE, returnedCents: 900n }), amountCents: 101n },
      { operation: OP.RETURN, parent: order({ operation: OP.SALE, returnedCents: 900n }), amountCents: 100n },
    ],
  ];
  it('has a case for every order rule', () =>
    assert.deepEqual(cases.map(([id]) => id).sort(), ORDER_RULES.map((r) => r.id).sort()));
  for (const [id, bad, good] of cases) {
    it(`${id} fails and passes`, () => {
      assert.equal(rule(id).check(bad).outcome, 'fail');
      assert.equal(rule(id).check(good).outcome, 'pass');
    });
  }
});

describe('answer rules', () => {
  const refusalBody = {
    type: 'validation-error',
    'serial-number': 'S-1',
    'error-message': 'amount: missing',
    'error-code': 'FIELD_MISSING',
  };
  const answer = {
    status: 200,
    contentType: 'application/vnd.pay+json; charset=utf-8',
    text: '{"status":"approved"}',
    controlKey: 'K-123456',
  };
  const cases: Array<[string, unknown, unknown]> = [
    ['answer-media-type', { ...answer, contentType: 'application/json' }, answer],
    ['answer-json-body', { ...answer, readAs: 'json', text: '{"status":' }, { ...answer, readAs: 'json' }],
    [
      'other-status-answer',
      { ...answer, status: 403, contentType: 'text/html' },
      { ...answer, status: 403, readAs: 'json', text: '{"type":"error"}' },
    ],
    // Which status a refused request gets is A-21's: any 4xx (400, the OAuth 403), never a 500.
    [
      'validation-error-status',
      { ...answer, status: 500, refusalExpected: true },
      { ...answer, status: 403, refusalExpected: true },
    ],
    ['no-control-key-in-answer', { ...answer, text: 'wrong key K-123456' }, answer],
    // 4111 1111 1111 1111 passes the Luhn check: a full card number.
    [
      'no-full-pan-in-answer',
      { ...answer, text: 'card 4111111111111111' },
      { ...answer, text: 'card 411111******1111' },
    ],
    // The request sent cvv2=123: echoed as the CVV it fails; the same digits as an amount do not.
    [
      'no-cvv-in-answer',
      { ...answer, sentCvvs: ['123'], text: '{"error-message":"cvv2=123 does not match"}' },
      { ...answer, sentCvvs: ['123'], text: '{"amount":"123","error-message":"cvv2 does not match"}' },
    ],
    // An error answer without the fields A-17 gives it (type, error-message), and one with a field of its own.
    [
      'answer-schema',
      { ...answer, status: 400, schema: 'ValidationErrorResponse', body: {} },
      { ...answer, status: 400, schema: 'ValidationErrorResponse', body: refusalBody },
    ],
    [
      'answer-fields-known',
      { ...answer, status: 400, schema: 'ValidationErrorResponse', body: { ...refusalBody, colour: 'red' } },
      { ...answer, status: 400, schema: 'ValidationErrorResponse', body: refusalBody },
    ],
    ['order-kept', { ...answer, orderStatus: 'unknown' }, { ...answer, orderStatus: 'approved' }],
  ];
  it('has a case for every answer rule', () =>
    assert.deepEqual(cases.map(([id]) => id).sort(), ANSWER_RULES.map((r) => r.id).sort()));
  for (const [id, bad, good] of cases) {
    it(`${id} fails and passes`, () => {
      const rule = ANSWER_RULES.find((r) => r.id === id)! as { check(input: unknown): { outcome: string } };
      assert.equal(rule.check(bad).outcome, 'fail');
      assert.equal(rule.check(good).outcome, 'pass');
    });
  }
});

describe('the leak rules look in the headers too', () => {
  const clean = { status: 400, contentType: 'application/vnd.pay+json', text: '{}', controlKey: 'K-123456' };
  const failing = (headers: Record<string, string>, sentCvvs: string[] = []): string[] =>
    judgeAnswer({ ...clean, headers, sentCvvs }).map((f) => f.rule.id);
  it('fails the control key, a full card number or the sent CVV echoed in a header, each under its rule', () => {
    assert.deepEqual(failing({ 'x-debug': 'expected key K-123456' }), ['no-control-key-in-answer']);
    assert.deepEqual(failing({ 'x-card': '4111 1111 1111 1111' }), ['no-full-pan-in-answer']);
    assert.deepEqual(failing({ 'x-cvv2': '123' }, ['123']), ['no-cvv-in-answer']);
    assert.deepEqual(failing({ 'x-check': 'cvv2=123' }, ['123']), ['no-cvv-in-answer']);
  });
  it('passes identifier headers, masked numbers and digits that are not the CVV sent', () => {
    // 4111111111111111 as a request id is an identifier, as in the body.
    assert.deepEqual(failing({ 'x-request-id': '4111111111111111', 'x-card': '411111******1111' }), []);
    assert.deepEqual(failing({ 'x-cvv2': '456', 'content-length': '123' }, ['123']), []);
  });
});

describe('judgeAnswer: one runner of every answer rule', () => {
  const seen = { status: 200, contentType: 'application/vnd.pay+json', text: '{}' };
  it('runs each rule once, in book order, and only those that fail are found', () => {
    const leak = {
      ...seen,
      status: 403,
      contentType: 'text/html',
      text: 'key K-1 card 4111111111111111',
      controlKey: 'K-1',
    };
    assert.deepEqual(
      judgeAnswer(leak).map((f) => f.rule.id),
      ['other-status-answer', 'no-control-key-in-answer', 'no-full-pan-in-answer'],
    );
    assert.deepEqual(judgeAnswer(seen), []);
  });
  it('judges what only a step knows when it is given: a refusal expected, the order status read', () => {
    assert.equal(
      answerFailure({ ...seen, status: 500, refusalExpected: true }, 'validation-error-status')?.actual,
      '500',
    );
    assert.equal(answerFailure({ ...seen, status: 500 }, 'validation-error-status'), undefined);
    assert.ok(answerFailure({ ...seen, orderStatus: 'unknown' }, 'order-kept'));
  });
});

describe('expectation rules (what the steps expect; the book gives a miss its severity)', () => {
  for (const rule of EXPECTATION_RULES)
    it(`${rule.id} compares what came with what would do`, () => {
      assert.equal(rule.check({ what: 'x', expected: ['a', 'b'], actual: 'b' }).outcome, 'pass');
      assert.equal(rule.check({ what: 'x', expected: ['a'], actual: 'c' }).outcome, 'fail');
      assert.equal(rule.check({ what: 'x', expected: ['a'], actual: undefined }).outcome, 'fail');
      // No value expected in particular: any value does, none does not.
      assert.equal(rule.check({ what: 'x', expected: [], actual: 'c' }).outcome, 'pass');
      assert.equal(rule.check({ what: 'x', expected: [], actual: undefined }).outcome, 'fail');
    });
});

describe('callback rules', () => {
  // The genuine callback's control, hashed here by hand: SHA-1(status + orderid + client_orderid + key).
  const key = 'K-123456';
  const control = createHash('sha1').update(`approved100000777ORD-9${key}`).digest('hex');
  const pairs: Pair[] = [
    ['orderid', '100000777'],
    ['merchant_order', 'ORD-9'],
    ['client_orderid', 'ORD-9'],
    ['amount', '10.00'],
    ['status', 'approved'],
    ['type', 'sale'],
    ['control', control],
  ];
  const withAmount = createHash('sha1').update(`approved100000777ORD-910.00${key}`).digest('hex');
  const cases: Array<[string, unknown, unknown]> = [
    [
      'callback-signed',
      { pairs: pairs.map(([n, v]) => [n, n === 'control' ? withAmount : v]), controlKey: key },
      { pairs, controlKey: key },
    ],
    ['callback-retried', { answers: [503] }, { answers: [503, 200] }],
    ['callback-method', { method: 'POST', expected: 'GET' }, { method: 'GET', expected: 'GET' }],
  ];
  it('has a case for every callback rule', () =>
    assert.deepEqual(cases.map(([id]) => id).sort(), CALLBACK_RULES.map((r) => r.id).sort()));
  for (const [id, bad, good] of cases) {
    it(`${id} fails and passes`, () => {
      const rule = CALLBACK_RULES.find((r) => r.id === id)! as { check(input: unknown): { outcome: string } };
      assert.equal(rule.check(bad).outcome, 'fail');
      assert.equal(rule.check(good).outcome, 'pass');
    });
  }
  it('a callback without control or a formula field fails; a taken first callback needs no retry', () => {
    const signed = CALLBACK_RULES[0];
    assert.equal(signed.check({ pairs: pairs.filter(([n]) => n !== 'control'), controlKey: key }).outcome, 'fail');
    assert.equal(signed.check({ pairs: pairs.filter(([n]) => n !== 'status'), controlKey: key }).outcome, 'fail');
    assert.equal(signed.check({ pairs, controlKey: undefined }).outcome, 'skip');
    assert.equal(CALLBACK_RULES[1].check({ answers: [200] }).outcome, 'skip');
    // The public gateways take 200 only: a 204 is retried like a 503.
    assert.equal(CALLBACK_RULES[1].check({ answers: [204] }).outcome, 'fail');
  });

  it('callback-method: a POST where GET is due says the public API sends GET with the fields in the query', () => {
    const wrong = CALLBACK_RULES[2].check({ method: 'POST', expected: 'GET' });
    assert.equal(
      wrong.outcome === 'fail' && wrong.evidence.message,
      'callback: came by POST, expected GET (the public API sends callbacks as GET with the fields in the query string)',
    );
    assert.equal(CALLBACK_RULES[2].check({ method: 'GET', expected: 'POST' }).outcome, 'fail');
    assert.equal(CALLBACK_RULES[2].check({ method: 'POST', expected: 'POST' }).outcome, 'pass');
  });
});
