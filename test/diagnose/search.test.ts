// The search over compositions on a toy recipe of numbers, where every outcome is worked out by hand.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_DEPTH, searchCompositions, type Live, type SearchSpace } from '../../src/signing/diagnose/search.ts';

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
    // a1 and b1 together would give 11; both are at step A.
    const r = searchCompositions(space(11, [op('a1', 'A', { a: 1 }), op('b1', 'A', { b: 1 })]));
    assert.deepEqual(r.found, []);
  });

  it('names two smallest compositions that share an operator', () => {
    // a1 + b1 and a1 + c (c sets b at another step) both give 11; neither holds the other.
    const ops = [op('a1', 'A', { a: 1 }), op('b1', 'B', { b: 1 }), op('c', 'C', { b: 1, c: 0 })];
    assert.deepEqual(
      searchCompositions(space(11, ops)).found.map((f) => f.ids),
      [
        ['a1', 'b1'],
        ['a1', 'c'],
      ],
    );
  });

  it('asks whether an outcome reproduces the value once, and never for a composition of no outcome', () => {
    let asked = 0;
    // a1 and a1again give the same outcome 1; a1 with b1 has none (undefined), though each alone has one.
    const s = space(5, [op('a1', 'A', { a: 1 }), op('a1again', 'B', { a: 1 }), op('b1', 'C', { b: 1 })]);
    const r = searchCompositions({
      ...s,
      outcome: (t) => (t.a === 1 && t.b === 1 ? undefined : s.outcome(t)),
      reproduces: (out, t) => {
        asked++;
        return s.reproduces(out, t);
      },
    });
    assert.deepEqual(r.found, []);
    // Outcomes met: 1 (a1, a1again, a1 + a1again) and 10 (b1): two questions.
    assert.equal(asked, 2);
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
    // A budget of 0 on a clock that stands still is not yet run out.
    assert.equal(searchCompositions(s, 0, () => 0).complete, true);
  });
});
