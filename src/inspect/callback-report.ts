/**
 * The callback checks in inspect's console, JUnit and HTML output (callback-checks.ts). Each check
 * is a rule of the book: its title, clause and fix are read from there (RULE_BY_ID).
 */
import { CALLBACK_HANDLER_RULES } from '../rules/book.ts';
import type { CallbackCheckResult, CallbackRecord } from './callback-checks.ts';
import { ruleOf } from './rule-info.ts';
import { escapeHtml } from '../report/html.ts';
import { xmlText } from '../report/xml.ts';

/** The console line of an order's callback checks. */
export function callbackLine(r: CallbackRecord): string {
  const failed = r.checks.filter((c) => c.outcome === 'fail');
  const verdict = failed.length === 0 ? 'pass' : `FAIL ${failed.map((c) => `${c.id}: ${c.message}`).join('; ')}`;
  return `callbacks of order ${r.orderid} (${r.clientOrderId}, ${r.status}) → ${r.target}: ${verdict}`;
}

export function callbackJunitCases(records: readonly CallbackRecord[]): string[] {
  return records.flatMap((r) =>
    r.checks.map((c) => {
      const rule = ruleOf(c.id);
      const classname = xmlText(`callbacks of order ${r.orderid} ${r.clientOrderId}`);
      const failure =
        c.outcome === 'fail'
          ? `<failure message="${xmlText(c.message ?? '')}">${xmlText(`${rule.clause}\nfix: ${rule.hint}`)}</failure>`
          : '';
      const name = xmlText(`${rule.title} [${c.id}]`);
      return `    <testcase classname="${classname}" name="${name}" time="0">${failure}</testcase>`;
    }),
  );
}

export const callbackFailures = (records: readonly CallbackRecord[]): number =>
  records.reduce((n, r) => n + r.checks.filter((c) => c.outcome === 'fail').length, 0);

/** A check's cell: ✓ or ✗ with what the handler answered, the reason on hover. */
const cell = (c: CallbackCheckResult): string =>
  `<td class="${c.outcome}" title="${escapeHtml(c.message ?? `answered ${c.answered}`)}">` +
  `${c.outcome === 'pass' ? '✓' : '✗'} ${escapeHtml(String(c.answered ?? c.error ?? ''))}</td>`;

/** A failed check with why and the book's fix. */
const failure = (c: CallbackCheckResult): string =>
  `<div class="failure" data-check="${escapeHtml(c.id)}"><h4>✗ ${escapeHtml(ruleOf(c.id).title)}</h4>` +
  `<p class="problem">${escapeHtml(c.message ?? '')}</p>` +
  `<p class="hint">Fix: ${escapeHtml(ruleOf(c.id).hint)}</p></div>`;

function row(r: CallbackRecord): string {
  const order =
    `<td>${escapeHtml(r.orderid)}<br>${escapeHtml(r.clientOrderId)}</td>` +
    `<td>${escapeHtml(r.status)}</td><td>${escapeHtml(r.target)}</td>`;
  const failures = r.checks
    .filter((c) => c.outcome === 'fail')
    .map(failure)
    .join('');
  const details = failures
    ? `<tr class="details"><td colspan="${3 + CALLBACK_HANDLER_RULES.length}">${failures}</td></tr>`
    : '';
  return `<tr class="${r.passed ? 'ok' : 'bad'}">${order}${r.checks.map(cell).join('')}</tr>${details}`;
}

/** The HTML section: an order per row, a check per column, each failure with why and the fix. */
export function callbackSection(records: readonly CallbackRecord[], asked: boolean): string {
  if (!asked) return '';
  if (records.length === 0) {
    return (
      '<section id="callbacks"><h2>Callback checks</h2><p>No order reached a final status with a ' +
      'server_callback_url, so no callback was played (docs/callbacks.md).</p></section>'
    );
  }
  const heads = CALLBACK_HANDLER_RULES.map((rule) => `<th>${escapeHtml(rule.title)}</th>`).join('');
  return `<section id="callbacks"><h2>Callback checks</h2>
<p>For each final order, inspect played the gateway against your handler: hostile callbacks first (none may be
answered 2xx), then the genuine one twice (both must be). Why each matters: docs/callbacks.md.</p>
<table><thead><tr><th>order</th><th>status</th><th>handler</th>${heads}</tr></thead>
<tbody>${records.map(row).join('\n')}</tbody></table></section>`;
}
