/**
 * The causes section that leads the certification page: each cause, largest first, with its rule,
 * clause, basis, who must act and the fix; its own failures listed, and the scenarios it blocked
 * (their prerequisite was refused) collapsed under it.
 */
import { actorWords, type Cause, type CauseEntry, type CauseKind } from './causes.ts';
import { escapeHtml as esc } from './html.ts';

const KIND: Record<CauseKind, string> = {
  'refused-met': 'refused requests that meet the rule',
  'accepted-wrong': 'accepted requests that break the rule',
  'answered-wrong': 'answered against the rule',
  'sent-wrong': 'requests break the rule',
  untraced: 'not traced to a rule',
};

const item = (e: CauseEntry): string => `<li>${esc(e.name)} <small>(${esc(e.exchange)})</small></li>`;

function causeHtml(c: Cause): string {
  const total = c.scenarios.length + c.blocked.length;
  const blocked = c.blocked.length
    ? `<details><summary>blocked by it: ${c.blocked.length} scenario${c.blocked.length === 1 ? '' : 's'} ` +
      `whose prerequisite was refused</summary><ul>${c.blocked.map(item).join('')}</ul></details>`
    : '';
  // A long list of its own is collapsed too: the causes must fit above the fold, one under another.
  const ownList = `<ul>${c.scenarios.map(item).join('')}</ul>`;
  const own =
    c.scenarios.length === 0
      ? ''
      : c.scenarios.length <= 5
        ? ownList
        : `<details><summary>its own failures: ${c.scenarios.length} scenarios</summary>${ownList}</details>`;
  const mistake = c.mistake ? ` <code>${esc(c.mistake)}</code>` : '';
  const [critical, criticalClass] = c.critical
    ? ['<strong class="critical">CRITICAL</strong> ', ' critical']
    : ['', ''];
  const name = `${critical}${esc(c.rule ?? c.check ?? '?')}${mistake}`;
  return `<article class="cause${criticalClass}"><h3>${name} <small>${esc(KIND[c.kind])}: ${total} \
failure${total === 1 ? '' : 's'}</small></h3>
<p>Clause: ${esc(c.clause || '—')} · basis: ${esc(c.basis)} · who must act: \
<strong>${esc(actorWords(c.actor))}</strong></p>
<p class="fix"><strong>Fix:</strong> ${esc(c.fix)}</p>
${own}${blocked}</article>`;
}

/** The section, or nothing when nothing failed. */
export function causesSection(causes: readonly Cause[], heading = 'Causes'): string {
  if (causes.length === 0) return '';
  return `<section id="causes"><h2>${esc(heading)} (${causes.length})</h2>
<p>Every failure traced to its first cause, critical ones (a secret leaked) first, then largest first; each is \
also listed in full below.</p>
${causes.map(causeHtml).join('\n')}</section>`;
}
