/**
 * JUnit has no warning status, and cucumber's junit.xml knows nothing of ours: after the run the
 * bundle's junit.xml gets, on its testsuite, properties with the verdict and the warning count per
 * assumption id, and a system-out with one line per warning naming its scenario. CI dashboards show
 * both without mistaking a warning for a pass or a failure.
 */
import type { Summary } from './bundle.ts';
import { warningLine } from './findings.ts';
import { withSkipReasons } from './junit-skipped.ts';
import { xmlText } from './xml.ts';

/** `xml` (cucumber's junit.xml, one testsuite) with the run's verdict and warnings added. */
export function withWarnings(given: string, summary: Summary): string {
  const xml = withSkipReasons(given, summary.notApplicable);
  const open = /<testsuite\b[^>]*>/.exec(xml);
  const close = xml.lastIndexOf('</testsuite>');
  if (open === null || close < 0) return xml;
  const property = (name: string, value: string | number): string =>
    `    <property name="${xmlText(name)}" value="${xmlText(String(value))}"/>`;
  const properties = [
    '  <properties>',
    property('payconform.status', summary.status),
    property('payconform.warnings', summary.warnings.total),
    ...Object.entries(summary.warnings.byAssumption).map(([id, n]) => property(`payconform.warnings.${id}`, n)),
    property('payconform.notApplicable', summary.totals.notApplicable),
    ...(summary.coverage
      ? [
          property('payconform.coverage.exercised', summary.coverage.exercised.length),
          property('payconform.coverage.selected', summary.coverage.selected),
        ]
      : []),
    '  </properties>',
  ].join('\n');
  const lines = summary.warnings.list.map((w) => `WARNING ${warningLine(w)} — ${w.scenario} (${w.uri})`);
  const out = lines.length ? `  <system-out>${xmlText(lines.join('\n'))}</system-out>\n` : '';
  const at = open.index + open[0].length;
  return `${xml.slice(0, at)}\n${properties}${xml.slice(at, close)}${out}${xml.slice(close)}`;
}
