/**
 * A step's failure as cucumber gives it, without the stack it appends and the class name it starts
 * with (AssertionError, PayconformError): the page is for the people who fix it. Shown, never parsed:
 * a failure's cause comes from its finding (src/report/findings.ts).
 */
const CLASS_PREFIXES = ['AssertionError [ERR_ASSERTION]: ', 'PayconformError: '];

export function failureMessage(raw: string): string {
  const shown = raw
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('at ') || line.trimStart() === line)
    .join('\n');
  const prefix = CLASS_PREFIXES.find((p) => shown.startsWith(p));
  return prefix === undefined ? shown : shown.slice(prefix.length);
}
