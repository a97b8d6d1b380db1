/** Text made safe for inspect's JUnit XML and HTML: escaped, and without the control characters XML 1.0 forbids. */
// eslint-disable-next-line no-control-regex -- these are exactly the characters XML 1.0 does not allow
const FORBIDDEN_IN_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g;

export const xml = (s: string): string =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(FORBIDDEN_IN_XML, '');
