/**
 * The certification page's coverage section, shown above the verdict (issue 29): a reader sees what
 * the run exercised and what it did not, with why and how to include it, before the word PASS.
 */
import { missingOf, type Coverage } from './coverage.ts';
import { escapeHtml as esc } from './html.ts';

export function coverageSection(coverage: Coverage): string {
  const missing = missingOf(coverage);
  const outside = coverage.notExercised.filter((m) => !m.inSelection);
  const required = new Set(coverage.required);
  const rows = missing
    .map(
      (m) =>
        `<tr class="missing"><th>${esc(m.capability)}${required.has(m.capability) ? ' (required)' : ''}</th>` +
        `<td>${esc(m.why)}: ${esc(m.detail)}</td><td>${esc(m.include)}</td></tr>`,
    )
    .join('\n');
  const list = (names: readonly string[]): string => names.map((n) => `<code>${esc(n)}</code>`).join(', ');
  return `<section id="coverage"><h2>What this run exercised</h2>
<p>${coverage.exercised.length} of the ${coverage.selected} capabilities the selection covers were exercised${
    missing.length ? `; <strong>not exercised: ${list(missing.map((m) => m.capability))}</strong>` : ''
  }.</p>
${
  rows
    ? `<div class="scroll"><table><thead><tr><th>not exercised</th><th>why</th><th>to include it</th></tr>` +
      `</thead><tbody>${rows}</tbody></table></div>`
    : ''
}
${
  coverage.requiredMissing.length
    ? `<p class="missing">Required (--require) but not exercised: ${list(coverage.requiredMissing)}.</p>`
    : ''
}
<details><summary>exercised (${coverage.exercised.length})</summary><p>${list(coverage.exercised)}</p></details>
${
  outside.length
    ? `<details><summary>left out of the selection (${outside.length}), no bearing on the verdict</summary>` +
      `<p>${list(outside.map((m) => m.capability))}</p></details>`
    : ''
}
</section>`;
}
