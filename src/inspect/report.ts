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
import { xmlText } from '../report/xml.ts';
import { CALLBACK_HANDLER_RULES, REQUEST_RULES, RETURN_HANDLER_RULES } from '../rules/book.ts';
import type { InspectRecord } from './listener.ts';
import type { CallbackRecord } from './callback-checks.ts';
import {
  callbackFailures,
  callbackJunitCases,
  callbackNotJudged,
  callbackSkips,
  RETURN_KIND,
} from './callback-report.ts';
import type { ReturnRecord } from './return-checks.ts';
import { inspectCauses } from './causes.ts';
import { customerLine, type CustomerStep } from './customer-steps.ts';
import { failedChecks } from './inspector.ts';
import { htmlOf, passedAll } from './report-html.ts';
import type { Coverage, InspectMeta, InspectSummary } from './report-model.ts';
import { ruleOf } from './rule-info.ts';

export type { Coverage, InspectMeta, InspectSummary };

/** What report.json says of each rule it names: the book's words (a report reader needs no other). */
const CHECKS = Object.fromEntries(
  [...REQUEST_RULES, ...CALLBACK_HANDLER_RULES, ...RETURN_HANDLER_RULES].map((r) => [
    r.id,
    {
      title: r.title,
      clause: r.clause,
      basis: r.basis,
      hint: r.hint,
      ...('severity' in r && r.severity !== undefined ? { severity: r.severity } : {}),
    },
  ]),
);

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
  returns: readonly ReturnRecord[] = [],
): InspectSummary {
  const failedCount: Record<string, number> = {};
  for (const r of records)
    for (const c of r.verdict.checks) if (c.outcome === 'fail') failedCount[c.id] = (failedCount[c.id] ?? 0) + 1;
  const passed = records.filter(passedAll).length;
  const refusedOnly = records.filter((r) => r.verdict.passed && r.refused !== undefined).length;
  return {
    requests: records.length,
    passed,
    failed: records.length - passed,
    refusedOnly,
    critical: records.filter((r) => r.verdict.critical).length,
    failedChecks: failedCount,
    coverage: coverageOf(records),
    callbackOrders: callbacks.length,
    callbackOrdersFailed: callbacks.filter((r) => !r.passed).length,
    callbackChecksNotPlayed: callbackSkips(callbacks),
    callbackChecksNotJudged: callbackNotJudged(callbacks),
    returnOrders: returns.length,
    returnOrdersFailed: returns.filter((r) => !r.passed).length,
    causes: inspectCauses(records),
  };
}

/** The console line of a request: number, operation, verdict and the first problem (a critical one first). */
export function recordLine(r: InspectRecord): string {
  const first = failedChecks(r.verdict)[0];
  const status = 'status' in r.answer ? String(r.answer.status) : 'no answer';
  const verdict = first
    ? `${first.critical ? 'CRITICAL ' : ''}FAIL ${first.id}: ${first.message ?? ruleOf(first.id).title}`
    : r.refused
      ? `every check passed, but REFUSED: ${r.refused}; read its answer`
      : 'pass';
  return `#${r.seq} ${r.verdict.operation ?? r.path} → ${status}: ${verdict}`;
}

function junitOf(
  records: readonly InspectRecord[],
  callbacks: readonly CallbackRecord[],
  customerSteps: readonly CustomerStep[],
  returns: readonly ReturnRecord[],
): string {
  const cases = records
    .flatMap((r) => {
      const classname = xmlText(`request ${r.seq} ${r.verdict.operation ?? r.path}`);
      // A critical failure is the request's first test case, its failure typed and its message saying so.
      const failed = failedChecks(r.verdict);
      const ordered = [...failed, ...r.verdict.checks.filter((c) => c.outcome !== 'fail')];
      const checks = ordered.map((c) => {
        const rule = ruleOf(c.id);
        const name = `${rule.title} [${c.id}]`;
        const critical = c.critical ? ' type="critical"' : '';
        const message = `${c.critical ? 'CRITICAL: ' : ''}${c.message ?? ''}`;
        const why = xmlText(`${rule.clause}\nfix: ${rule.hint}`);
        const body =
          c.outcome === 'fail'
            ? `<failure message="${xmlText(message)}"${critical}>${why}</failure>`
            : c.outcome === 'skip'
              ? `<skipped message="${xmlText(c.message ?? '')}"/>`
              : '';
        return `    <testcase classname="${classname}" name="${xmlText(name)}" time="0">${body}</testcase>`;
      });
      // The gateway's own verdict beside inspect's: a refusal fails the request whatever the checks say.
      const accepted =
        `    <testcase classname="${classname}" name="accepted by the gateway [answer]" ` +
        `time="0">${r.refused ? `<failure message="${xmlText(r.refused)}"/>` : ''}</testcase>`;
      return [...checks, accepted];
    })
    .concat(callbackJunitCases(callbacks), callbackJunitCases(returns, RETURN_KIND));
  const failures =
    records.reduce((n, r) => n + r.verdict.checks.filter((c) => c.outcome === 'fail').length + (r.refused ? 1 : 0), 0) +
    callbackFailures(callbacks) +
    callbackFailures(returns);
  const skipped =
    records.reduce((n, r) => n + r.verdict.checks.filter((c) => c.outcome === 'skip').length, 0) +
    callbackSkips(callbacks);
  // The customer's steps are context, not test cases: the suite's output carries them.
  const customerOut =
    customerSteps.length === 0
      ? ''
      : `    <system-out>${xmlText(customerSteps.map(customerLine).join('\n'))}</system-out>\n`;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n  <testsuite name="payconform inspect" ` +
    `tests="${cases.length}" failures="${failures}" skipped="${skipped}" ` +
    `errors="0">\n${cases.join('\n')}\n${customerOut}  </testsuite>\n</testsuites>\n`
  );
}

/** Writes the report in `dir` and returns its summary; the customer's steps are shown, never counted. */
export function writeInspectReport(
  dir: string,
  records: readonly InspectRecord[],
  meta: InspectMeta & { version: string },
  callbacks: readonly CallbackRecord[] = [],
  customerSteps: readonly CustomerStep[] = [],
  returns: readonly ReturnRecord[] = [],
): InspectSummary {
  mkdirSync(dir, { recursive: true });
  const summary = summarizeInspect(records, callbacks, returns);
  const json = {
    tool: 'payconform inspect',
    ...meta,
    summary,
    checks: CHECKS,
    requests: records,
    customerSteps,
    ...(meta.callbackChecks ? { callbacks } : {}),
    ...(meta.returnChecks ? { returns } : {}),
  };
  writeFileSync(join(dir, 'report.json'), `${JSON.stringify(json, null, 2)}\n`);
  writeFileSync(join(dir, 'junit.xml'), junitOf(records, callbacks, customerSteps, returns));
  writeFileSync(
    join(dir, 'report.html'),
    htmlOf(records, summary, meta, noRequestLine(meta), callbacks, customerSteps, returns),
  );
  writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifestOf(dir), null, 2)}\n`);
  return summary;
}
