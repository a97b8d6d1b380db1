/**
 * The inspect report: report.json (every request, every check), junit.xml (one test case per
 * request × check), report.html (for the merchant's developer: per endpoint, each failure with its
 * clause, fix and, for signatures, the diagnosis with the correct and the sent base string side by
 * side) and manifest.json (SHA-256 of each file). Records are already redacted (listener.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENDPOINTS, OP } from '../catalogue/index.ts';
import { manifestOf } from '../report/bundle.ts';
import { MISTAKES } from '../signing/diagnose/index.ts';
import { firstDifference } from '../signing/first-difference.ts';
import { REQUEST_RULES } from '../rules/book.ts';

const CHECK_IDS = REQUEST_RULES.map((r) => r.id);
const CHECKS = Object.fromEntries(
  REQUEST_RULES.map((r) => [r.id, { title: r.title, clause: r.clause, basis: r.basis, hint: r.hint }]),
) as Record<string, { title: string; clause: string; basis: string; hint: string }>;
import type { InspectRecord } from './listener.ts';
import type { CallbackRecord } from './callback-checks.ts';
import { callbackFailures, callbackJunitCases, callbackSection } from './callback-report.ts';
import { customerLine, customerSection, type CustomerStep } from './customer-steps.ts';
import { xml } from './xml-text.ts';

export interface Coverage {
  readonly exercised: readonly string[];
  readonly never: readonly string[];
  /** Async answers whose order was later asked for with status, out of all async answers. */
  readonly asyncAnswers: number;
  readonly polled: number;
}

export interface InspectSummary {
  readonly requests: number;
  readonly passed: number;
  readonly failed: number;
  /** Requests that passed every check but the gateway refused (or did not answer): among the failed. */
  readonly refusedOnly: number;
  readonly failedChecks: Readonly<Record<string, number>>;
  readonly coverage: Coverage;
  /** Orders whose callbacks were played (--callback-checks), and how many of them failed a check. */
  readonly callbackOrders: number;
  readonly callbackOrdersFailed: number;
}

/** Every name an inspect run writes into its folder: what --force may replace (report-dir.ts). */
export const INSPECT_RUN_FILES: ReadonlySet<string> = new Set([
  'report.html',
  'report.json',
  'junit.xml',
  'manifest.json',
]);

/** What a run that no request reached says, in the console and the report: exit 1 alone would not tell why. */
export function noRequestLine(meta: Pick<InspectMeta, 'startedAt' | 'finishedAt' | 'url'>): string {
  const seconds = Math.round((Date.parse(meta.finishedAt) - Date.parse(meta.startedAt)) / 1000);
  return (
    `no request reached inspect in ${seconds} s: nothing was ` +
    `judged${meta.url ? ` (point your integration at ${meta.url})` : ''}`
  );
}

const ASYNC_TYPES = new Set(['async-response', 'async-form-response']);

export function coverageOf(records: readonly InspectRecord[]): Coverage {
  const exercised = new Set(records.map((r) => r.verdict.operation).filter((op): op is string => op !== undefined));
  const asyncOrders = records.flatMap((r) =>
    'status' in r.answer && r.answer.type !== undefined && ASYNC_TYPES.has(r.answer.type) && r.answer.paynetOrderId
      ? [{ seq: r.seq, id: r.answer.paynetOrderId }]
      : [],
  );
  // A status request names the gateway's order id in `orderid`; only the answer's id is kept, so
  // the status answer's own paynet-order-id (the same order) tells which order was polled.
  const polledIds = new Set(
    records
      .filter((r) => r.verdict.operation === OP.STATUS && 'status' in r.answer && r.answer.paynetOrderId)
      .map((r) => ('status' in r.answer ? r.answer.paynetOrderId : undefined)),
  );
  return {
    exercised: ENDPOINTS.map((e) => e.operation).filter((op) => exercised.has(op)),
    never: ENDPOINTS.map((e) => e.operation).filter((op) => !exercised.has(op)),
    asyncAnswers: asyncOrders.length,
    polled: asyncOrders.filter((o) => polledIds.has(o.id)).length,
  };
}

