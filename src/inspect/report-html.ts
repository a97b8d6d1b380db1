/**
 * report.html of inspect: for the merchant's developer, per endpoint, each failure with its clause,
 * fix and, for signatures, the diagnosis with the correct and the sent base string side by side.
 * Titles, clauses and fixes are the rule book's (rule-info.ts).
 */
import { causesSection } from '../report/causes-html.ts';
import { escapeHtml as html, htmlPage } from '../report/html.ts';
import { REQUEST_RULES } from '../rules/book.ts';
import type { SignatureDetail } from '../rules/signature-evidence.ts';
import { MISTAKES } from '../signing/diagnose/index.ts';
import { firstDifference } from '../signing/first-difference.ts';
import type { CallbackRecord } from './callback-checks.ts';
import { callbackSection, RETURN_KIND } from './callback-report.ts';
import type { ReturnRecord } from './return-checks.ts';
import { customerSection, type CustomerStep } from './customer-steps.ts';
import { failedChecks, type CheckVerdict } from './inspector.ts';
import type { InspectRecord } from './listener.ts';
import type { InspectMeta, InspectSummary } from './report-model.ts';
import { ruleOf } from './rule-info.ts';

type Signed = SignatureDetail['correct'];

const textOf = (v: Signed | undefined): string | undefined => v?.baseString ?? v?.controlInput;

/** The mistakes that reproduce the value sent, each with its explanation and fix. */
function diagnosesOf(sig: SignatureDetail | undefined): string {
  const items = (sig?.diagnoses ?? []).map((id) => {
    const m = MISTAKES.find((mistake) => mistake.id === id);
    const more = m ? `: ${html(m.explanation)} <em>Fix:</em> ${html(m.fix)}` : '';
    return `<li><strong>${html(id)}</strong>${more}</li>`;
  });
  if (items.length === 0) return '';
  return `<p>Diagnosis (the mistake that reproduces the value sent):</p><ul class="diagnoses">${items.join('')}</ul>`;
}

/** The correct and the sent base string side by side, the first character where they part marked on both. */
function sidesOf(sig: SignatureDetail): string {
  const correct = textOf(sig.correct);
  const sent = textOf(sig.sent);
  const at = correct !== undefined && sent !== undefined ? firstDifference(correct, sent)?.position : undefined;
  const marked = (text: string): string =>
    at === undefined
      ? html(text)
      : `${html(text.slice(0, at))}<mark class="first-difference">${html(text[at] ?? '∅')}</mark>` +
        html(text.slice(at + 1));
  const where = at === undefined ? '' : ` <small>(first difference at character ${at + 1})</small>`;
  const side = (label: string, text: string | undefined): string =>
    text === undefined ? '' : `<div class="side"><h5>${label}${where}</h5><pre>${marked(text)}</pre></div>`;
  return (
    `<div class="sides">${side('correct (what the gateway computes)', correct)}` +
    `${side('sent (what your code signed)', sent)}</div>`
  );
}

function failureOf(c: CheckVerdict): string {
  const rule = ruleOf(c.id);
  const sig = c.signature;
  const explanation = sig?.explanation
    ? '<details class="explanation"><summary>The correct signature, step by step</summary>' +
      `<pre>${html(sig.explanation)}</pre></details>`
    : '';
  const [critical, criticalClass] = c.critical
    ? ['<strong class="critical">CRITICAL</strong> ', ' critical']
    : ['', ''];
  return `<div class="failure${criticalClass}" data-check="${html(c.id)}"><h4>✗ ${critical}${html(rule.title)}</h4>
<p class="problem">${html(c.message ?? '')}</p>
<p class="clause">Rule: ${html(rule.clause)}</p>
<p class="hint">Fix: ${html(rule.hint)}</p>
${diagnosesOf(sig)}
${sig ? sidesOf(sig) : ''}
${explanation}</div>`;
}

const MARK = { pass: '✓', fail: '✗', skip: '–' } as const;

