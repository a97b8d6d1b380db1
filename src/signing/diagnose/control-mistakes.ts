/**
 * Known mistakes in computing `control`, each producing the candidate values a partner's code would
 * give. Formula values are looked up the way the reference does (control.ts); a mistake changes
 * which values go in, in what form and order, or how the digest is written.
 */
import { createHash } from 'node:crypto';
import type { ControlField } from '../../catalogue/index.ts';
import { toCents } from '../cents.ts';
import type { ControlContext } from '../control.ts';
import type { Mistake } from './types.ts';

/** A candidate: the concatenation before the key, where the key goes, and the digest's encoding. */
export interface ControlCandidate {
  readonly prefix: string;
  readonly keyFirst?: boolean;
  readonly encoding?: 'hex' | 'HEX' | 'base64';
}

export interface ControlMistake extends Mistake {
  readonly candidates: (formula: readonly ControlField[], ctx: ControlContext) => ControlCandidate[];
  /** The explanation with the amount that was sent and its exact cents, for a mistake about the amount. */
  readonly explainSent?: (amount: string, exactCents: string) => string;
}

/** The value a partner would use for a field, or undefined when the request lacks it. */
function raw(field: ControlField, ctx: ControlContext, name = field.name): string | undefined {
  if (field.from === 'url') return ctx.endpointId;
  if (field.from === 'credentials' && ctx.login !== undefined) return ctx.login;
  return sent(ctx, name);
}

/** The value of a form field sent once; undefined when it is missing or repeated (which one would count?). */
function sent(ctx: ControlContext, name: string): string | undefined {
  const found = ctx.params.filter(([n]) => n === name).map(([, v]) => v);
  return found.length === 1 ? found[0] : undefined;
}

function cents(value: string): string | undefined {
  try {
    return toCents(value);
  } catch {
    // Not a decimal amount: the reference has no cents for it.
  }
  return undefined;
}

/** Values of the formula's fields, each as the reference would use it, unless `override` says otherwise. */
function values(
  formula: readonly ControlField[],
  ctx: ControlContext,
  override: (f: ControlField) => string | undefined | null = () => null,
): Array<string | undefined> {
  return formula.map((f) => {
    const o = override(f);
    if (o !== null) return o;
    const r = raw(f, ctx);
    // Stryker disable next-line ConditionalExpression: cents() of undefined is undefined too
    return r !== undefined && f.cents ? cents(r) : r;
  });
}

const join = (parts: Array<string | undefined>): ControlCandidate[] =>
  parts.every((p) => p !== undefined) ? [{ prefix: parts.join('') }] : [];

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length === 0) return [[]];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

const OTHER_SPELLING = new Map([
  ['client_orderid', 'client-order-id'],
  ['client-order-id', 'client_orderid'],
]);

const mistake = (
  id: string,
  title: string,
  explanation: string,
  fix: string,
  candidates: ControlMistake['candidates'],
  seenIn?: readonly string[],
): ControlMistake => ({
  id,
  scheme: 'control',
  title,
  explanation,
  fix,
  candidates,
  ...(seenIn === undefined ? {} : { seenIn }),
});

/** A mistake about the amount, whose diagnosis can say it in the amount that was sent. */
const quoting = (m: ControlMistake, explainSent: NonNullable<ControlMistake['explainSent']>): ControlMistake => ({
  ...m,
  explainSent,
});

/**
 * The mistake's explanation in this request's own amount (the first cents field's value as sent), or undefined for the
 * general one.
 */
export function explanationForRequest(
  m: ControlMistake,
  formula: readonly ControlField[],
  ctx: ControlContext,
): string | undefined {
  if (m.explainSent === undefined) return undefined;
  const field = formula.find((f) => f.cents);
  const amount = field === undefined ? undefined : raw(field, ctx);
  if (amount === undefined) return undefined;
  const exact = cents(amount);
  return exact === undefined ? undefined : m.explainSent(amount, exact);
}

/**
 * The formula's values with each cents field replaced by what `partnerCents` makes of the amount as
 * sent; no candidate when the formula has no cents field or the partner's cents equal the exact ones
 * (then the mistake changes nothing and cannot be told from a correct control).
 */
function centsComputedAs(partnerCents: (amount: string) => string | undefined): ControlMistake['candidates'] {
  return (formula, ctx) => {
    let differs = false;
    const v = values(formula, ctx, (f) => {
      if (!f.cents) return null;
      const r = raw(f, ctx);
      if (r === undefined) return undefined;
      const partner = partnerCents(r);
      differs ||= partner !== cents(r);
      return partner;
    });
    return differs ? join(v) : [];
  };
}