export function summarizeInspect(
  records: readonly InspectRecord[],
  callbacks: readonly CallbackRecord[] = [],
): InspectSummary {
  const failedChecks: Record<string, number> = {};
  for (const r of records)
    for (const c of r.verdict.checks) if (c.outcome === 'fail') failedChecks[c.id] = (failedChecks[c.id] ?? 0) + 1;
  const passed = records.filter(passedAll).length;
  const refusedOnly = records.filter((r) => r.verdict.passed && r.refused !== undefined).length;
  return {
    requests: records.length,
    passed,
    failed: records.length - passed,
    refusedOnly,
    failedChecks,
    coverage: coverageOf(records),
    callbackOrders: callbacks.length,
    callbackOrdersFailed: callbacks.filter((r) => !r.passed).length,
  };
}

/** A request passed when every check passed and the gateway accepted it. */
const passedAll = (r: InspectRecord): boolean => r.verdict.passed && r.refused === undefined;

/** The console line of a request: number, operation, verdict and the first problem. */
export function recordLine(r: InspectRecord): string {
  const first = r.verdict.checks.find((c) => c.outcome === 'fail');
  const status = 'status' in r.answer ? String(r.answer.status) : 'no answer';
  const verdict = first
    ? `FAIL ${first.id}: ${first.message ?? CHECKS[first.id].title}`
    : r.refused
      ? `every check passed, but REFUSED: ${r.refused}; read its answer`
      : 'pass';
  return `#${r.seq} ${r.verdict.operation ?? r.path} → ${status}: ${verdict}`;
}

const html = xml;

