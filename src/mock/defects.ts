/**
 * Deliberately broken variants of the mock gateway (`payconform mock --defect NAME`). Each turns off
 * or bends one rule where that rule is implemented, so `npm run prove` can show that some scenario
 * of the suite fails against it (docs/prove.md). Never used unless asked for by name.
 */
import { fieldError } from '../errors.ts';

export const DEFECTS = {
  'accept-any-control': 'does not check control: a missing, malformed or wrong value is accepted',
  'accept-any-oauth-signature': 'does not check OAuth: any Authorization header, or none, is accepted for the endpoint\'s merchant',
  'accept-hmac-for-rsa': 'accepts an HMAC-SHA1 signature (key "control key&") on the RSA-SHA256 endpoints',
  'ignore-timestamp-window': 'accepts an oauth_timestamp of any age',
  'accept-replayed-nonce': 'accepts an oauth_nonce already used within the timestamp window',
  'control-decimal-amount': 'computes control with the amount as sent (decimal) instead of in cents',
  'ignore-accept-header': 'serves a request whatever its Accept header says, or without one',
  'accept-any-body-type': 'reads the body as a form whatever its Content-Type says',
  'wrong-response-content-type': 'answers with Content-Type application/json instead of application/vnd.pay+json',
  'skip-field-validation': 'does not check the request fields: no schema check, and a missing formula field counts as empty',
  'server-error-on-client-mistake': 'answers a missing or invalid field with 500 ServerErrorResponse instead of 400',
  'capture-after-void': 'forgets that an order was voided: capture, return and a second void go through',
  'move-unapproved-order': 'captures, voids and returns orders that were never approved (declined, processing)',
  'capture-above-authorised': 'captures more than the preauth authorised',
  'return-above-captured': 'returns more than was captured or sold',
  'pay-twice': 'pays a payout check a second time',
  '3ds-upload-anytime': 'accepts a 3-D Secure result upload for an order that waits for none',
  'accept-unknown-reference': 'charges an unknown card reference or recurring payment id as if it existed',
  'lose-order': 'loses every order: status answers "unknown"',
  'leak-control-key': 'quotes the merchant control key in the message of a control refusal',
  'leak-full-pan': 'quotes the full card number in the message of an error answer',
} as const satisfies Record<string, string>;

export type Defect = keyof typeof DEFECTS;

export const DEFECT_NAMES = Object.keys(DEFECTS) as Defect[];

/** The defect called `name`, or a usage error naming `field` and listing the known ones. */
export function defectNamed(name: string, field = '--defect'): Defect {
  if (Object.hasOwn(DEFECTS, name)) return name as Defect;
  throw fieldError('ERR_USAGE', field, `must be one of the defects listed by "payconform mock --list-defects" (got ${JSON.stringify(name.slice(0, 60))})`);
}
