/**
 * Formula fields left out together (issue 43 item 5): on random operations with random values, a control signed with
 * a random set of one to three formula fields left out is diagnosed as exactly that set (missing-field for one,
 * missing-fields for two or three), or as an ambiguous diagnosis among whose compositions that set is. Every control
 * is SHA-1 over a concatenation written out here from api-spec.md's formulas: no code of src/signing makes it.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { matchPath } from '../../src/catalogue/index.ts';
import { diagnoseSent } from '../../src/signing/diagnose/diagnose.ts';
import type { Pair } from '../../src/signing/form-body.ts';
import { fcParams } from '../seed.ts';

/** The formulas of api-spec.md's table, by the path's operation segment; amount in cents. */
const FORMULAS: Record<string, readonly string[]> = {
  sale: ['endpointId', 'client_orderid', 'amount', 'email'],
  capture: ['login', 'client_orderid', 'orderid', 'amount', 'currency'],
  status: ['login', 'client_orderid', 'orderid'],
  'make-rebill': ['login', 'client_orderid', 'cardrefid', 'amount', 'currency'],
  'account-verification': ['endpointId', 'client_orderid', 'email'],
};

const text = fc.string({ unit: fc.constantFrom(...'abcXYZ019-_.@'), minLength: 1, maxLength: 8 });
/** A decimal amount with two decimals and its cents, by hand: 12.05 is 1205. */
const amount = fc.tuple(fc.integer({ min: 1, max: 99_999 }), fc.integer({ min: 0, max: 99 })).map(([whole, cents]) => ({
  sent: `${whole}.${String(cents).padStart(2, '0')}`,
  cents: String(whole * 100 + cents),
}));

const arb = fc
  .record({
    operation: fc.constantFrom(...Object.keys(FORMULAS)),
    endpointId: fc.integer({ min: 1, max: 99_999 }).map(String),
    login: text,
    key: text,
    values: fc.record({ client_orderid: text, orderid: text, cardrefid: text, email: text, currency: text }),
    amount,
  })
  .chain((c) =>
    fc
      .subarray([...(FORMULAS[c.operation] as string[]).keys()], { minLength: 1, maxLength: 3 })
      .map((left) => ({ ...c, left })),
  );

describe('property: formula fields left out together are named', () => {
  it('names the set left out, or an ambiguous diagnosis holding it', () => {
    fc.assert(
      fc.property(arb, (c) => {
        const formula = FORMULAS[c.operation] as string[];
        const signed = (name: string): string =>
          name === 'endpointId'
            ? c.endpointId
            : name === 'login'
              ? c.login
              : name === 'amount'
                ? c.amount.cents
                : c.values[name as keyof typeof c.values];
        const params: Pair[] = formula
          .filter((n) => n !== 'endpointId' && n !== 'login')
          .map((n): Pair => [n, n === 'amount' ? c.amount.sent : signed(n)]);
        const kept = formula.filter((_, i) => !c.left.includes(i));
        const control = createHash('sha1')
          .update(kept.map(signed).join('') + c.key, 'utf8')
          .digest('hex');
        const path = `/api/v2/${c.operation}/${c.endpointId}`;
        const d = diagnoseSent(
          {
            request: { url: `https://h.example/paynet${path}`, params },
            credentials: { login: c.login, controlKey: c.key },
            given: { control },
          },
          matchPath(path),
        );
        const left = c.left.map((i) => formula[i]);
        const id = left.length === 1 ? 'missing-field' : 'missing-fields';
        const named = (d?.compositions ?? []).filter((x) => x.mistakes.length === 1 && x.mistakes[0] === id);
        assert.ok(
          named.some((x) => JSON.stringify(x.fields) === JSON.stringify(left)),
          `${c.operation} without ${left.join(', ')}: ${d?.message}`,
        );
        assert.equal(d?.ambiguous, (d?.compositions ?? []).length > 1);
      }),
      fcParams(100),
    );
  });
});
