// The search over compositions on a toy recipe of numbers, where every outcome is worked out by hand, then its time
// on the richest requests payconform ships (vectors/diagnoses.json: every mistake has room there).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { diagnose } from '../../src/rules/diagnose.ts';
import { MAX_DEPTH, searchCompositions, type Live, type SearchSpace } from '../../src/signing/diagnose/search.ts';
import type { DiagnoseInput } from '../../src/signing/diagnose/index.ts';

interface Toy {
  readonly a: number;
  readonly b: number;
  readonly c: number;
  readonly d: number;
}
const op = (id: string, step: string, ...variants: Array<Partial<Toy>>): Live<Toy> => ({
  op: { id, step, scheme: 'control', title: id, explanation: id, fix: id },
  variants,
});
/** The toy's value: a + 10 b + 100 c + 1000 d; the reference (0, 0, 0, 0) gives 0. */
const space = (target: number, operators: Array<Live<Toy>>, viable = (_: Toy) => true): SearchSpace<Toy> => ({
  reference: { a: 0, b: 0, c: 0, d: 0 },
  operators,
  outcome: (t) => String(t.a + 10 * t.b + 100 * t.c + 1000 * t.d),
  viable,
  reproduces: (out) => out === String(target),
});

describe('searchCompositions', () => {
  it('finds one operator alone, and names its step', () => {
    const r = searchCompositions(space(3, [op('a3', 'A', { a: 3 }), op('b1', 'B', { b: 1 })]));
    assert.deepEqual(
      r.found.map((f) => [f.ids, f.steps]),
      [[['a3'], ['A']]],
    );
    assert.deepEqual([r.complete, r.depth], [true, MAX_DEPTH]);
  });

  it('composes operators at different steps, up to three, and no further', () => {
    const ops = [op('a1', 'A', { a: 1 }), op('b1', 'B', { b: 1 }), op('c1', 'C', { c: 1 }), op('d1', 'D', { d: 1 })];
    assert.deepEqual(searchCompositions(space(11, ops)).found[0]?.ids, ['a1', 'b1']);
    assert.deepEqual(searchCompositions(space(111, ops)).found[0]?.ids, ['a1', 'b1', 'c1']);
    assert.deepEqual(searchCompositions(space(1111, ops)).found, []);
  });

  it('never puts two operators of one step together', () => {
    // a2 then a1 at step A would give 3 if they composed; each replaces a, so only a3 does.
    const r = searchCompositions(space(3, [op('a2', 'A', { a: 2 }), op('a1', 'A', { a: 1 })]));
    assert.deepEqual(r.found, []);
  });

  it('tries every variant of an operator, and keeps the first that reproduces', () => {
    const r = searchCompositions(
      space(12, [op('a', 'A', { a: 1 }, { a: 2 }, { a: 2, c: 0 }), op('b1', 'B', { b: 1 })]),
    );
    assert.deepEqual(
      r.found.map((f) => [f.ids, f.recipe]),
      [[['a', 'b1'], { a: 2, b: 1, c: 0, d: 0 }]],
    );
  });

  it('names every smallest composition, and none that holds one already found', () => {
    // 11 is a1 + b1, and c-free d-free; a1 + b1 + z (z changes nothing new) holds it and is not named again.
    const ops = [
      op('a1', 'A', { a: 1 }),
      op('b1', 'B', { b: 1 }),
      op('ab', 'C', { a: 1, b: 1 }),
      op('z', 'D', { d: 0 }),
    ];
    const r = searchCompositions(space(11, ops));
    assert.deepEqual(
      r.found.map((f) => f.ids),
      [['ab'], ['a1', 'b1']],
    );
  });

  it('leaves out an operator that changes nothing, and a variant whose outcome is none', () => {
    let tried = 0;
    const s = space(5, [op('same', 'A', { a: 0 }), op('c5', 'C', { c: 5 })]);
    const counted: SearchSpace<Toy> = {
      ...s,
      outcome: (t) => (t.c === 5 ? undefined : s.outcome(t)),
      reproduces: (out, t) => {
        tried++;
        return s.reproduces(out, t);
      },
    };
    assert.deepEqual(searchCompositions(counted).found, []);
    assert.equal(tried, 0);
  });

  it('computes no outcome for a recipe of the wrong shape, and each outcome once', () => {
    let reproduced = 0;
    const s = space(7, [op('a7', 'A', { a: 7 }), op('b1', 'B', { b: 1 }), op('c1', 'C', { c: 1 })], (t) => t.b === 0);
    const r = searchCompositions({
      ...s,
      reproduces: (out, t) => {
        reproduced++;
        return s.reproduces(out, t);
      },
    });
    assert.deepEqual(
      r.found.map((f) => f.ids),
      [['a7']],
    );
    // a7, c1 alone; a7 + c1 holds a7 (skipped); b1 never viable: two outcomes.
    assert.equal(reproduced, 2);
  });

  it('stops when the budget runs out, and says how deep it got', () => {
    let now = 0;
    const ops = [op('a1', 'A', { a: 1 }), op('b1', 'B', { b: 1 }), op('c1', 'C', { c: 1 })];
    // Each composition costs 10 "ms": the 3 alone take 30, past the budget of 25, so no pair starts.
    const s = space(11, ops);
    const r = searchCompositions(
      {
        ...s,
        reproduces: (out, t) => {
          now += 10;
          return s.reproduces(out, t);
        },
      },
      25,
      () => now,
    );
    assert.deepEqual([r.found, r.complete, r.depth], [[], false, 1]);
    assert.equal(searchCompositions(s, 25, () => 0).found[0]?.ids.join(), 'a1,b1');
  });
});

