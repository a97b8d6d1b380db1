/**
 * report.html of a certify bundle: the certificate a merchant hands over. The verdict first; what
 * was certified (target, merchant, endpoint ids, times, versions, the spec's hash, profile,
 * selection); a matrix of endpoints × kinds of check; every failure with its message, the redacted
 * exchanges and curl, and the fix of its rule; warnings under their assumption; scenarios that did
 * not apply; a go-live checklist. Self-contained (no network), printable, readable on a phone.
 * Everything in it comes from the bundle's messages, which are redacted before they are written.
 */
import { ENDPOINTS } from '../catalogue/index.ts';
import type { Summary } from './bundle.ts';
import { verdictNote } from './coverage-verdict.ts';
import { coverageSection } from './coverage-page.ts';
import { DEVIATION_PREFIX, type Warning } from './findings.ts';
import { causesSection } from './causes-html.ts';
import type { Cause } from './causes.ts';
import { findingOf, ruleOfScenario } from './causes.ts';
import { failureMessage } from './failure-message.ts';
import { escapeHtml as esc, htmlPage } from './html.ts';
import { prerequisiteFix } from './prerequisite-refusal.ts';
import type { ScenarioResult } from './run-record.ts';
import type { RunProof } from './proof.ts';
import { proofSection } from './proof-html.ts';

export { failureMessage };

export interface CertificationFacts {
  readonly target: string;
  /** Shown partly masked. */
  readonly merchantLogin?: string | undefined;
  /** The login in full, where known: shown masked wherever an exchange quotes it (an OAuth consumer key). */
  readonly loginInExchanges?: string | undefined;
  readonly endpointIds: readonly string[];
  readonly payconform: string;
  readonly specSha256: string;
  readonly profile: string;
  /**
   * The spec clauses the gateway profile departs from ("key: clause"); their checks are warnings under "profile <key>".
   */
  readonly deviations: readonly string[];
  readonly selection: string;
  readonly shard: string | null;
  readonly strict: boolean;
  readonly live: boolean;
  readonly interrupted: boolean;
  /** Rule id → its clause and fix (docs/rules.md), for failures that name a rule. */
  readonly rules: Readonly<Record<string, { readonly clause: string; readonly hint: string }>>;
  /** Assumption id → what it assumes (docs/assumptions.md), for the warnings. */
  readonly assumptions: Readonly<Record<string, string>>;
  /** The failures grouped by their first cause (causes.ts), largest first: the page leads with them. */
  readonly causes?: readonly Cause[] | undefined;
  /** For each passed check, the broken gateways it fails against (proof.ts); no section without it. */
  readonly proof?: RunProof | undefined;
}

/** The kinds of check of the matrix, by the tag a generated scenario carries; the rest are flows. */
const KINDS: ReadonlyArray<readonly [string, string]> = [
  ['@positive', 'accepted'],
  ['@negative:accept-missing', 'no Accept'],
  ['@negative:accept-wrong', 'wrong Accept'],
  ['@negative:signature-missing', 'no signature'],
  ['@negative:signature-wrong', 'wrong signature'],
  ['@negative:field-missing', 'field missing'],
  ['', 'flows and other'],
];

type Cell = 'pass' | 'fail' | 'warn' | 'na' | 'none';
const MARK: Record<Cell, string> = { pass: '✓', fail: '✗', warn: '!', na: 'n/a', none: '' };

/** `payconform-test-merchant` as `pay…nt`: enough to recognise, not to reuse. */
export const maskLogin = (login: string): string =>
  login.length <= 4 ? '…' : `${login.slice(0, 3)}…${login.slice(-2)}`;

