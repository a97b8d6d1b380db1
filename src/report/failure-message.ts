/** A failed step's message as people read it: certification page and causes alike. */
/**
 * A step's failure as cucumber gives it, without the stack it appends and the class name it starts
 * with (AssertionError, PayconformError): the page is for the people who fix it.
 */
export function failureMessage(raw: string): string {
  return raw
    .split('\n')
    .filter((l) => !/^\s+at /.test(l))
    .join('\n')
    .replace(/^(?:AssertionError \[ERR_ASSERTION\]|PayconformError): /, '');
}
