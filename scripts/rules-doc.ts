// Writes docs/rules.md from the rule book in src/rules (npm run docs:rules), so the documented rules
// are exactly those the mock, inspect and the client run; test/rules/docs.test.ts checks it.
import { writeFileSync } from 'node:fs';
import { DEFECTS } from '../src/mock/defects.ts';
import {
  ANSWER_RULES,
  CALLBACK_HANDLER_RULES,
  CALLBACK_RULES,
  EXPECTATION_RULES,
  ORDER_RULES,
  REQUEST_RULES,
  RETURN_HANDLER_RULES,
  type RuleId,
} from '../src/rules/book.ts';

type Described = {
  readonly id: RuleId;
  readonly title: string;
  readonly clause: string;
  readonly basis: string;
  readonly hint: string;
  readonly refusals: readonly { status: number; code: string }[];
  readonly severity?: 'critical';
};

const cell = (s: string): string => s.replace(/\|/g, '\\|');

function table(rules: readonly Described[], judgedBy: (r: Described) => string): string[] {
  const lines = ['| rule | basis | clause | refusal | judged by | broken by | fix |', '|---|---|---|---|---|---|---|'];
  for (const r of rules) {
    const refusals = r.refusals.map((f) => `${f.status} \`${f.code}\``).join(', ') || '—';
    const defects =
      Object.entries(DEFECTS)
        .filter(([, d]) => (d.breaks as readonly string[]).includes(r.id))
        .map(([name]) => `\`${name}\``)
        .join(', ') || '—';
    const basis = r.severity === 'critical' ? `${r.basis}, **critical**` : r.basis;
    lines.push(
      `| \`${r.id}\` ${cell(r.title)} | ${basis} | ${cell(r.clause)} | ${refusals} | ${judgedBy(r)} | ${defects} | ${cell(r.hint)} |`,
    );
  }
  return lines;
}

export function rulesDoc(): string {
  return `${[
    '# The rule book',
    '',
    'Every check payconform makes is one rule in `src/rules/`: a stable id, the spec clause or assumption',
    '(docs/assumptions.md, `A-n`) it rests on, its **basis** (`spec`: the spec states it; `assumption`:',
    'the spec is silent and we decided), the refusal the embedded mock answers with, and the fix. The mock',
    'runs the request rules in the order below and answers the first failure; `inspect` runs every request',
    "rule and reports each; the mock's order stage runs the order rules; the suite's client checks every",
    'answer with the answer rules. A broken mock (`payconform mock --defect NAME`) breaks rules by id.',
    'A **critical** rule leaks a secret when missed: inspect lists its findings first and marks them critical.',
    'This page is generated: `npm run docs:rules`.',
    '',
    '## Request rules',
    '',
    ...table(REQUEST_RULES, (r) => (r.refusals.length ? 'mock, inspect' : 'inspect')),
    '',
    "## Order rules (the mock's order stage)",
    '',
    ...table(ORDER_RULES, () => 'mock'),
    '',
    '## Answer rules (what a gateway answers)',
    '',
    ...table(ANSWER_RULES, (r) =>
      r.id === 'order-kept'
        ? 'suite (status steps)'
        : r.id === 'validation-error-status'
          ? 'suite (refusal steps)'
          : 'client (every answer, judge-answer.ts)',
    ),
    '',
    '## Callback rules (what a gateway sends the merchant, docs/callbacks.md)',
    '',
    ...table(CALLBACK_RULES, () => 'suite (callback steps)'),
    '',
    "## Callback handler rules (what the merchant's handler answers, docs/callbacks.md)",
    '',
    ...table(CALLBACK_HANDLER_RULES, () => 'inspect --callback-checks'),
    '',
    "## Customer-return handler rules (what the merchant's redirect_url page answers, docs/callbacks.md)",
    '',
    ...table(RETURN_HANDLER_RULES, () => 'inspect --return-checks'),
    '',
    "## Expectation rules (what the suite's steps expect; a step names the rule, the book its severity)",
    '',
    ...table(EXPECTATION_RULES, () => 'suite (steps)'),
  ].join('\n')}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`)
  writeFileSync(new URL('../docs/rules.md', import.meta.url), rulesDoc());