function junitOf(
  records: readonly InspectRecord[],
  callbacks: readonly CallbackRecord[],
  customerSteps: readonly CustomerStep[],
): string {
  const cases = records
    .flatMap((r) => {
      const classname = xml(`request ${r.seq} ${r.verdict.operation ?? r.path}`);
      const checks = r.verdict.checks.map((c) => {
        const name = `${CHECKS[c.id].title} [${c.id}]`;
        const body =
          c.outcome === 'fail'
            ? `<failure message="${xml(c.message ?? '')}">${xml(`${CHECKS[c.id].clause}\nfix: ${CHECKS[c.id].hint}`)}</failure>`
            : c.outcome === 'skip'
              ? `<skipped message="${xml(c.message ?? '')}"/>`
              : '';
        return `    <testcase classname="${classname}" name="${xml(name)}" time="0">${body}</testcase>`;
      });
      // The gateway's own verdict beside inspect's: a refusal fails the request whatever the checks say.
      const accepted =
        `    <testcase classname="${classname}" name="accepted by the gateway [answer]" ` +
        `time="0">${r.refused ? `<failure message="${xml(r.refused)}"/>` : ''}</testcase>`;
      return [...checks, accepted];
    })
    .concat(callbackJunitCases(callbacks));
  const failures =
    records.reduce((n, r) => n + r.verdict.checks.filter((c) => c.outcome === 'fail').length + (r.refused ? 1 : 0), 0) +
    callbackFailures(callbacks);
  const skipped = records.reduce((n, r) => n + r.verdict.checks.filter((c) => c.outcome === 'skip').length, 0);
  // The customer's steps are context, not test cases: the suite's output carries them.
  const customerOut =
    customerSteps.length === 0
      ? ''
      : `    <system-out>${xml(customerSteps.map(customerLine).join('\n'))}</system-out>\n`;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n  <testsuite name="payconform inspect" ` +
    `tests="${cases.length}" failures="${failures}" skipped="${skipped}" ` +
    `errors="0">\n${cases.join('\n')}\n${customerOut}  </testsuite>\n</testsuites>\n`
  );
}

const mistakeOf = (id: string) => MISTAKES.find((m) => m.id === id);

function htmlOf(
  records: readonly InspectRecord[],
  summary: InspectSummary,
  meta: InspectMeta,
  callbacks: readonly CallbackRecord[],
  customerSteps: readonly CustomerStep[],
): string {
  const byOperation = new Map<string, InspectRecord[]>();
  for (const r of records) {
    const key = r.verdict.operation ?? 'unknown endpoint';
    byOperation.set(key, [...(byOperation.get(key) ?? []), r]);
  }
  const sections = [...byOperation]
    .map(([operation, rs]) => {
      const rows = rs
        .map((r) => {
          const failures = r.verdict.checks
            .filter((c) => c.outcome === 'fail')
            .map((c) => {
              const sig = c.signature;
              const diagnoses = (sig?.diagnoses ?? [])
                .map((id) => {
                  const m = mistakeOf(id);
                  return `<li><strong>${html(id)}</strong>${
                    m ? `: ${html(m.explanation)} ` + `<em>Fix:</em> ${html(m.fix)}` : ''
                  }</li>`;
                })
                .join('');
              const textOf = (
                v: { baseString?: string | undefined; controlInput?: string | undefined } | undefined,
              ): string | undefined => v?.baseString ?? v?.controlInput;
              // The first character where what was signed departs from what should have been, marked on both sides.
              const at =
                textOf(sig?.correct) !== undefined && textOf(sig?.sent) !== undefined
                  ? firstDifference(textOf(sig?.correct)!, textOf(sig?.sent)!)?.position
                  : undefined;
              const marked = (text: string): string =>
                at === undefined
                  ? html(text)
                  : `${html(text.slice(0, at))}<mark ` +
                    `class="first-difference">${html(text[at] ?? '∅')}</mark>${html(text.slice(at + 1))}`;
              const side = (
                label: string,
                v: { baseString?: string | undefined; controlInput?: string | undefined } | undefined,
              ): string =>
                textOf(v) !== undefined
                  ? `<div class="side"><h5>${label}${
                      at === undefined ? '' : ` <small>(first difference at ` + `character ${at + 1})</small>`
                    }</h5><pre>${marked(textOf(v)!)}</pre></div>`
                  : '';
              return `<div class="failure" data-check="${html(c.id)}"><h4>✗ ${html(CHECKS[c.id].title)}</h4>
<p class="problem">${html(c.message ?? '')}</p>
<p class="clause">Rule: ${html(CHECKS[c.id].clause)}</p>
<p class="hint">Fix: ${html(CHECKS[c.id].hint)}</p>
${
  diagnoses
    ? `<p>Diagnosis (the mistake that reproduces the value sent):</p><ul ` + `class="diagnoses">${diagnoses}</ul>`
    : ''
}
${sig ? `<div class="sides">${side('correct (what the gateway computes)', sig.correct)}${side('sent (what your code signed)', sig.sent)}</div>` : ''}
${
  sig?.explanation
    ? `<details class="explanation"><summary>The correct signature, step by ` +
      `step</summary><pre>${html(sig.explanation)}</pre></details>`
    : ''
}</div>`;
            })
            .join('\n');
          const marks = r.verdict.checks
            .map(
              (c) =>
                `<td class="${c.outcome}" ` +
                `title="${html(`${CHECKS[c.id].title}: ${c.message ?? c.outcome}`)}">${c.outcome === 'pass' ? '✓' : c.outcome === 'fail' ? '✗' : '–'}</td>`,
            )
            .join('');
          const answer =
            'status' in r.answer
              ? `${r.answer.status}${r.answer.type ? ` ${r.answer.type}` : ''}${r.answer.errorCode ? ` ${r.answer.errorCode}` : ''}`
              : r.answer.error;
          const refusal = r.refused
            ? `<div class="failure refused" data-check="answer"><h4>✗ refused</h4><p ` +
              `class="problem">${html(r.refused)}${r.verdict.passed ? ' although every check of inspect passed: the gateway knows something these checks do not; read its answer' : ''}.</p></div>`
            : '';
          const details = failures + refusal;
          return `<tr class="${passedAll(r) ? 'ok' : 'bad'}"><td>#${r.seq}</td><td>${html(r.at)}</td><td>${html(answer)}</td>${marks}</tr>${
            details ? `<tr class="details"><td ` + `colspan="${3 + CHECK_IDS.length}">${details}</td></tr>` : ''
          }`;
        })
        .join('\n');
      return (
        `<section><h2>${html(operation)}</h2><table><thead><tr><th class="request">request</th><th ` +
        `class="time">time</th><th ` +
        `class="answer">answer</th>${CHECK_IDS.map((id) => `<th title="${html(CHECKS[id].clause)}">${html(CHECKS[id].title)}</th>`).join('')}</tr></thead><tbody>${rows}</tbody></table></section>`
      );
    })
    .join('\n');
  const c = summary.coverage;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>payconform inspect report</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0;table-layout:fixed;width:100%}td,th{border:1px solid #ccc;padding:4px 6px;font-size:12px;vertical-align:top;overflow-wrap:anywhere}
th.request{width:4em}th.time{width:11em}th.answer{width:9em}
td.pass{color:#0a0;text-align:center}td.fail{color:#fff;background:#c00;text-align:center}td.skip{color:#999;text-align:center}tr.bad>td:first-child{border-left:4px solid #c00}
.failure{border-left:4px solid #c00;padding:.3em 1em;margin:.5em 0;background:#fff5f5}.sides{display:flex;gap:1em}.side{flex:1;min-width:0}pre{white-space:pre-wrap;word-break:break-all;background:#f6f6f6;padding:.5em}
.verdict-pass{color:#0a0}.verdict-fail{color:#c00}
</style></head><body>
<h1>payconform inspect</h1>
<p>Target: ${html(meta.target)} · ${html(meta.startedAt)} to ${html(meta.finishedAt)}</p>
${
  summary.requests === 0
    ? `<p id="verdict" ` + `class="verdict-fail"><strong>${html(upperFirst(noRequestLine(meta)))}.</strong></p>`
    : `<p id="verdict" ` +
      `class="${summary.failed === 0 && summary.callbackOrdersFailed === 0 ? 'verdict-pass' : 'verdict-fail'}"><strong>${summary.requests} requests: ${summary.passed} passed every check, ${summary.failed} failed at least one${summary.refusedOnly ? ` or were refused by the gateway (${summary.refusedOnly} of them passed every check)` : ''}.${meta.callbackChecks ? ` Callbacks of ${summary.callbackOrders} orders played: ${summary.callbackOrdersFailed} failed.` : ''}</strong></p>`
}
<h2>Go-live checklist</h2>
<p>Operations exercised (${c.exercised.length} of ${c.exercised.length + c.never.length}): ${html(c.exercised.join(', ') || 'none')}</p>
<p>Never exercised: ${html(c.never.join(', ') || 'none')}</p>
<p>Status polled after an asynchronous answer: ${c.polled} of ${c.asyncAnswers} orders${
    c.asyncAnswers > c.polled ? ' — poll status until a final state ' + 'for every order' : ''
  }.</p>
${sections}
${customerSection(customerSteps)}
${callbackSection(callbacks, meta.callbackChecks === true)}
</body></html>
`;
}