const markOf = (c: CheckVerdict): string => {
  const title = html(`${ruleOf(c.id).title}: ${c.message ?? c.outcome}`);
  return `<td class="${c.outcome}" title="${title}">${MARK[c.outcome]}</td>`;
};

function answerOf(r: InspectRecord): string {
  if (!('status' in r.answer)) return r.answer.error;
  const { status, type, errorCode } = r.answer;
  return `${status}${type ? ` ${type}` : ''}${errorCode ? ` ${errorCode}` : ''}`;
}

function refusalOf(r: InspectRecord): string {
  if (!r.refused) return '';
  const although = r.verdict.passed
    ? ' although every check of inspect passed: the gateway knows something these checks do not; read its answer'
    : '';
  return (
    '<div class="failure refused" data-check="answer"><h4>✗ refused</h4>' +
    `<p class="problem">${html(r.refused)}${although}.</p></div>`
  );
}

/** A request passed when every check passed and the gateway accepted it. */
export const passedAll = (r: InspectRecord): boolean => r.verdict.passed && r.refused === undefined;

function rowOf(r: InspectRecord): string {
  const failures = failedChecks(r.verdict).map(failureOf).join('\n');
  const details = failures + refusalOf(r);
  const cells = `<td>#${r.seq}</td><td>${html(r.at)}</td><td>${html(answerOf(r))}</td>`;
  const more = details ? `<tr class="details"><td colspan="${3 + REQUEST_RULES.length}">${details}</td></tr>` : '';
  return `<tr class="${passedAll(r) ? 'ok' : 'bad'}">${cells}${r.verdict.checks.map(markOf).join('')}</tr>${more}`;
}

function sectionOf(operation: string, records: readonly InspectRecord[]): string {
  const heads = REQUEST_RULES.map((rule) => `<th title="${html(rule.clause)}">${html(rule.title)}</th>`).join('');
  return (
    `<section><h2>${html(operation)}</h2><table><thead><tr><th class="request">request</th>` +
    `<th class="time">time</th><th class="answer">answer</th>${heads}</tr></thead>` +
    `<tbody>${records.map(rowOf).join('\n')}</tbody></table></section>`
  );
}

const STYLE = [
  'body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}',
  'table{border-collapse:collapse;margin:1em 0;table-layout:fixed;width:100%}',
  'td,th{border:1px solid #ccc;padding:4px 6px;font-size:12px;vertical-align:top;overflow-wrap:anywhere}',
  'th.request{width:4em}th.time{width:11em}th.answer{width:9em}',
  'td.pass{color:#0a0;text-align:center}td.fail{color:#fff;background:#c00;text-align:center}',
  'td.skip{color:#999;text-align:center}tr.bad>td:first-child{border-left:4px solid #c00}',
  '.failure{border-left:4px solid #c00;padding:.3em 1em;margin:.5em 0;background:#fff5f5}',
  '.sides{display:flex;gap:1em}.side{flex:1;min-width:0}',
  'pre{white-space:pre-wrap;word-break:break-all;background:#f6f6f6;padding:.5em}',
  '.verdict-pass{color:#0a0}.verdict-fail{color:#c00}',
  '.cause{border-left:4px solid #c00;padding:.2em 1em;margin:.5em 0}',
  '.not-judged{border-left:4px solid #999;padding:.3em 1em;margin:.5em 0;background:#f6f6f6}',
  '.critical{color:#fff;background:#600;padding:0 .3em}.failure.critical,.cause.critical{border-left:8px solid #600}',
].join('\n');

const upperFirst = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

