/**
 * Amounts in control formulas are integer cents (api-spec.md, Authentication, Scheme A rule 3:
 * "10.00 becomes 1000"). Decimal strings are converted with integer arithmetic, never floats, so
 * 15-digit amounts stay exact (0.29 × 100 in floating point is 28.999999999999996).
 */
import { fieldError } from '../errors.ts';

/**
 * The one grammar of an amount (docs/assumptions.md A-7), for the signer, the request and answer
 * schemas, the suite's settings and its live-run cap: optional integer digits, then optionally a dot
 * and one or two decimals, and not empty (`10`, `10.5`, `.5`, `007.10`). Captures: integer, decimals.
 */
export const DECIMAL_AMOUNT = /^(?!$)([0-9]*)(?:\.([0-9]{1,2}))?$/;

/** DECIMAL_AMOUNT as a JSON Schema `pattern` (ECMA-262, as ajv reads it). */
export const DECIMAL_AMOUNT_PATTERN = DECIMAL_AMOUNT.source;

export function toCents(amount: string | number, field = 'amount'): string {
  const text = typeof amount === 'number' ? numberToDecimal(amount, field) : amount;
  const match = DECIMAL_AMOUNT.exec(text);
  if (!match) {
    throw fieldError('ERR_AMOUNT_FORMAT', field, whyNotDecimal(text));
  }
  // The integer group always takes part in the match ('' for '.5'), so it needs no default; the decimals may not.
  const [, whole, decimals = ''] = match as unknown as [string, string, string | undefined];
  const fraction = decimals.padEnd(2, '0');
  // Up to 13 integer digits the cents stay below 2^53, so integer Number arithmetic is exact and
  // spares the mock a BigInt per amount.
  if (whole.length <= 13) return String(Number(whole) * 100 + Number(fraction));
  return (BigInt(whole) * 100n + BigInt(fraction)).toString();
}

function numberToDecimal(amount: number, field: string): string {
  if (!Number.isFinite(amount))
    throw fieldError('ERR_AMOUNT_FORMAT', field, 'must be a finite number (got NaN or Infinity)');
  // Other negative numbers print with a leading '-', which whyNotDecimal rejects with the same rule.
  if (Object.is(amount, -0)) throw fieldError('ERR_AMOUNT_FORMAT', field, 'must not be negative');
  // The shortest decimal that round-trips; exponent forms (1e+21, 1e-7) are rejected below.
  return String(amount);
}

/** Names the first rule the text breaks, for a one-line error. */
function whyNotDecimal(text: string): string {
  if (text.trim() === '') return 'must not be empty';
  if (/^\s|\s$/.test(text)) return 'must not have leading or trailing spaces';
  if (text.startsWith('-')) return 'must not be negative';
  if (text.startsWith('+')) return 'must not have a leading "+"';
  if (/^(nan|[+-]?infinity)$/i.test(text)) return 'must be a finite number (got NaN or Infinity)';
  if (/^[0-9.]*[eE][+-]?[0-9]+$/.test(text)) return 'exponent notation is not allowed (write the digits, e.g. 1000.00)';
  if (/^[0-9]{1,3}([,' _][0-9]{3})+(\.[0-9]*)?$/.test(text))
    return 'thousands separators are not allowed (write 1234567.89)';
  const decimals = /^[0-9]*\.([0-9]+)$/.exec(text)?.[1];
  if (decimals !== undefined) return `at most 2 decimals are allowed (got ${decimals.length})`;
  if (text.endsWith('.')) return 'must not end with a decimal point';
  return 'must be a non-negative decimal number with at most 2 decimals, like 10.00';
}