function matrix(results: readonly ScenarioResult[]): string {
  const cells = new Map<string, { endpoint: string; cell: Cell; n: number }>();
  const rank: Cell[] = ['fail', 'warn', 'pass', 'na', 'none'];
  for (const r of results) {
    const endpoint = r.tags.find((t) => t.startsWith('@endpoint:'))?.slice('@endpoint:'.length);
    if (endpoint === undefined) continue;
    const kind = KINDS.find(([tag]) => tag !== '' && r.tags.includes(tag))?.[0] ?? '';
    const failing = r.outcome === 'failed' || r.outcome === 'ambiguous' || r.outcome === 'undefined';
    const cell: Cell = failing
      ? 'fail'
      : r.notApplicable !== undefined
        ? 'na'
        : r.warnings.length > 0
          ? 'warn'
          : r.outcome === 'passed'
            ? 'pass'
            : 'na';
    const key = `${endpoint} ${kind}`;
    const was = cells.get(key);
    cells.set(key, {
      endpoint,
      cell: was === undefined || rank.indexOf(cell) < rank.indexOf(was.cell) ? cell : was.cell,
      n: (was?.n ?? 0) + 1,
    });
  }
  const endpoints = [...new Set([...cells.values()].map((c) => c.endpoint))].sort();
  const head = `<tr><th>endpoint</th>${KINDS.map(([, label]) => `<th>${esc(label)}</th>`).join('')}</tr>`;
  const rows = endpoints
    .map(
      (ep) =>
        `<tr><th>${esc(ep)}</th>${KINDS.map(([tag, label]) => {
          const c = cells.get(`${ep} ${tag}`);
          const cell = c?.cell ?? 'none';
          const title = `${ep}, ${label}: ${c ? `${c.n} scenario${c.n === 1 ? '' : 's'}, ${cell}` : 'no scenario'}`;
          return `<td class="${cell}" title="${esc(title)}">${MARK[cell]}</td>`;
        }).join('')}</tr>`,
    )
    .join('\n');
  return (
    `<div class="scroll"><table id="matrix"><thead>${head}</thead><tbody>${rows}</tbody></table></div>
<p class="legend">✓ passed · ✗ failed · ! passed with a warning · n/a not applicable here · ` +
    `empty: no such scenario</p>`
  );
}

/** The tags a failure shows: its endpoint and kind of check. */
const shownTag = (tag: string): boolean =>
  tag.startsWith('@endpoint:') || tag.startsWith('@negative') || tag === '@positive';

const exchangeDetails = (text: string): string =>
  `<details><summary>exchange and curl (redacted)</summary><pre>${esc(text)}</pre></details>`;

const STYLE = `
body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1300px;padding:1.5em;color:#1d1d1d}
h1{font-size:1.4em;margin:0 0 .3em}h2{margin-top:1.6em;border-bottom:1px solid #ddd}
#verdict{font-size:1.6em;font-weight:700;padding:.5em .8em;border-radius:6px;color:#fff}
.v-passed{background:#137a2a}.v-passed-with-warnings{background:#8a6d00}
.v-failed{background:#b00020}.v-interrupted{background:#555}
.v-partial,.v-partial-with-warnings{background:#9a4a00}#coverage .missing{color:#9a4a00}
table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}
.facts th{background:#f4f4f4;font-weight:600;white-space:nowrap}.facts td{word-break:break-all}
.scroll{overflow-x:auto}#matrix td{text-align:center;min-width:4.5em}#matrix th{white-space:nowrap}
td.pass{color:#137a2a}td.fail{background:#b00020;color:#fff;font-weight:700}
td.warn{background:#fff3c4;color:#6b5400;font-weight:700}td.na{color:#777}
.legend{color:#555;font-size:.9em}
.cause{border-left:5px solid #b00020;padding:.2em 1em;margin:1em 0}
.failure{border-left:5px solid #b00020;background:#fff6f7;padding:.4em 1em;margin:1em 0}
pre{white-space:pre-wrap;word-break:break-all;background:#f5f5f5;padding:.6em;font-size:.85em}
.checklist{list-style:none;padding:0}.checklist .todo{color:#b00020}.checklist .ok{color:#137a2a}
#proof .other-version{color:#b00020;font-weight:600}
@media (max-width:600px){body{padding:.6em;font-size:14px}#verdict{font-size:1.2em}.facts th{white-space:normal}}
@media print{body{max-width:none;padding:0}details{display:block}details>summary{display:none}.scroll{overflow:visible}
#verdict{border:2px solid #000;color:#000;background:none!important}
td.fail,td.warn{background:none!important;color:#000}}
`;

