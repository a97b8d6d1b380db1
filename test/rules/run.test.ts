// The rule runner on hand-made rules: what a rule is given or why it is skipped (each missing fact in
// words), a broken gateway's replacements, the order of judgements, the first failure, and the rules
// kept for a catalogue row (worked out once per row).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { matchPath, type Endpoint } from '../../src/catalogue/index.ts';
import { testMerchant } from '../../src/gateway/merchants.ts';
import { NonceStore } from '../../src/rules/nonces.ts';
import { RequestUnderTest } from '../../src/rules/request.ts';
import { requestRule } from '../../src/rules/request-rule.ts';
import { fail, PASS, type Fact, type Outcome } from '../../src/rules/rule.ts';
import { firstFailure, judgeRequest, rulesFor, type Bent, type RequestRule } from '../../src/rules/run.ts';

const context = {
  merchants: [testMerchant()], // endpoint 1001
  windowSeconds: 300,
  now: () => 0,
  nonces: new NonceStore(300),
  maxBodyBytes: 1e3,
  explain: false,
};
const req = (path: string, body?: string) =>
  new RequestUnderTest(
    { method: 'POST', url: `http://h${path}`, headers: {}, body: body === undefined ? undefined : Buffer.from(body) },
    context,
  );
const SALE = '/api/v2/sale/1001';
const sale = matchPath(SALE).endpoint;
const payout = matchPath('/api/v2/payout/1001').endpoint;

/** A rule with the given id, outcome, needs and rows; it counts its runs. */
function rule(id: string, outcome: Outcome, needs?: Fact[], to?: (e: Endpoint) => boolean) {
  const made = {
    id,
    title: id,
    clause: 'test',
    basis: 'spec',
    assumptions: [],
    refusals: [],
    hint: 'h',
    ...(needs === undefined ? {} : { needs }), // a rule may name no facts at all
    ...(to === undefined ? {} : { only: { to, otherwise: `not ${id}'s row` } }),
    runs: 0,
    check: () => {
      made.runs += 1;
      return outcome;
    },
  };
  return made as typeof made & RequestRule;
}
const reasons = (judged: { outcome: Outcome }[]) =>
  judged.map(({ outcome }) => (outcome.outcome === 'skip' ? outcome.reason : outcome.outcome));

describe('judgeRequest', () => {
  it('judges every rule in order, skipping one whose fact is missing with the first missing fact in words', () => {
    const rules = [
      rule('a', PASS, ['endpoint']),
      rule('b', fail('b: no'), ['form']),
      rule('c', PASS, ['merchant']),
      rule('d', PASS, ['form', 'endpoint']),
      rule('e', PASS),
    ];
    const judged = judgeRequest(rules, req('/nowhere/1'));
    assert.deepEqual(
      judged.map((j) => j.rule),
      rules,
    );
    assert.deepEqual(reasons(judged), [
      'not reached: the path names no catalogue endpoint',
      'not reached: the body is not a well-formed form',
      "not reached: the endpoint id is no merchant's",
      'not reached: the body is not a well-formed form',
      'pass',
    ]);
    assert.deepEqual(
      rules.map((r) => r.runs),
      [0, 0, 0, 0, 1],
    );
    assert.deepEqual(reasons(judgeRequest(rules, req(SALE, 'a=1'))), ['pass', 'fail', 'pass', 'pass', 'pass']);
  });

  it("runs a broken gateway's replacement, or skips a rule it switched off; other rules are its own", () => {
    const rules = [rule('a', PASS), rule('b', PASS), rule('c', PASS)];
    const bent: Bent = new Map<string, Bent extends ReadonlyMap<string, infer V> ? V : never>([
      ['a', () => fail('a: bent')],
      ['b', 'off'],
    ]);
    const judged = judgeRequest(rules, req(SALE, ''), bent);
    assert.deepEqual(judged[0]?.outcome, { outcome: 'fail', evidence: { message: 'a: bent' } });
    assert.deepEqual(judged[1]?.outcome, { outcome: 'skip', reason: 'switched off (a deliberately broken gateway)' });
    assert.equal(judged[2]?.outcome, PASS);
    assert.deepEqual(
      rules.map((r) => r.runs),
      [0, 0, 1],
    );
  });

  it('a missing fact skips a rule before a replacement is asked', () => {
    const bent: Bent = new Map([['a', () => fail('a: bent')]]);
    assert.deepEqual(reasons(judgeRequest([rule('a', PASS, ['form'])], req(SALE), bent)), [
      'not reached: the body is not a well-formed form',
    ]);
  });
});

