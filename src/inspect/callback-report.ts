/** The callback checks in inspect's console, JUnit and HTML output (callback-checks.ts). */
import type { CallbackRecord } from './callback-checks.ts';
import { xml } from './xml-text.ts';


/** The console line of an order's callback checks. */
export function callbackLine(r: CallbackRecord): string {
  const failed = r.checks.filter((c) => c.outcome === 'fail');
  const verdict = failed.length === 0 ? 'pass' : `FAIL ${failed.map((c) => `${c.id}: ${c.message}`).join('; ')}`;
  return `callbacks of order ${r.orderid} (${r.clientOrderId}, ${r.status}) → ${r.target}: ${verdict}`;
}

export function callbackJunitCases(records: readonly CallbackRecord[]): string[] {
  return records.flatMap((r) =>
    r.checks.map((c) => {
      const classname = xml(`callbacks of order ${r.orderid} ${r.clientOrderId}`);
      const body =
        c.outcome === 'fail'
          ? `<failure message="${xml(c.message ?? '')}">${xml(`A-31, docs/callbacks.md\nfix: ${c.fix ?? ''}`)}</failure>`
          : '';
      return (
        `    <testcase classname="${classname}" name="${xml(`${c.title} [callback-${c.id}]`)}" ` +
        `time="0">${body}</testcase>`
      );
    }),
  );
}

export const callbackFailures = (records: readonly CallbackRecord[]): number =>
  records.reduce((n, r) => n + r.checks.filter((c) => c.outcome === 'fail').length, 0);

/** The HTML section: an order per row, a check per column, each failure with why and the fix. */
export function callbackSection(records: readonly CallbackRecord[], asked: boolean): string {
  if (!asked) return '';
  if (records.length === 0) {
    return (
      '<section id="callbacks"><h2>Callback checks</h2><p>No order reached a final status with a ' +
      'server_callback_url, so no callback was played (docs/callbacks.md).</p></section>'
    );
  }
  const titles = records[0].checks.map((c) => c.title);
  const rows = records
    .map((r) => {
      const cells = r.checks
        .map(
          (c) =>
            `<td class="${c.outcome}" ` +
            `title="${xml(c.message ?? `answered ${c.answered}`)}">${c.outcome === 'pass' ? '✓' : '✗'} ${c.answered ?? c.error ?? ''}</td>`,
        )
        .join('');
      const failures = r.checks
        .filter((c) => c.outcome === 'fail')
        .map(
          (c) =>
            `<div class="failure" data-check="callback-${xml(c.id)}"><h4>✗ ${xml(c.title)}</h4><p ` +
            `class="problem">${xml(c.message ?? '')}</p><p class="hint">Fix: ${xml(c.fix ?? '')}</p></div>`,
        )
        .join('');
      return `<tr class="${r.passed ? 'ok' : 'bad'}"><td>${xml(r.orderid)}<br>${xml(r.clientOrderId)}</td><td>${xml(r.status)}</td><td>${xml(r.target)}</td>${cells}</tr>${
        failures ? `<tr class="details"><td ` + `colspan="${3 + titles.length}">${failures}</td></tr>` : ''
      }`;
    })
    .join('\n');
  return `<section id="callbacks"><h2>Callback checks</h2>
<p>For each final order, inspect played the gateway against your handler: hostile callbacks first (none may be answered 2xx), then the genuine one twice (both must be). Why each matters: docs/callbacks.md.</p>
<table><thead><tr><th>order</th><th>status</th><th>handler</th>${titles.map((t) => `<th>${xml(t)}</th>`).join('')}</tr></thead><tbody>${rows}</tbody></table></section>`;
}