describe('the search time on the richest shipped requests', () => {
  const file = JSON.parse(readFileSync(new URL('../../vectors/diagnoses.json', import.meta.url), 'utf8')) as {
    vectors: Array<{
      request: DiagnoseInput['request'];
      credentials: { login?: string; merchantControlKey?: string; privateKeyPem?: string };
      given: { control?: string; authorization?: string };
      operation?: string;
      message?: string;
    }>;
  };
  // A value no mistake explains makes the search try every composition: the worst case.
  const unexplained = file.vectors.map((v): DiagnoseInput => ({
    request: v.request,
    credentials: {
      login: v.credentials.login,
      controlKey: v.credentials.merchantControlKey,
      privateKeyPem: v.credentials.privateKeyPem,
    },
    given:
      v.given.control === undefined
        ? { authorization: v.given.authorization?.replace(/oauth_signature="[^"]*"/, 'oauth_signature="QUJD"') }
        : { control: 'f'.repeat(40) },
    ...(v.operation === undefined ? {} : { operation: v.operation }),
    ...(v.message === 'callback' ? { callback: true } : {}),
  }));

  it('stays under 500 ms for each, the budget cutting a search short on a busy machine', (t) => {
    diagnose(unexplained[0]!); // loads and compiles the code once
    let cut = 0;
    const times = unexplained.map((input) => {
      const start = performance.now();
      const d = diagnose(input);
      const ms = performance.now() - start;
      assert.equal(d.verdict, 'invalid');
      if (/time ran out/.test(d.message)) cut++;
      return ms;
    });
    const sorted = [...times].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    const worst = sorted.at(-1)!;
    t.diagnostic(
      `${times.length} searches: median ${median.toFixed(1)} ms, worst ${worst.toFixed(1)} ms, ${cut} cut short`,
    );
    assert.ok(worst < 500, `worst ${worst.toFixed(1)} ms`);
  });

  it('searches a typical request (a sale, a payout with three fields) in full', (t) => {
    const sale: DiagnoseInput = {
      request: {
        url: 'https://gate.example/paynet/api/v2/sale/1001',
        params: [
          ['client_orderid', 'ORD-1'],
          ['amount', '10.00'],
          ['email', 'jane@example.com'],
        ],
      },
      credentials: { controlKey: 'TEST-ONLY-key' },
      given: { control: 'f'.repeat(40) },
    };
    const payout: DiagnoseInput = {
      request: {
        url: 'https://gate.example/paynet/api/v2/payout/1001',
        params: [
          ['client_orderid', 'ORD-1'],
          ['amount', '10.00'],
          ['currency', 'EUR'],
        ],
      },
      credentials: { login: 'merchant', controlKey: 'TEST-ONLY-key' },
      given: {
        authorization:
          'OAuth oauth_consumer_key="merchant", oauth_nonce="n1", oauth_signature_method="HMAC-SHA1", ' +
          'oauth_timestamp="1700000000", oauth_version="1.0", oauth_signature="QUJD"',
      },
    };
    for (const input of [sale, payout]) {
      diagnose(input);
      const start = performance.now();
      const d = diagnose(input);
      t.diagnostic(`${input.request.url}: ${(performance.now() - start).toFixed(1)} ms`);
      assert.match(d.message, /alone and up to 3 together/);
    }
  });
});
