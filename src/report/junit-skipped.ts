/**
 * A scenario that does not apply to this gateway is `<skipped/>` in cucumber's junit.xml, with no
 * word of why: a CI dashboard shows it as a bare skip. Each gets its reason as the element's
 * `message` (`<skipped message="…"/>`, as JUnit's schema has it), so nobody reads it as a pass and
 * everybody reads why (issue 29).
 */

import { xmlAttributeValue, xmlText } from './xml.ts';

/**
 * The JUnit name of a scenario: its own name, or for an example of an outline the naming strategy's
 * longer form that ends with it.
 */
const named = (junitName: string, scenario: string): boolean =>
  junitName === scenario || junitName.endsWith(`: ${scenario}`) || junitName.endsWith(` - ${scenario}`);

/** `xml` with each not-applicable scenario's `<skipped/>` carrying its reason; the first unused match wins. */
export function withSkipReasons(
  xml: string,
  notApplicable: ReadonlyArray<{ readonly name: string; readonly reason: string }>,
): string {
  const left = [...notApplicable];
  return xml.replace(
    /(<testcase\b[^>]*\bname="([^"]*)"[^>]*>\s*)<skipped\s*\/>/g,
    (whole, head: string, name: string) => {
      const at = left.findIndex((n) => named(xmlAttributeValue(name), n.name));
      if (at < 0) return whole;
      const [found] = left.splice(at, 1);
      return `${head}<skipped message="${xmlText(found?.reason ?? '')}"/>`;
    },
  );
}
