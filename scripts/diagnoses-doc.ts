// Writes docs/diagnoses.md from the mistake table in src/signing/diagnose (npm run docs:diagnoses),
// so the documented ids are exactly those diagnose reports; test/diagnose/docs.test.ts checks it.
import { readFileSync, writeFileSync } from 'node:fs';
import { MISTAKES } from '../src/signing/diagnose/index.ts';

export function diagnosesDoc(): string {
  const vectors = JSON.parse(readFileSync(new URL('../vectors/diagnoses.json', import.meta.url), 'utf8')) as {
    vectors: Array<{ id: string; expected: { defect: string | null } }>;
  };
  const lines = [
    '# Diagnosis ids',
    '',
    '`payconform diagnose` (and `vectors check` on verification vectors) recomputes a wrong signature under',
    'each known mistake below and names every one that reproduces the value sent. OAuth mistakes replace',
    'one step of the reference recipe (`src/signing/diagnose/oauth-mistakes.ts`); control mistakes change',
    'the concatenation or the digest (`control-mistakes.ts`). Each id has at least one verification vector',
    'in `vectors/diagnoses.json` that proves it is found. This page is generated: `npm run docs:diagnoses`.',
    '',
    'When no mistake reproduces a value, diagnose says how many it tried (`--json`: `tried`, the ids) and',
    'what that leaves: a key other than the one given, a value signed other than it was sent, or a formula',
    'or signing step payconform does not know.',
    '',
    'Cents by rounding are no mistake: `Math.round(amount * 100)`, `(amount * 100).toFixed(0)` (as in',
    'PredokMiF/node-payneteasy, src/pne/preauthReq.js) and PHP `round($amount * 100)` give the exact cents of',
    'every amount with two decimals below 10^12: the float error of amount × 100 stays far below half a cent.',
    '',
    '| id | scheme | what the partner did | fix | vectors |',
    '|---|---|---|---|---|',
  ];
  for (const m of MISTAKES) {
    const ids = vectors.vectors
      .filter((v) => v.expected.defect === m.id)
      .map((v) => `\`${v.id}\``)
      .join(', ');
    const seen = m.seenIn === undefined ? '' : ` Seen in: ${m.seenIn.join('; ')}.`;
    lines.push(`| \`${m.id}\` | ${m.scheme} | **${m.title}.** ${m.explanation}${seen} | ${m.fix} | ${ids} |`);
  }
  return `${lines.join('\n')}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`)
  writeFileSync(new URL('../docs/diagnoses.md', import.meta.url), diagnosesDoc());
