/**
 * The one writer of XML (both junit.xml files: certify's and inspect's). Text is escaped for an element's content and
 * a quoted attribute alike, and the characters XML 1.0 forbids (C0 controls but tab, newline and return; U+FFFE and
 * U+FFFF; a surrogate without its pair) are shown as a visible `\xNN` or `\uNNNN`, never written: whatever a gateway
 * or a merchant sends, the file parses. No CDATA: `]]>` in a text cannot end anything.
 */

/** XML 1.0 §2.2's Char excluded: what no XML document may hold, escaped or not. */
const FORBIDDEN = new RegExp(
  [
    '[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\uFFFE\\uFFFF]',
    '[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])', // a high surrogate without its low one
    '(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]', // a low surrogate without its high one
  ].join('|'),
  'g',
);

const visible = (c: string): string => {
  const code = c.charCodeAt(0);
  return code < 0x20 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).toUpperCase()}`;
};

/** `text` with every character XML 1.0 forbids shown as `\xNN` or `\uNNNN`: still text, now allowed in XML. */
export const xmlChars = (text: string): string => text.replace(FORBIDDEN, visible);

const ENTITY: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\r': '&#13;',
  '\t': '&#9;',
};

/**
 * Text for an element's content or an attribute value in double quotes (the only quotes written). A return and a
 * tab are written as references, so a parser gives them back as they were (a literal one would be normalised, in
 * an attribute to a space).
 */
export const xmlText = (text: string): string => xmlChars(text).replace(/[&<>"\r\t]/g, (c) => ENTITY[c] ?? c);

/** What an attribute value of another writer says: its entity and character references read back. */
export const xmlAttributeValue = (written: string): string =>
  written.replace(
    /&(?:#x([0-9a-f]+)|#([0-9]+)|(lt|gt|amp|quot|apos));/gi,
    (whole, hex?: string, dec?: string, name?: string) => {
      const code = hex !== undefined ? parseInt(hex, 16) : dec !== undefined ? parseInt(dec, 10) : undefined;
      if (code !== undefined) return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      return { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }[name?.toLowerCase() ?? ''] ?? whole;
    },
  );