export interface InspectMeta {
  readonly target: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  /** --callback-checks was given: the report has a callback section even when no order was final. */
  readonly callbackChecks?: boolean;
  /** Where inspect listened: a report of a run no request reached tells where they should have gone. */
  readonly url?: string;
}

const upperFirst = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** Writes the report in `dir` and returns its summary; the customer's steps are shown, never counted. */
export function writeInspectReport(
  dir: string,
  records: readonly InspectRecord[],
  meta: InspectMeta & { version: string },
  callbacks: readonly CallbackRecord[] = [],
  customerSteps: readonly CustomerStep[] = [],
): InspectSummary {
  mkdirSync(dir, { recursive: true });
  const summary = summarizeInspect(records, callbacks);
  const json = {
    tool: 'payconform inspect',
    ...meta,
    summary,
    checks: CHECKS,
    requests: records,
    customerSteps,
    ...(meta.callbackChecks ? { callbacks } : {}),
  };
  writeFileSync(join(dir, 'report.json'), `${JSON.stringify(json, null, 2)}\n`);
  writeFileSync(join(dir, 'junit.xml'), junitOf(records, callbacks, customerSteps));
  writeFileSync(join(dir, 'report.html'), htmlOf(records, summary, meta, callbacks, customerSteps));
  writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifestOf(dir), null, 2)}\n`);
  return summary;
}