/** A partner's cents for a decimal amount only: other amounts are decimal-amount's and float-cents' to name. */
const ofDecimal =
  (partnerCents: (amount: string) => string) =>
  (amount: string): string | undefined =>
    cents(amount) === undefined ? undefined : partnerCents(amount);

/** The early PHP library's cents: the float's text split at the dot, "0" before it dropped, two decimals after it. */
function splitAtTheDot(amount: string): string {
  const [whole = '', fraction = ''] = String(Number(amount)).split('.');
  return (whole === '0' ? '' : whole) + fraction.padEnd(2, '0');
}

export const CONTROL_MISTAKES: readonly ControlMistake[] = [
  quoting(
    mistake(
      'decimal-amount',
      'decimal amount instead of cents',
      'The amount went into the formula as sent (10.00) instead of integer cents (1000).',
      'Convert the amount to integer cents with decimal arithmetic before concatenating.',
      (formula, ctx) =>
        formula.some((f) => f.cents) ? join(values(formula, ctx, (f) => (f.cents ? raw(f, ctx) : null))) : [],
    ),
    (a, c) => `The amount went into the formula as sent (${a}) instead of integer cents (${c}).`,
  ),
  quoting(
    mistake(
      'float-cents',
      'cents computed as amount × 100 in floating point',
      'The cents were String(amount * 100) on a float: 0.29 × 100 gives 28.999999999999996 in JavaScript.',
      'Compute cents from the decimal string with integer arithmetic (or round: Math.round(amount * 100)).',
      centsComputedAs((amount) => String(Number(amount) * 100)),
    ),
    (a, c) =>
      `The cents were String(amount * 100) on a float: ${a} × 100 gives ${String(Number(a) * 100)} in JavaScript, ` +
      `where the cents are ${c}.`,
  ),
  quoting(
    mistake(
      'truncated-cents',
      'cents truncated from amount × 100 in floating point',
      'The cents were amount × 100 on a binary float, cut to an integer (Math.floor or Math.trunc in JavaScript, ' +
        '(int) in PHP, (long) in Java, to_i in Ruby): 0.29 × 100 is 28.999999999999996, so 28; 19.99 gives ' +
        '1998, 1.15 gives 114, 4.35 gives 434.',
      'Compute cents from the decimal string with integer arithmetic, or round instead of truncating ' +
        '(Math.round(amount * 100), PHP round($amount * 100)).',
      centsComputedAs(ofDecimal((amount) => String(Math.trunc(Number(amount) * 100)))),
      [
        'payneteasy/php-library-payneteasy-api, source/PaynetEasy/PaynetEasyApi/PaymentData/Payment.php ' +
          '(getAmountInCents: (int) ($this->getAmount() * 100))',
        'payneteasy/ruby-integration-examples, lib/paynet_easy/paynet_easy_api/payment_data/payment.rb ' +
          '(amount_in_cents: (amount * 100).to_i)',
        'Pathologic/commerce-payment-payneteasy, assets/plugins/commerce/src/Payments/PaynetEasyPayment.php ' +
          "((int)($data['amount'] * 100))",
      ],
    ),
    (a, c) =>
      `The cents were amount × 100 on a binary float, cut to an integer (Math.floor or Math.trunc in JavaScript, ` +
      `(int) in PHP, (long) in Java, to_i in Ruby): ${a} × 100 is ${String(Number(a) * 100)}, ` +
      `so ${Math.trunc(Number(a) * 100)}, where the cents are ${c}.`,
  ),
  quoting(
    mistake(
      'cents-leading-zero',
      'cents of an amount under 0.10 written with a leading zero',
      "The cents were the amount's text split at the dot, a zero integer part dropped and the two decimals kept " +
        'as written: 0.05 gives "05" (and 0.00 gives "00"), where the cents are 5.',
      'Compute cents as a number (integer part × 100 + decimals) and write it without leading zeros.',
      centsComputedAs(ofDecimal(splitAtTheDot)),
      [
        'payneteasy/php-library-payneteasy-api, source/OrderData/Order.php, an early version (getAmountInCents: ' +
          'explode(\'.\', (float) amount), empty($amount[0]) drops "0")',
      ],
    ),
    (a, c) =>
      `The cents were the amount's text split at the dot, a zero integer part dropped and the two decimals kept ` +
      `as written: ${a} gives "${splitAtTheDot(a)}", where the cents are ${c}.`,
  ),
  mistake(
    'fields-wrong-order',
    'formula fields in the wrong order',
    'The right values were concatenated in another order than the formula states.',
    "Concatenate exactly in the formula's order (payconform catalogue shows it), key last.",
    (formula, ctx) => {
      const v = values(formula, ctx);
      if (!v.every((x): x is string => x !== undefined)) return [];
      return permutations(v)
        .slice(1)
        .map((order) => ({ prefix: order.join('') }));
    },
  ),
  mistake(
    'missing-field',
    'a formula field left out',
    'One field of the formula was not part of the concatenation.',
    'Concatenate every field the formula names.',
    (formula, ctx) => formula.flatMap((_, skip) => join(values(formula, ctx).filter((__, i) => i !== skip))),
  ),
  mistake(
    'amount-in-formula',
    'the amount put into a formula that has none',
    'The amount (as sent, or in cents) was concatenated into a formula that does not name it: the status and ' +
      'callback formulas have no amount.',
    "Concatenate only the formula's fields (payconform catalogue, docs/callbacks.md), and compare the amount with " +
      'your own order separately.',
    (formula, ctx) => {
      const amount = formula.some((f) => f.name === 'amount') ? undefined : sent(ctx, 'amount');
      const v = values(formula, ctx);
      if (amount === undefined || !v.every((x): x is string => x !== undefined)) return [];
      const forms = [...new Set([amount, cents(amount)].filter((x): x is string => x !== undefined))];
      // The amount at every place in the concatenation, as sent and in cents; first where it is most often put, just
      // before the key.
      return forms.flatMap((form) => [
        { prefix: v.join('') + form },
        ...v.map((_, at) => ({ prefix: [...v.slice(0, at), form, ...v.slice(at)].join('') })),
      ]);
    },
  ),
  mistake(
    'uppercase-hex',
    'digest in uppercase hex',
    'The SHA-1 digest was written in uppercase hex; control is lowercase hex.',
    'Write the digest as 40 lowercase hex digits.',
    (formula, ctx) => join(values(formula, ctx)).map((c) => ({ ...c, encoding: 'HEX' as const })),
  ),
  mistake(
    'base64-digest',
    'digest in Base64',
    'The SHA-1 digest was Base64-encoded; control is lowercase hex.',
    'Write the digest as hex (digest("hex")).',
    (formula, ctx) => join(values(formula, ctx)).map((c) => ({ ...c, encoding: 'base64' as const })),
  ),
  mistake(
    'client-order-id-spelling',
    'client_orderid and client-order-id confused',
    'The order id was taken from (or sent under) the other spelling: the 3-D Secure uploads use client-order-id, ' +
      'the rest client_orderid.',
    "Use the spelling of the endpoint's formula, in the formula and in the form body.",
    // A field without another spelling keeps its reference value (null), so a formula without an order id
    // yields the reference concatenation, which never reproduces a wrong value.
    (formula, ctx) =>
      join(
        values(formula, ctx, (f) => {
          const other = OTHER_SPELLING.get(f.name);
          return other === undefined ? null : (raw(f, ctx, other) ?? null);
        }),
      ),
  ),
  mistake(
    'login-endpointid-confusion',
    'login and endpointId confused',
    'The formula got the merchant login where the endpointId belongs, or the endpointId where the login belongs.',
    'Formulas of sale, preauth and account verification start with the endpointId; the others with the login.',
    (formula, ctx) =>
      join(
        values(formula, ctx, (f) => {
          if (f.from === 'url') return ctx.login ?? undefined;
          if (f.from === 'credentials') return ctx.endpointId;
          return null;
        }),
      ),
  ),
  mistake(
    'key-not-last',
    'control key first instead of last',
    'The merchant control key was put at the start of the concatenation; it goes last.',
    "Append the control key after the formula's fields.",
    (formula, ctx) => join(values(formula, ctx)).map((c) => ({ ...c, keyFirst: true })),
  ),
];

export function candidateDigest(candidate: ControlCandidate, key: string): string {
  const hash = createHash('sha1');
  if (candidate.keyFirst) hash.update(key).update(candidate.prefix);
  else hash.update(candidate.prefix).update(key);
  const encoding = candidate.encoding ?? 'hex';
  return encoding === 'HEX' ? hash.digest('hex').toUpperCase() : hash.digest(encoding);
}
