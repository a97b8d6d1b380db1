/**
 * The safety rules of a run against a real gateway (docs/certify.md): a base URL that is not
 * loopback needs an explicit live run, and a live run sends only the documented test cards and
 * amounts up to the cap. The runner checks the target before anything is sent; the steps check each
 * request before it leaves.
 */
import { CARD_NUMBER_FIELDS, isTestCard } from '../catalogue/test-cards.ts';
import { fieldError } from '../errors.ts';
import { DECIMAL_AMOUNT, toCents } from '../signing/cents.ts';
import type { Pair } from '../signing/form-body.ts';
import type { Profile } from './profile.ts';

/**
 * What of the person's choice the safety rules read (target.ts's TargetChoice is one): the defect only
 * by name, so this module needs nothing of the mock, and target.ts imports this one, not the reverse.
 */
export interface SafetyChoice {
  readonly baseUrl?: string | undefined;
  readonly live: boolean;
  readonly defect?: string | undefined;
  readonly profile?: Profile | undefined;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A base URL on this machine: a gateway there reaches this run's loopback callback handler too. */
export const onLoopback = (baseUrl: string): boolean => LOOPBACK.has(new URL(baseUrl).hostname);

/**
 * Refuses a defect with a base URL (defects exist only in the embedded mock), a base URL that is not
 * an absolute http(s) URL, and one that is not loopback in a run that is not live. The errors name
 * the certify options, the runner's face on the command line.
 */
export function checkTargetChoice(choice: SafetyChoice): void {
  if (choice.baseUrl === undefined) return;
  if (choice.defect !== undefined)
    throw fieldError('ERR_TARGET', '--defect', 'applies to the embedded mock only: leave out --base-url');
  let url: URL;
  try {
    url = new URL(choice.baseUrl);
  } catch {
    throw fieldError('ERR_URL', '--base-url', 'must be an absolute http(s) URL such as https://sandbox.example/paynet');
  }
  if (!/^https?:$/.test(url.protocol)) throw fieldError('ERR_URL', '--base-url', 'must be an http or https URL');
  // WHATWG parsing turns http:/x and http:x into http://x/: take only what was written as scheme://host.
  if (!/^https?:\/\/[^/\\]/i.test(choice.baseUrl))
    throw fieldError('ERR_URL', '--base-url', `${choice.baseUrl} is a malformed URL (write http(s)://host/path)`);
  if (!LOOPBACK.has(url.hostname) && !choice.live)
    throw fieldError(
      'ERR_LIVE_RUN',
      '--live',
      `required for a base URL that is not loopback (${url.origin}): a live run sends real requests`,
    );
}

/**
 * Why a live run must not send these fields, or undefined: a card that is neither a documented test
 * card nor one of `profileCards` (the test cards a gateway profile names), an amount above the cap.
 */
export function liveSendProblem(
  params: readonly Pair[],
  maxAmountCents: string,
  profileCards: readonly string[] = [],
): string | undefined {
  for (const [name, value] of params) {
    if (CARD_NUMBER_FIELDS.has(name) && !isTestCard(value) && !profileCards.includes(value))
      return `live run: ${name} is not one of the documented test cards (docs/mock.md) or the profile's; not sent`;
    // A malformed amount is sent as it is: the gateway must refuse it, and that is what a scenario checks.
    if (name === 'amount' && DECIMAL_AMOUNT.test(value) && BigInt(toCents(value)) > BigInt(maxAmountCents))
      return `live run: amount ${value} is above PAYCONFORM_MAX_AMOUNT; not sent`;
  }
  return undefined;
}

/** Cents as the decimal amount a request carries: 501n → "5.01". */
const decimalOf = (cents: bigint): string => `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;

/**
 * The amounts of a scenario that captures more than was authorised, both within the cap so a live run sends
 * them: half the cap authorised, a cent more captured. Undefined below 0.02, where no such pair fits.
 */
export function overCaptureAmounts(maxAmountCents: string): { authorised: string; capture: string } | undefined {
  const authorised = BigInt(maxAmountCents) / 2n;
  if (authorised < 1n) return undefined;
  return { authorised: decimalOf(authorised), capture: decimalOf(authorised + 1n) };
}
