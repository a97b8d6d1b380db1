/**
 * cucumber's junit.xml made always XML. Its printer (xmlbuilder underneath) drops the characters XML 1.0 forbids
 * without a trace and writes step output and failures as CDATA, escaping only the first `]]>` of each: a gateway's
 * answer holding `]]>` twice ended the section early and left a file no parser reads. So the printer is fed
 * messages whose texts hold neither (the forbidden characters shown as `\xNN`, each `]]>` parted by a marker), and
 * its CDATA sections are then written as escaped text (xml.ts), the marker taken out again.
 */
import { xmlChars, xmlText } from './xml.ts';

/** A private-use character that parts a `]]>` inside the printer and is taken out of its output. */
const PARTED = ']]\uE000>';
// eslint-disable-next-line no-control-regex -- the characters xmlChars replaces, and `]]>`
const UNFIT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]|\]\]>/;

const fit = (text: string): string => (UNFIT.test(text) ? xmlChars(text).replaceAll(']]>', PARTED) : text);

/** `value` (a message, as JSON gives it) with every text fit for the printer; a part with nothing to fit is shared. */
export function fitForJunit(value: unknown): unknown {
  if (typeof value === 'string') return fit(value);
  if (typeof value !== 'object' || value === null) return value;
  const parts = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(parts)) {
    const now = fitForJunit(parts[key]);
    if (now === parts[key]) continue;
    // An array's copy keeps its indices as keys, so both are written the same way.
    copy ??= Array.isArray(value) ? Object.assign([], parts) : { ...parts };
    copy[key] = now;
  }
  return copy ?? value;
}

/**
 * The printer's output with each CDATA section written as escaped text and the marker taken out. Its texts hold no
 * `]]>` (fitForJunit), so each section ends at the first `]]>` after it starts; outside a section `<` is always
 * markup, never text. Elsewhere the printer wrote `]]` + marker + `>` (an attribute) or `&gt;` (a text): without the
 * marker, both are XML.
 */
export const withoutCdata = (xml: string): string =>
  xml
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, (_, text: string) => xmlText(text.replaceAll(PARTED, ']]>')))
    .replace(/\]\]\uE000(>|&gt;)/g, ']]$1');
