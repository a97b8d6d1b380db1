/**
 * What the generated checks draw (docs/certify.md, "Generated checks"): amounts across the cents boundaries
 * where binary floating point goes wrong, text of every RFC 3986 character class for the free-text fields a
 * signature covers, and empty optionals. Everything drawn here is a valid value by the request schemas, so a
 * conforming gateway must accept it; the seed alone decides what is drawn.
 */
import fc from 'fast-check';
import { endpointByOperation, type Operation } from '../catalogue/index.ts';
import { REQUIRED_FIELDS, requestSchemaOf } from '../schemas/index.ts';
import { toCents } from '../signing/cents.ts';
import type { Pair } from '../signing/form-body.ts';

/**
 * Amounts whose cents a binary float gets wrong: ×100 lands just below the cents (0.29 → 28.999999999999996,
 * truncated to 28) or just above (1.10 → 110.00000000000001, whose text is not 110), and amounts whose cents
 * have a leading zero or no decimals. Known answers: IEEE 754 doubles, checked by hand in any JavaScript console.
 */
export const CENTS_BOUNDARIES: readonly string[] = [
  '0.29',
  '0.57',
  '1.15',
  '4.35',
  '8.20',
  '19.99',
  '1.10',
  '2.20',
  '0.07',
  '0.05',
  '9.99',
  '10',
  '0.5',
];

/** The operations whose control formula signs an amount: the valid-amounts family's. */
export function signsAnAmount(operation: Operation): boolean {
  const { auth } = endpointByOperation(operation);
  return auth.kind === 'control' && auth.fields.some((f) => f.cents);
}

/**
 * Amounts every valid-amounts run sends first (fast-check's examples), where the cap allows: 0.29 × 100 is
 * 28.999999999999996 (truncated cents 28) and 1.10 × 100 is 110.00000000000001 (float text), so a gateway with
 * either slip fails whatever the seed; the drawn runs come after them.
 */
export const amountExamples = (capCents: bigint): string[] =>
  ['0.29', '1.10'].filter((a) => BigInt(toCents(a)) <= capCents);

/** An amount from 0.01 to `capCents`: a boundary amount that fits, or any cents written with two decimals. */
export function amountArb(capCents: bigint): fc.Arbitrary<string> {
  const boundaries = CENTS_BOUNDARIES.filter((a) => BigInt(toCents(a)) <= capCents && BigInt(toCents(a)) > 0n);
  const anyCents = fc.bigInt({ min: 1n, max: capCents }).map((c) => `${c / 100n}.${String(c % 100n).padStart(2, '0')}`);
  return boundaries.length ? fc.oneof({ arbitrary: fc.constantFrom(...boundaries), weight: 3 }, anyCents) : anyCents;
}

/** Characters by RFC 3986 class, and beyond it: the ones signers get wrong (`+`, `%`, `!'()*`, space, UTF-8). */
export const CHARACTER_CLASSES: Readonly<Record<string, readonly string[]>> = {
  unreserved: ['A', 'z', '0', '9', '-', '.', '_', '~'],
  'gen-delims': [':', '/', '?', '#', '[', ']', '@'],
  // The sub-delims JavaScript's encodeURIComponent leaves alone and RFC 3986 encodes: a class of their own, so
  // every draw holds one (a signer without the fix-ups fails whatever the seed).
  'sub-delims encodeURIComponent keeps': ['!', "'", '(', ')', '*'],
  'sub-delims': ['$', '&', '+', ',', ';', '='],
  'percent and space': ['%', ' ', '%20', '%2B', '+'],
  'two-byte UTF-8': ['é', 'ß', 'Ж'],
  'three-byte UTF-8': ['€', '中', '✓'],
  'four-byte UTF-8': ['😀', '𝄞'],
};

const ALL_CHARACTERS = Object.values(CHARACTER_CLASSES).flat();

/**
 * Text holding one piece of every class and up to 6 more of any, in a drawn order: every signed field gets every
 * class in every run, so what a gateway gets wrong about one class shows whatever the seed. `without` leaves out
 * characters a field's grammar forbids (a class left empty by it is skipped).
 */
export function textArb(without: readonly string[] = []): fc.Arbitrary<string> {
  const allowed = (c: string): boolean => !without.some((w) => c.includes(w));
  const classes = Object.values(CHARACTER_CLASSES)
    .map((members) => members.filter(allowed))
    .filter((members) => members.length > 0);
  const extra = fc.array(fc.constantFrom(...ALL_CHARACTERS.filter(allowed)), { maxLength: 6 });
  return fc
    .tuple(fc.tuple(...classes.map((members) => fc.constantFrom(...members))), extra)
    .chain(([one, more]) => fc.shuffledSubarray([...one, ...more], { minLength: one.length + more.length }))
    .map((pieces) => pieces.join(''));
}

/**
 * The free-text fields of the request schemas, each with what its grammar forbids (the email's local part
 * takes no `@` nor white space; src/schemas/requests.ts). Card, amount, currency and id fields have grammars of
 * digits and letters: their character classes are the schema's, not the signer's to get wrong.
 */
const TEXT_FIELDS: Readonly<Record<string, (value: fc.Arbitrary<string>) => fc.Arbitrary<string>>> = {
  client_orderid: (v) => v,
  'client-order-id': (v) => v,
  order_desc: (v) => v,
  address1: (v) => v,
  city: (v) => v,
  card_printed_name: (v) => v,
  email: () => textArb(['@', ' ', '\u00a0']).map((local) => `${local}@example.com`),
};

/** Optional fields a request may send empty: a blank callback URL is none, an extra field is allowed. */
export const EMPTY_OPTIONALS: readonly Pair[] = [
  ['server_callback_url', ''],
  ['merchant_data', ''],
];

/** The text fields a signature of `operation` covers: the formula's for control, every one sent for OAuth. */
export function signedTextFields(operation: Operation): string[] {
  const endpoint = endpointByOperation(operation);
  const sent = REQUIRED_FIELDS[requestSchemaOf(endpoint)] ?? [];
  const signed =
    endpoint.auth.kind === 'control'
      ? endpoint.auth.fields.filter((f) => f.from === 'params').map((f) => f.name)
      : sent;
  return signed.filter((name) => sent.includes(name) && name in TEXT_FIELDS);
}

/**
 * Values for every signed text field of `operation` (fields drawn empty-optional too, where the draw says so).
 * An order id drawn here gets the run's unique suffix when sent (src/explore/cases.ts), as a gateway expects.
 */
export function textFieldsArb(operation: Operation): fc.Arbitrary<Pair[]> {
  const fields = signedTextFields(operation);
  const values = fields.map((name) => (TEXT_FIELDS[name] ?? ((v) => v))(textArb()).map((v): Pair => [name, v]));
  return fc.tuple(fc.tuple(...values), fc.subarray([...EMPTY_OPTIONALS])).map(([drawn, empty]) => [...drawn, ...empty]);
}

/** Whether a field is an order id the caller's own: unique per request, so it gets a suffix when sent. */
export const isOrderIdField = (name: string): boolean => name === 'client_orderid' || name === 'client-order-id';
