/**
 * The certification page's proof section (report/proof.ts): for each passed check, the broken gateways
 * it could have failed against; the checks no broken gateway shows can fail, and those not in the record,
 * listed by name, never hidden in a count.
 */
import { escapeHtml as esc } from './html.ts';
import type { CheckProof, MutationScore, RunProof } from './proof.ts';

const checkName = (c: CheckProof): string => `${c.name} (${c.uri})`;

const scoreLine = (m: MutationScore): string =>
  `${m.of === 'src/signing' ? 'the signer ' : m.of === 'src/rules' ? 'the rule book ' : ''}(${m.of}): ` +
  `${m.score.toFixed(2)} % (${m.detected} of ${m.counted} mutants detected, measured ${m.measured}; ${m.source})`;

/** Who ran the proof and when, in one sentence of HTML. */
function provenance(p: RunProof): string {
  const r = p.recorded;
  if (r === undefined) return `${esc(p.unavailable ?? 'no proof record')}: no check's failure is proven here.`;
  const commit =
    r.commit === undefined
      ? ''
      : `, commit ${r.commit.slice(0, 12)}${r.uncommitted ? ' with changes not committed' : ''}`;
  return (
    `From the proof run of ${esc(r.date)} (<code>npm run prove -- --record</code>, payconform ` +
    `${esc(r.payconform + commit)}): each check was run against every deliberately broken gateway (docs/prove.md).`
  );
}

const list = (title: string, checks: readonly CheckProof[]): string =>
  checks.length === 0
    ? ''
    : `<h3>${esc(title)} (${checks.length})</h3>` +
      `<ul>${checks.map((c) => `<li>${esc(checkName(c))}</li>`).join('')}</ul>`;

const against = (c: CheckProof): string => (c.status === 'proven' ? c.failsAgainst.join(', ') : '');

export function proofSection(p: RunProof): string {
  const proven = p.checks.filter((c) => c.status === 'proven');
  const { counts } = p;
  const total = p.checks.length;
  const rows = proven
    .map((c) => `<tr><td>${esc(checkName(c))}</td><td>could have failed against: ${esc(against(c))}</td></tr>`)
    .join('\n');
  return (
    `<section id="proof"><h2>Could the passed checks have failed?</h2>
<p>${provenance(p)}</p>
${
  p.otherVersion === undefined
    ? ''
    : `<p class="other-version">The proof record was made with payconform ${esc(p.otherVersion)}, not this version: ` +
      `it proves that version's checks, not necessarily these.</p>`
}
<p>${proven.length} of ${total} passed checks failed against at least one broken gateway; ${counts.noDefect} ` +
    `against none; ${counts.notProven} not proven.${
      p.blanket.length
        ? ` Not counted: ${esc(p.blanket.join(', '))}, which fails every check and so proves no particular one.`
        : ''
    }</p>
<p>Mutation score of ${
      p.mutation.length ? esc(p.mutation.map(scoreLine).join('; ')) : 'the signer and the rule book: not recorded'
    }.</p>
${list(
  'Passed checks no broken gateway shows can fail',
  p.checks.filter((c) => c.status === 'no-defect'),
)}
${list(
  'Passed checks not proven (not in the proof record)',
  p.checks.filter((c) => c.status === 'not-proven'),
)}
${
  proven.length
    ? `<details><summary>Each passed check and the broken gateways it could have failed against (${proven.length})` +
      `</summary><div class="scroll"><table><thead><tr><th>check</th><th>could have failed against</th></tr></thead>` +
      `<tbody>${rows}</tbody></table></div></details>`
    : ''
}</section>`
  );
}
