/**
 * The rule book's facts a cause names (src/report/causes.ts): clause, basis, fix, refusal codes and
 * where a sender fixes a miss. The report folder imports no rule, so the suite hands it this table.
 */
import type { CauseRules } from '../report/causes.ts';
import { RULES } from '../rules/book.ts';

export const CAUSE_RULES: CauseRules = Object.fromEntries(
  RULES.map((r) => [
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
