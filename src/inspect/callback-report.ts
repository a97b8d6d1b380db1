/**
 * The handler checks in inspect's console, JUnit and HTML output: the callbacks played against the merchant's
 * callback handler (callback-checks.ts) and the customer returns played against its redirect_url page
 * (return-checks.ts), reported alike. Each check is a rule of the book: its title, clause and fix are read from
 * there (RULE_BY_ID).
 */
import { CALLBACK_HANDLER_RULES, RETURN_HANDLER_RULES, type RuleId } from '../rules/book.ts';
import { ruleOf } from './rule-info.ts';
import { escapeHtml } from '../report/html.ts';
import { xmlText } from '../report/xml.ts';

/** One check of an order, as callback-checks.ts and return-checks.ts record it. */
export interface HandlerCheckResult {
  readonly id: RuleId;
  readonly outcome: 'pass' | 'fail';
  readonly answered?: number;
  readonly error?: string;
  readonly message?: string;
}

/** An order's checks against one of the merchant's handlers. */
export interface HandlerRecord {
  readonly orderid: string;
  readonly clientOrderId: string;
  readonly status: string;
  readonly target: string;
  readonly checks: readonly HandlerCheckResult[];
  readonly passed: boolean;
}

/** Which handler the checks were played against, and how its report section reads. */
export interface HandlerKind {
  /** "callbacks" or "returns": the console's and JUnit's word, and the HTML section's id. */
  readonly noun: 'callbacks' | 'returns';
  readonly heading: string;
  readonly rules: readonly { readonly id: RuleId; readonly title: string }[];
  readonly intro: string;
  readonly none: string;
}

export const CALLBACK_KIND: HandlerKind = {
  noun: 'callbacks',
  heading: 'Callback checks',
  rules: CALLBACK_HANDLER_RULES,
  intro:
    'For each final order, inspect played the gateway against your handler: hostile callbacks first (none may be\n' +
    'answered 2xx), then the genuine one twice (both must be). Why each matters: docs/callbacks.md.',
  none: 'No order reached a final status with a server_callback_url, so no callback was played (docs/callbacks.md).',
};

export const RETURN_KIND: HandlerKind = {
  noun: 'returns',
  heading: 'Customer-return checks',
  rules: RETURN_HANDLER_RULES,
  intro:
    "For each final order with a redirect_url, inspect played the payer's browser against your return page: hostile\n" +
    "returns first (none may be answered 2xx, nor with the genuine return's own redirect), then the genuine one\n" +
    'twice (both must get a page or a redirect). Why each matters: docs/callbacks.md.',
  none: 'No order with a redirect_url reached a final status, so no return was played (docs/callbacks.md).',
};

/** The console line of an order's checks. */
export function callbackLine(r: HandlerRecord, kind: HandlerKind = CALLBACK_KIND): string {
  const failed = r.checks.filter((c) => c.outcome === 'fail');
  const verdict = failed.length === 0 ? 'pass' : `FAIL ${failed.map((c) => `${c.id}: ${c.message}`).join('; ')}`;
  return `${kind.noun} of order ${r.orderid} (${r.clientOrderId}, ${r.status}) → ${r.target}: ${verdict}`;
}

export function callbackJunitCases(records: readonly HandlerRecord[], kind: HandlerKind = CALLBACK_KIND): string[] {
  return records.flatMap((r) =>
    r.checks.map((c) => {
      const rule = ruleOf(c.id);
      const classname = xmlText(`${kind.noun} of order ${r.orderid} ${r.clientOrderId}`);
      const failure =
        c.outcome === 'fail'
          ? `<failure message="${xmlText(c.message ?? '')}">${xmlText(`${rule.clause}\nfix: ${rule.hint}`)}</failure>`
          : '';
      const name = xmlText(`${rule.title} [${c.id}]`);
      return `    <testcase classname="${classname}" name="${name}" time="0">${failure}</testcase>`;
    }),
  );
}

export const callbackFailures = (records: readonly HandlerRecord[]): number =>
  records.reduce((n, r) => n + r.checks.filter((c) => c.outcome === 'fail').length, 0);

/** A check's cell: ✓ or ✗ with what the handler answered, the reason on hover. */
const cell = (c: HandlerCheckResult): string =>
  `<td class="${c.outcome}" title="${escapeHtml(c.message ?? `answered ${c.answered}`)}">` +
  `${c.outcome === 'pass' ? '✓' : '✗'} ${escapeHtml(String(c.answered ?? c.error ?? ''))}</td>`;

/** A failed check with why and the book's fix. */
const failure = (c: HandlerCheckResult): string =>
  `<div class="failure" data-check="${escapeHtml(c.id)}"><h4>✗ ${escapeHtml(ruleOf(c.id).title)}</h4>` +
  `<p class="problem">${escapeHtml(c.message ?? '')}</p>` +
  `<p class="hint">Fix: ${escapeHtml(ruleOf(c.id).hint)}</p></div>`;

function row(r: HandlerRecord, kind: HandlerKind): string {
  const order =
    `<td>${escapeHtml(r.orderid)}<br>${escapeHtml(r.clientOrderId)}</td>` +
    `<td>${escapeHtml(r.status)}</td><td>${escapeHtml(r.target)}</td>`;
  const failures = r.checks
    .filter((c) => c.outcome === 'fail')
    .map(failure)
    .join('');
  const details = failures ? `<tr class="details"><td colspan="${3 + kind.rules.length}">${failures}</td></tr>` : '';
  return `<tr class="${r.passed ? 'ok' : 'bad'}">${order}${r.checks.map(cell).join('')}</tr>${details}`;
}

/** The HTML section: an order per row, a check per column, each failure with why and the fix. */
export function callbackSection(
  records: readonly HandlerRecord[],
  asked: boolean,
  kind: HandlerKind = CALLBACK_KIND,
): string {
  if (!asked) return '';
  if (records.length === 0)
    return `<section id="${kind.noun}"><h2>${kind.heading}</h2><p>${escapeHtml(kind.none)}</p></section>`;
  const heads = kind.rules.map((rule) => `<th>${escapeHtml(rule.title)}</th>`).join('');
  return `<section id="${kind.noun}"><h2>${kind.heading}</h2>
<p>${escapeHtml(kind.intro)}</p>
<table><thead><tr><th>order</th><th>status</th><th>handler</th>${heads}</tr></thead>
<tbody>${records.map((r) => row(r, kind)).join('\n')}</tbody></table></section>`;
}