function verdictOf(summary: InspectSummary, meta: InspectMeta, noRequest: string): string {
  if (summary.requests === 0)
    return `<p id="verdict" class="verdict-fail"><strong>${html(upperFirst(noRequest))}.</strong></p>`;
  const passed = summary.failed === 0 && summary.callbackOrdersFailed === 0 && summary.returnOrdersFailed === 0;
  const refused = summary.refusedOnly
    ? ` or were refused by the gateway (${summary.refusedOnly} of them passed every check)`
    : '';
  const callbacks = meta.callbackChecks
    ? ` Callbacks of ${summary.callbackOrders} orders played: ${summary.callbackOrdersFailed} failed.` +
      callbackCoverage(summary, meta)
    : '';
  const returns = meta.returnChecks
    ? ` Customer returns of ${summary.returnOrders} orders played: ${summary.returnOrdersFailed} failed.`
    : '';
  // A secret sent leads the page, above the count.
  const critical = summary.critical
    ? `<p id="critical" class="critical"><strong>CRITICAL: ${summary.critical} request(s) sent the merchant control ` +
      'key; replace the key once the integration is fixed.</strong></p>'
    : '';
  return (
    `${critical}<p id="verdict" class="${passed ? 'verdict-pass' : 'verdict-fail'}"><strong>${summary.requests} ` +
    `requests: ${summary.passed} passed every check, ${summary.failed} failed at least one${refused}.` +
    `${callbacks}${returns}</strong></p>`
  );
}

/** What of the callback checks was not played or not judged, so a pass is never read into them. */
function callbackCoverage(summary: InspectSummary, meta: InspectMeta): string {
  const notPlayed = summary.callbackChecksNotPlayed
    ? ` ${summary.callbackChecksNotPlayed} callback checks not played (see each order).`
    : '';
  const state = meta.callbackState
    ? ` What each did was judged by the shop's state (${html(meta.callbackState)}).`
    : summary.callbackChecksNotJudged
      ? ` ${summary.callbackChecksNotJudged} callback checks judged by the handler's answers alone: without ` +
        '--callback-state, what they did to what is paid was not judged.'
      : '';
  return `${notPlayed}${state}`;
}

/** A session ended by a signal says so: what was under way then was cut and is not in the report. */
function interruptionOf(meta: InspectMeta): string {
  if (meta.interrupted !== true) return '';
  return (
    `<p id="interrupted"><strong>Interrupted by ${html(meta.stoppedBy ?? 'a signal')}:</strong> requests and ` +
    'callbacks still under way then were cut and are not in this report.</p>'
  );
}

function checklistOf({ coverage: c }: InspectSummary): string {
  const unpolled = c.asyncAnswers > c.polled ? ' — poll status until a final state for every order' : '';
  const exercised = `${c.exercised.length} of ${c.exercised.length + c.never.length}`;
  return `<h2>Go-live checklist</h2>
<p>Operations exercised (${exercised}): ${html(c.exercised.join(', ') || 'none')}</p>
<p>Never exercised: ${html(c.never.join(', ') || 'none')}</p>
<p>Status polled after an asynchronous answer: ${c.polled} of ${c.asyncAnswers} orders${unpolled}.</p>`;
}

export function htmlOf(
  records: readonly InspectRecord[],
  summary: InspectSummary,
  meta: InspectMeta,
  noRequest: string,
  callbacks: readonly CallbackRecord[],
  customerSteps: readonly CustomerStep[],
  returns: readonly ReturnRecord[] = [],
): string {
  const byOperation = new Map<string, InspectRecord[]>();
  for (const r of records) {
    const key = r.verdict.operation ?? 'unknown endpoint';
    byOperation.set(key, [...(byOperation.get(key) ?? []), r]);
  }
  const sections = [...byOperation].map(([operation, rs]) => sectionOf(operation, rs)).join('\n');
  return htmlPage({
    title: 'payconform inspect report',
    style: STYLE,
    body: `<h1>payconform inspect</h1>
<p>Target: ${html(meta.target)} · ${html(meta.startedAt)} to ${html(meta.finishedAt)}</p>
${verdictOf(summary, meta, noRequest)}
${interruptionOf(meta)}
${causesSection(summary.causes, 'Failures by mistake')}
${checklistOf(summary)}
${sections}
${customerSection(customerSteps)}
${callbackSection(callbacks, meta.callbackChecks === true)}
${callbackSection(returns, meta.returnChecks === true, RETURN_KIND)}`,
  });
}
