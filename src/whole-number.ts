/**
 * The whole-number check for settings typed by a person (options such as --port, variables such as
 * PAYCONFORM_POLL_DEADLINE_MS): digits only, within a range, or one line naming the setting.
 */
import { fieldError } from './errors.ts';

/** `text` as a whole number in [min, max], or undefined when it is absent; anything else is an error naming `field`. */
export function wholeNumber(text: string | undefined, field: string, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[0-9]+$/.test(text) || Number(text) < min || Number(text) > max)
    throw fieldError('ERR_WHOLE_NUMBER', field, `must be a whole number from ${min} to ${max}`);
  return Number(text);
}