describe('rulesFor', () => {
  it('keeps the rules that judge the row (and those for every row), in order, worked out once per row', () => {
    const everywhere = rule('everywhere', PASS);
    const saleOnly = rule('sale-only', PASS, undefined, (e) => e === sale);
    const rules = [saleOnly, everywhere];
    const forSale = rulesFor(rules, sale);
    assert.deepEqual(forSale, [saleOnly, everywhere]);
    assert.deepEqual(rulesFor(rules, payout), [everywhere]);
    assert.equal(rulesFor(rules, sale), forSale, 'the same list again');
    assert.deepEqual(rulesFor([everywhere], sale), [everywhere], 'another book has its own lists');
  });
});

describe('firstFailure', () => {
  it('is the first failing rule and its evidence, later rules not run; undefined where none fails', () => {
    const rules = [rule('a', PASS), rule('b', fail('b: no', { field: 'b' })), rule('c', fail('c: no'))];
    const found = firstFailure(rules, req(SALE, ''));
    assert.equal(found?.rule, rules[1]);
    assert.deepEqual(found?.evidence, { message: 'b: no', field: 'b' });
    assert.equal(rules[2]?.runs, 0);
    assert.equal(firstFailure([rule('a', PASS)], req(SALE, '')), undefined);
  });

  it("runs only the row's rules; with a broken gateway, or no row, every rule", () => {
    const elsewhere = rule('elsewhere', fail('elsewhere: no'), undefined, (e) => e === payout);
    assert.equal(firstFailure([elsewhere], req(SALE, '')), undefined);
    assert.equal(elsewhere.runs, 0);
    assert.equal(firstFailure([elsewhere], req(SALE, ''), new Map())?.rule, elsewhere);
    assert.equal(firstFailure([elsewhere], req('/nowhere/1', ''))?.rule, elsewhere);
  });

  it('skips a rule whose facts are missing instead of failing it', () => {
    assert.equal(firstFailure([rule('a', fail('a: no'), ['merchant'])], req('/api/v2/sale/9', '')), undefined);
  });
});

describe('requestRule', () => {
  const made = requestRule({
    id: 'made',
    title: 't',
    clause: 'c',
    basis: 'spec',
    assumptions: [],
    refusals: [],
    hint: 'h',
    needs: ['endpoint', 'form'],
    only: { to: (e) => e === sale, otherwise: 'not a sale' },
    check: () => fail('made: no'),
  });
  const formOnly = requestRule({
    id: 'form-only',
    title: 't',
    clause: 'c',
    basis: 'spec',
    assumptions: [],
    refusals: [],
    hint: 'h',
    needs: ['form'],
    only: { to: (e) => e === sale, otherwise: 'not a sale' },
    check: () => PASS,
  });

  it('runs its check on its row, skips with its reason elsewhere', () => {
    assert.equal(made.check(req(SALE, 'a=1')).outcome, 'fail');
    assert.deepEqual(made.check(req('/api/v2/payout/1001', 'a=1')), { outcome: 'skip', reason: 'not a sale' });
    assert.equal(formOnly.check(req('/nowhere/1', 'a=1')), PASS, 'no row to judge: its check decides');
  });

  it('called without its facts, throws an internal error naming the rule and every fact it needs', () => {
    assert.throws(() => made.check(req(SALE)), {
      message: 'internal: rule made was run without endpoint, form',
    });
    assert.deepEqual(made.needs, ['endpoint', 'form']);
  });
});
