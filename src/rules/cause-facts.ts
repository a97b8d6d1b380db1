/**
 * What a failure's cause names of its rule (src/report/causes.ts): clause, basis, fix, refusal codes
 * and where a sender fixes a miss. The report folder imports no rule, so certify and inspect hand it
 * this table, made here once from the book.
 */
import { REQUEST_RULES, RULES } from './book.ts';
import type { Basis, Rule } from './rule.ts';

export interface CauseFacts {
  readonly clause: string;
  readonly basis: Basis;
  readonly assumptions: readonly string[];
  readonly hint: string;
  readonly codes: readonly string[];
  readonly fixedIn?: 'configuration' | undefined;
}

const factsOf = (rules: ReadonlyArray<Rule<never>>): Readonly<Record<string, CauseFacts>> =>
  Object.fromEntries(
    rules.map((r) => [
      r.id,
      {
        clause: r.clause,
        basis: r.basis,
        assumptions: r.assumptions,
        hint: r.hint,
        codes: r.refusals.map((x) => x.code),
        fixedIn: r.fixedIn,
      },
    ]),
  );

/** Every rule of the book: what certify's failures may name. */
export const CAUSE_FACTS = factsOf(RULES);

/** The request rules: what inspect judges a merchant's request by. */
export const REQUEST_CAUSE_FACTS = factsOf(REQUEST_RULES);