const VERDICT: Record<Summary['status'], string> = {
  passed: 'PASS',
  'passed-with-warnings': 'PASS WITH WARNINGS',
  partial: 'PARTIAL',
  'partial-with-warnings': 'PARTIAL WITH WARNINGS',
  failed: 'FAIL',
  interrupted: 'INTERRUPTED',
};

/** The page of a run: its scenarios (the run record's results), its summary and the facts only the suite knows. */
export function certificationPage(
  results: readonly ScenarioResult[],
  summary: Summary,
  facts: CertificationFacts,
): string {
  const status = facts.interrupted ? 'interrupted' : summary.status;
  const missed = verdictNote(summary.coverage).replace(/^; /, ', ');
  const t = summary.totals;
  const failures = results.flatMap((r) =>
    r.failure === undefined ? [] : [{ ...r, message: failureMessage(r.failure), attachments: r.texts ?? [] }],
  );
  const fact = (name: string, value: string): string => `<tr><th>${esc(name)}</th><td>${esc(value)}</td></tr>`;
  // The page shows the login masked; an exchange quotes it (an OAuth consumer key, a login field) in full. A login
  // too short to find safely in text is left as it is.
  const login = facts.loginInExchanges;
  const hideLogin = (text: string): string =>
    login === undefined || login.length < 6 ? text : text.split(login).join(maskLogin(login));
  const failureHtml = failures
    .map((f) => {
      // A refused set-up request is the cause: the scenario's own rule was never put to the test.
      const { prerequisite, rule: checked } = findingOf(f);
      const rule = prerequisite ? undefined : (checked ?? ruleOfScenario(f.tags));
      const known = rule === undefined ? undefined : facts.rules[rule];
      return `<article class="failure"><h3>✗ ${esc(f.name)}</h3>
<p class="where">${esc(f.uri)} · ${esc(f.tags.filter(shownTag).join(' '))}</p>
<pre class="message">${esc(hideLogin(f.message))}</pre>
${prerequisite ? `<p class="fix"><strong>Fix:</strong> ${esc(prerequisiteFix(prerequisite))}</p>` : ''}
${
  known !== undefined && rule !== undefined
    ? `<p class="rule">Rule <code>${esc(rule)}</code>: ${esc(known.clause)}</p><p ` +
      `class="fix"><strong>Fix:</strong> ${esc(known.hint)}</p>`
    : ''
}
${f.attachments.map((text) => exchangeDetails(hideLogin(text))).join('\n')}</article>`;
    })
    .join('\n');
  const byAssumption = new Map<string, Array<Warning & { scenario: string }>>();
  for (const w of summary.warnings.list) byAssumption.set(w.assumption, [...(byAssumption.get(w.assumption) ?? []), w]);
  const warningsHtml = [...byAssumption]
    .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
    .map(
      ([id, ws]) => `<section class="assumption"><h3>${esc(id)} <small>(${ws.length})</small></h3>
<p>${
        id.startsWith(DEVIATION_PREFIX)
          ? `A departure from the spec that the gateway profile declares ` +
            `<em>(docs/certify.md, "Deviations declared by a profile")</em>`
          : `${esc(facts.assumptions[id.split(', ')[0] ?? id] ?? 'see docs/assumptions.md')} ` +
            `<em>(docs/assumptions.md, ${esc(id)})</em>`
      }</p>
<ul>${ws
        .map(
          (w) => `<li>${esc(w.scenario)}: ${esc(w.check)}: expected ${esc(w.expected)}, ` + `got ${esc(w.actual)}</li>`,
        )
        .join('')}</ul></section>`,
    )
    .join('\n');
  const exercised = new Set(Object.keys(summary.endpoints));
  const failingEndpoints = Object.entries(summary.endpoints)
    .filter(([, c]) => c.failed > 0)
    .map(([e]) => e);
  const never = ENDPOINTS.map((e) => e.operation).filter((op) => !exercised.has(op));
  const counted =
    `${t.passed} passed, ${t.failed} failed, ${t.warned} with warnings, ${t.notApplicable} not applicable` +
    (t.other ? `, ${t.other} skipped` : '');
  const notApplicable = summary.notApplicable.map((n) => `<li>${esc(n.name)}: ${esc(n.reason)}</li>`).join('');
  const check = (ok: boolean, text: string): string =>
    `<li class="${ok ? 'ok' : 'todo'}">${ok ? '☑' : '☐'} ${esc(text)}</li>`;
  return htmlPage({
    title: `payconform certification: ${VERDICT[status]} — ${facts.target}`,
    style: STYLE,
    body: `<h1>payconform certification</h1>
${summary.coverage ? coverageSection(summary.coverage) : ''}
<p id="verdict" class="v-${esc(status)}">${esc(VERDICT[status])} — ${counted}${
      facts.deviations.length ? ', with deviations declared by the ' + 'profile' : ''
    }${esc(missed)}</p>
${causesSection(facts.causes ?? [])}
${
  facts.deviations.length
    ? `<section id="deviations"><h2>Deviations declared by the profile ` +
      `(${facts.deviations.length})</h2><p>The profile says this gateway departs from these clauses of the spec; ` +
      `their checks are warnings under "profile &lt;key&gt;", not ` +
      `passes.</p><ul>${facts.deviations.map((d) => `<li>${esc(d)}</li>`).join('')}</ul></section>`
    : ''
}
<table class="facts">
${fact('target', facts.target)}
${facts.merchantLogin === undefined ? '' : fact('merchant login', maskLogin(facts.merchantLogin))}
${fact('endpoint id(s)', facts.endpointIds.join(', ') || '—')}
${fact('started (UTC)', summary.startedAt ?? '—')}
${fact('finished (UTC)', summary.finishedAt ?? '—')}
${fact('payconform', facts.payconform)}
${fact('spec (docs/spec/api-spec.md) SHA-256', facts.specSha256)}
${fact('gateway profile', facts.profile)}
${fact('selection', `${facts.selection}${facts.shard ? `, shard ${facts.shard}` : ''}`)}
${fact(
  'assumptions',
  facts.strict
    ? 'strict: a difference from an assumption fails'
    : 'warn: a difference from an ' + 'assumption is a warning',
)}
${fact('live run', facts.live ? 'yes (test cards and capped amounts only)' : 'no')}
</table>
<h2>Endpoints × checks</h2>
${matrix(results)}
${facts.proof === undefined ? '' : proofSection(facts.proof)}
<h2 id="failures">Failures (${failures.length})</h2>
${failureHtml || '<p>None.</p>'}
<h2 id="warnings">Warnings by assumption (${summary.warnings.total})</h2>
<p>Where the spec is silent the gateway may differ from payconform's assumptions; each is listed, and none fails ${
      facts.strict ? 'the run — except under --strict, as here' : 'the run'
    }.</p>
${warningsHtml || '<p>None.</p>'}
<h2>Not applicable here (${summary.notApplicable.length})</h2>
${notApplicable ? `<ul>${notApplicable}</ul>` : '<p>None.</p>'}
<h2>Go-live checklist</h2>
<ul class="checklist">
${check(
  !facts.interrupted,
  facts.interrupted ? 'the run was interrupted: run it to the end' : 'the run went to the end',
)}
${check(
  failingEndpoints.length === 0,
  failingEndpoints.length ? `fix the failures ` + `of ${failingEndpoints.join(', ')}` : 'no endpoint has a failure',
)}
${check(
  summary.warnings.total === 0,
  summary.warnings.total
    ? `review ${summary.warnings.total} warnings ` + `under ${byAssumption.size} assumptions with the gateway`
    : 'no warning to review',
)}
${check(
  never.length === 0,
  never.length ? `not certified here: ${never.join(', ')}` : 'every endpoint of the catalogue was ' + 'certified',
)}
${check(
  facts.live,
  facts.live
    ? 'run against the live sandbox'
    : 'this run was not against a live sandbox: ' + 'certify there with --live before going live',
)}
</ul>
<p class="legend">The full record is in messages.ndjson; cucumber's own report is cucumber.html;
manifest.json (and manifest.jws, when signed) vouch for every file.</p>
`,
  });
}
