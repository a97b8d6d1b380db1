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
  /** `skip`: not played for this order (or judged by another rule); `message` says why. */
  readonly outcome: 'pass' | 'fail' | 'skip';
  readonly answered?: number;
  readonly error?: string;
  readonly message?: string;
  /** The part of a played check that could not be judged, and why (no --callback-state). */
  readonly notJudged?: string;
  /** What the shop held as paid before and after the check (--callback-state). */
  readonly paid?: { readonly before: string; readonly after: string };
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
    'answered 2xx), then two identical ones at the same moment, the genuine one twice, a late one with another\n' +
    'status, a chargeback (approved orders) and one after the retry window (each must get 200). With\n' +
    "--callback-state the shop's paid amount judges what each did; without it that part is marked not judged.\n" +
    'Why each matters: docs/callbacks.md.',
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

/** What of a check was not played or not judged, and why; undefined for a check played and judged whole. */
export function notDone(c: HandlerCheckResult): string | undefined {
  if (c.outcome === 'skip') return c.message ?? 'not played';
  return c.notJudged;
}

/** The console line of an order's checks: failures first, then what was not played or not judged. */
export function callbackLine(r: HandlerRecord, kind: HandlerKind = CALLBACK_KIND): string {
  const failed = r.checks.filter((c) => c.outcome === 'fail');
  const verdict = failed.length === 0 ? 'pass' : `FAIL ${failed.map((c) => `${c.id}: ${c.message}`).join('; ')}`;
  const open = r.checks.flatMap((c) => {
    const why = notDone(c);
    return why === undefined ? [] : [`${c.id} (${why})`];
  });
  const rest = open.length === 0 ? '' : `; NOT PLAYED OR NOT JUDGED: ${open.join('; ')}`;
  return `${kind.noun} of order ${r.orderid} (${r.clientOrderId}, ${r.status}) → ${r.target}: ${verdict}${rest}`;
}

export function callbackJunitCases(records: readonly HandlerRecord[], kind: HandlerKind = CALLBACK_KIND): string[] {
  return records.flatMap((r) =>
    r.checks.map((c) => {
      const rule = ruleOf(c.id);
      const classname = xmlText(`${kind.noun} of order ${r.orderid} ${r.clientOrderId}`);
      const open = c.notJudged === undefined ? '' : `<system-out>${xmlText(`not judged: ${c.notJudged}`)}</system-out>`;
      const failure =
        c.outcome === 'fail'
          ? `<failure message="${xmlText(c.message ?? '')}">${xmlText(`${rule.clause}\nfix: ${rule.hint}`)}</failure>`
          : c.outcome === 'skip'
            ? `<skipped message="${xmlText(c.message ?? 'not played')}"/>`
            : open;
      const name = xmlText(`${rule.title} [${c.id}]`);
      return `    <testcase classname="${classname}" name="${name}" time="0">${failure}</testcase>`;
    }),
  );
}

export const callbackFailures = (records: readonly HandlerRecord[]): number =>
  records.reduce((n, r) => n + r.checks.filter((c) => c.outcome === 'fail').length, 0);

/** Checks not played (skipped), and checks played whose state part was not judged. */
export const callbackSkips = (records: readonly HandlerRecord[]): number =>
  records.reduce((n, r) => n + r.checks.filter((c) => c.outcome === 'skip').length, 0);
export const callbackNotJudged = (records: readonly HandlerRecord[]): number =>
  records.reduce((n, r) => n + r.checks.filter((c) => c.outcome !== 'skip' && c.notJudged !== undefined).length, 0);

const MARK = { pass: '✓', fail: '✗', skip: '–' } as const;

/** A check's cell: ✓, ✗ or – (not played) with what the handler answered, * where a part was not judged. */
const cell = (c: HandlerCheckResult): string => {
  const why = [
    c.message ?? (c.answered === undefined ? undefined : `answered ${c.answered}`),
    c.paid && `paid ${c.paid.before} before, ${c.paid.after} after`,
    c.notJudged,
  ]
    .filter((t) => t !== undefined)
    .join('; ');
  const partly = c.notJudged === undefined ? '' : ' data-not-judged="true"';
  return (
    `<td class="${c.outcome}" title="${escapeHtml(why)}"${partly}>${MARK[c.outcome]} ` +
    `${escapeHtml(String(c.answered ?? c.error ?? ''))}${c.notJudged === undefined ? '' : '*'}</td>`
  );
};

/** A failed check with why and the book's fix. */
const failure = (c: HandlerCheckResult): string =>
  `<div class="failure" data-check="${escapeHtml(c.id)}"><h4>✗ ${escapeHtml(ruleOf(c.id).title)}</h4>` +
  `<p class="problem">${escapeHtml(c.message ?? '')}</p>` +
  `<p class="hint">Fix: ${escapeHtml(ruleOf(c.id).hint)}</p></div>`;

/** A check not played, or played without its state part: said, so the report never reads it as passed. */
const open = (c: HandlerCheckResult): string => {
  const why = notDone(c);
  if (why === undefined) return '';
  const what = c.outcome === 'skip' ? 'not played' : 'not judged in part';
  return (
    `<div class="not-judged" data-check="${escapeHtml(c.id)}"><h4>– ${escapeHtml(ruleOf(c.id).title)}: ${what}` +
    `</h4><p>${escapeHtml(why)}</p></div>`
  );
};

function row(r: HandlerRecord, kind: HandlerKind): string {
  const order =
    `<td>${escapeHtml(r.orderid)}<br>${escapeHtml(r.clientOrderId)}</td>` +
    `<td>${escapeHtml(r.status)}</td><td>${escapeHtml(r.target)}</td>`;
  const failures =
    r.checks
      .filter((c) => c.outcome === 'fail')
      .map(failure)
      .join('') + r.checks.map(open).join('');
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
