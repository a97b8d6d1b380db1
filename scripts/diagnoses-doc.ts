// Writes docs/diagnoses.md from the mistake operators in src/signing/diagnose (npm run docs:diagnoses), so the
// documented steps and ids are exactly those diagnose searches and reports; test/diagnose/cli.test.ts checks it.
import { readFileSync, writeFileSync } from 'node:fs';
import { MISTAKES, type Mistake } from '../src/signing/diagnose/index.ts';
import { MAX_ADDED_SEARCHED, MAX_FIELDS } from '../src/signing/diagnose/control-mistakes.ts';
import { MAX_DEPTH, MAX_EVALUATIONS, MAX_OAUTH_EVALUATIONS } from '../src/signing/diagnose/search.ts';

/** The steps of one scheme, in the order their first mistake comes, each with its mistakes' ids. */
function byStep(scheme: Mistake['scheme']): string[] {
  const steps = new Map<string, string[]>();
  for (const m of MISTAKES.filter((x) => x.scheme === scheme)) {
    const step = m.step ?? 'other';
    steps.set(step, [...(steps.get(step) ?? []), `\`${m.id}\``]);
  }
  return [...steps].map(([step, ids]) => `- **${step}**: ${ids.join(', ')}`);
}

export function diagnosesDoc(): string {
  const vectors = JSON.parse(readFileSync(new URL('../vectors/diagnoses.json', import.meta.url), 'utf8')) as {
    vectors: Array<{ id: string; expected: { defect: string | null } }>;
  };
  const lines = [
    '# Diagnosis ids',
    '',
    '`payconform diagnose` (and `vectors check` on verification vectors, inspect and the debugger) searches for',
    'the mistakes that reproduce a wrong signature. Each mistake is an operator at one step of the signing',
    'recipe: the control recipe (`src/signing/diagnose/control-mistakes.ts`: how the amount and the values are',
    'written, which fields go in and in what order, the separator, the key, the digest and its encoding) or',
    'the OAuth one (`oauth-recipe.ts`, `oauth-mistakes.ts`: each base-string normalisation step, the HMAC key',
    `and the hash). Operators at different steps compose: the search tries them alone, then up to ${MAX_DEPTH}`,
    'together (one per step), smallest first; an operator that changes nothing for the request is left out,',
    'since it cannot be told from a correct signature. Every smallest composition that reproduces the value',
    'is named (`--json`: `compositions`, each with its `mistakes` and `steps`); where several do, the',
    'diagnosis says it is ambiguous. This page is generated: `npm run docs:diagnoses`.',
    '',
    '**Fields left out or added.** `missing-field` leaves one formula field out, `missing-fields` any two or',
    `three (the rest in the formula's order); \`added-fields\` concatenates in up to ${MAX_FIELDS} fields the request sends`,
    'but the formula does not name: one field at any place (just before the key first), two or three together',
    `in the order sent, just before the key, taken from the first ${MAX_ADDED_SEARCHED} such fields. The control, card numbers and`,
    'CVVs are never added (a diagnosis shows what was signed), nor the amount alone (`amount-in-formula`). The',
    'fields are named in the message (`reproduced by: missing-fields (amount, currency)`), in `--json`',
    "(`compositions[].fields`) and in an explanation with the request's own values and the concatenation to make.",
    '',
    `**Cost.** A control search computes at most ${MAX_EVALUATIONS} outcomes (a concatenation and at most one`,
    `digest each), an OAuth search ${MAX_OAUTH_EVALUATIONS} (a base string and an HMAC or RSA check each, about`,
    'twice the cost), the cheapest compositions of each size first; a variant of a digest or encoding that no',
    'value of the shape sent can have is never built. A control diagnosis then takes 8–22 ms of CPU on the',
    '2-core build machine (best of 7 runs, `test/diagnose/search-work.test.ts`), the OAuth searches of the',
    'richest shipped vectors 25–38 ms (best of 5, 2026-11-28, beside a benchmark on the other core). Where the',
    'outcomes run out first (every order of a formula of five fields with two other mistakes, many fields to',
    'add, rich OAuth requests), the message says up to how many mistakes together were tried in full: two for',
    '47 of the 58 shipped vectors made unexplained (every OAuth one) and for a sale of 16 fields, three for the',
    'other control ones. A 300 ms clock is the backstop for an overloaded machine.',
    '',
    "Today's ids are the names of compositions of one operator (`decimal-amount` is the amount-formatting",
    'operator "as sent", `truncated-cents` the one that cuts the float cents, `uppercase-hex` the',
    'digest-encoding one); a composition of several is written with `+` (`separator-pipe + uppercase-hex`),',
    'and `controlWithMistake`/`oauthHeaderWithMistake` accept it so. Each id has at least one verification',
    'vector in `vectors/diagnoses.json` that proves it is found.',
    '',
    'A fix never changes what is charged or to whom. A whole amount signed as it was sent (`amount=1000`',
    'signed as `1000`) reads as the cents of an amount a hundred times smaller: signing the cents of the',
    'field would make a valid request that charges 1000.00 for an order of 10.00, so diagnose names',
    "`amount-value-wrong` (the amount field's value itself is wrong; `--json`: `wrongValue`), never",
    '`decimal-amount`.',
    '',
    'When nothing reproduces a value, diagnose says how many mistakes it tried (`--json`: `tried`, the ids) and',
    'what that leaves: a key other than the one given, a value signed other than it was sent, or a formula',
    'or signing step payconform does not know.',
    '',
    'Cents by rounding are no mistake: `Math.round(amount * 100)`, `(amount * 100).toFixed(0)` (as in',
    'PredokMiF/node-payneteasy, src/pne/preauthReq.js) and PHP `round($amount * 100)` give the exact cents of',
    'every amount with two decimals below 10^12: the float error of amount × 100 stays far below half a cent.',
    '',
    '## Operators by step',
    '',
    'Control (Scheme A):',
    '',
    ...byStep('control'),
    '',
    'OAuth (RFC 5849 §3.4–3.6):',
    '',
    ...byStep('oauth'),
    '',
    '## Every mistake',
    '',
    '| id | scheme | step | what the partner did | fix | vectors |',
    '|---|---|---|---|---|---|',
  ];
  for (const m of MISTAKES) {
    const ids = vectors.vectors
      .filter((v) => v.expected.defect === m.id)
      .map((v) => `\`${v.id}\``)
      .join(', ');
    const seen = m.seenIn === undefined ? '' : ` Seen in: ${m.seenIn.join('; ')}.`;
    lines.push(
      `| \`${m.id}\` | ${m.scheme} | ${m.step ?? ''} | **${m.title}.** ${m.explanation}${seen} | ${m.fix} | ${ids} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`)
  writeFileSync(new URL('../docs/diagnoses.md', import.meta.url), diagnosesDoc());
