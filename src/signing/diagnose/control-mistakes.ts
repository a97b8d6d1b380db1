/**
 * The control recipe (api-spec.md Scheme A) as steps, and the operators a partner's code applies at each: how
 * the amount and the other values are written, which fields go in and in what order, the separator, the key's
 * place and form, the digest and its encoding. Values are looked up the way the reference does (control.ts).
 */
import { createHash } from 'node:crypto';
import type { ControlField } from '../../catalogue/index.ts';
import { toCents } from '../cents.ts';
import type { ControlContext } from '../control.ts';
import type { Operator } from './search.ts';

/** A value that goes into the concatenation: the text as the partner found it, and whether it is written in cents. */
export interface Item {
  readonly raw: string | undefined;
  readonly cents: boolean;
}

export type Digest = 'sha1' | 'sha256' | 'md5';
export type Encoding = 'hex' | 'HEX' | 'base64';

export interface ControlRecipe {
  /** A cents field's value from the amount as sent; undefined when the partner's code has none for it. */
  readonly cents: (amount: string) => string | undefined;
  /** Any other field's value as the partner writes it. */
  readonly format: (value: string) => string;
  /** The values the partner concatenates, in its order. */
  readonly fields: (formula: readonly ControlField[], ctx: ControlContext) => Item[];
  readonly separator: string;
  readonly keyFirst: boolean;
  readonly key: (key: string) => string;
  readonly digest: Digest;
  readonly encoding: Encoding;
}

export interface ControlMistake extends Operator {
  /** The operator's variants for this request (a field order, a place for the amount…). */
  readonly variantsFor: (formula: readonly ControlField[], ctx: ControlContext) => Array<Partial<ControlRecipe>>;
  /** The explanation with the amount that was sent and its exact cents, for a mistake about the amount. */
  readonly explainSent?: (amount: string, exactCents: string) => string;
  /** The mistake reinterprets a field's value (what is charged): its fix names the field, never a value to sign. */
  readonly wrongValue?: string;
  /** Whether the search tries it for this amount as sent (by default, always). */
  readonly searched?: (amount: string | undefined) => boolean;
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

export function cents(value: string): string | undefined {
  try {
    return toCents(value);
  } catch {
    // Not a decimal amount: the reference has no cents for it.
  }
  return undefined;
}

const formulaItems = (formula: readonly ControlField[], ctx: ControlContext): Item[] =>
  formula.map((f) => ({ raw: raw(f, ctx), cents: f.cents }));

export const REFERENCE_CONTROL: ControlRecipe = {
  cents,
  format: (v) => v,
  fields: formulaItems,
  separator: '',
  keyFirst: false,
  key: (k) => k,
  digest: 'sha1',
  encoding: 'hex',
};

/** The concatenation a recipe makes, with `key` for the key; undefined when a value it needs is missing. */
export function concatenation(
  recipe: ControlRecipe,
  formula: readonly ControlField[],
  ctx: ControlContext,
  key: string,
): string | undefined {
  const values: string[] = [];
  for (const item of recipe.fields(formula, ctx)) {
    const value = item.raw === undefined ? undefined : item.cents ? recipe.cents(item.raw) : recipe.format(item.raw);
    if (value === undefined) return undefined;
    values.push(value);
  }
  const k = recipe.key(key);
  return (recipe.keyFirst ? [k, ...values] : [...values, k]).join(recipe.separator);
}

export function digestOf(recipe: Pick<ControlRecipe, 'digest' | 'encoding'>, input: string): string {
  const hash = createHash(recipe.digest).update(input);
  return recipe.encoding === 'HEX' ? hash.digest('hex').toUpperCase() : hash.digest(recipe.encoding);
}

const DIGEST_BYTES: Readonly<Record<Digest, number>> = { sha1: 20, sha256: 32, md5: 16 };

/** The text of a digest of `bytes` bytes in an encoding: hex of one case, or Base64 with its padding. */
function digestPattern(bytes: number, encoding: Encoding | 'any-case hex'): RegExp {
  if (encoding === 'base64') {
    const pad = (3 - (bytes % 3)) % 3;
    return new RegExp(`^[A-Za-z0-9+/]{${Math.ceil(bytes / 3) * 4 - pad}}={${pad}}$`);
  }
  const digit = encoding === 'hex' ? '[0-9a-f]' : encoding === 'HEX' ? '[0-9A-F]' : '[0-9a-fA-F]';
  return new RegExp(`^${digit}{${bytes * 2}}$`);
}

/** Whether a value has the shape a recipe's digest and encoding give (length, hex case, base64 padding). */
export const shapeFits = (recipe: Pick<ControlRecipe, 'digest' | 'encoding'>, value: string): boolean =>
  digestPattern(DIGEST_BYTES[recipe.digest], recipe.encoding).test(value);

/** A digest in some form a mistake could give (SHA-1, SHA-256 or MD5; hex of any case, base64): else none to search. */
export const isDigestShaped = (value: string): boolean =>
  Object.values(DIGEST_BYTES).some((bytes) =>
    (['any-case hex', 'base64'] as const).some((encoding) => digestPattern(bytes, encoding).test(value)),
  );

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

interface Spec {
  readonly id: string;
  readonly step: string;
  readonly title: string;
  readonly explanation: string;
  readonly fix: string;
  readonly variantsFor: ControlMistake['variantsFor'];
  readonly seenIn?: readonly string[];
  readonly explainSent?: ControlMistake['explainSent'];
  readonly wrongValue?: string;
  readonly searched?: ControlMistake['searched'];
}

const mistake = (s: Spec): ControlMistake => ({ scheme: 'control', ...s });
/** An operator with the same change whatever the request. */
const always =
  (change: Partial<ControlRecipe>): Spec['variantsFor'] =>
  () => [change];

/** The amount as sent, the first cents field's value; undefined when the formula has none or it is not sent once. */
export function amountSent(formula: readonly ControlField[], ctx: ControlContext): string | undefined {
  const field = formula.find((f) => f.cents);
  return field === undefined ? undefined : raw(field, ctx);
}

/** A whole number as the amount: signed as it is, it reads as the cents of an amount a hundred times smaller. */
const WHOLE = /^[0-9]+$/;

/** A partner's cents for a decimal amount only: other amounts are decimal-amount's to name. */
const ofDecimal =
  (partnerCents: (amount: string) => string) =>
  (amount: string): string | undefined =>
    cents(amount) === undefined ? undefined : partnerCents(amount);

/** The early PHP library's cents: the float's text split at the dot, "0" before it dropped, two decimals after it. */
function splitAtTheDot(amount: string): string {
  const [whole = '', fraction = ''] = String(Number(amount)).split('.');
  return (whole === '0' ? '' : whole) + fraction.padEnd(2, '0');
}

const floatText = (a: string): string => String(Number(a) * 100);

/** The form encoding of a value (what URLSearchParams writes): signed instead of the value itself. */
const formEncoded = (v: string): string => new URLSearchParams([['', v]]).toString().slice(1);

/** The formula's items taken in `order` (indexes into the formula; one left out is not signed). */
const reordered =
  (order: readonly number[]): ControlRecipe['fields'] =>
  (formula, ctx) => {
    const items = formulaItems(formula, ctx);
    return order.map((i) => items[i] as Item);
  };

const SEPARATORS: ReadonlyArray<readonly [string, string, string]> = [
  ['separator-ampersand', '&', 'an ampersand (&)'],
  ['separator-pipe', '|', 'a pipe (|)'],
  ['separator-comma', ',', 'a comma'],
  ['separator-semicolon', ';', 'a semicolon'],
  ['separator-newline', '\n', 'a newline'],
];

export const STEPS = {
  amount: 'amount formatting',
  values: 'value formatting',
  fields: 'fields and their order',
  separator: 'separator',
  keyPlace: 'key place',
  keyForm: 'key form',
  digest: 'digest',
  encoding: 'digest encoding',
} as const;

export const CONTROL_MISTAKES: readonly ControlMistake[] = [
  mistake({
    id: 'decimal-amount',
    step: STEPS.amount,
    title: 'decimal amount instead of cents',
    explanation: 'The amount went into the formula as sent (10.00) instead of integer cents (1000).',
    fix: 'Convert the amount to integer cents with decimal arithmetic before concatenating.',
    variantsFor: always({ cents: (a) => a }),
    // A whole amount signed as it is reads as cents: amount-value-wrong's to name, since this fix would charge more.
    searched: (amount) => amount === undefined || !WHOLE.test(amount),
    explainSent: (a, c) => `The amount went into the formula as sent (${a}) instead of integer cents (${c}).`,
  }),
  mistake({
    id: 'amount-value-wrong',
    step: STEPS.amount,
    title: "the amount field's value itself is wrong",
    explanation:
      'The amount field was signed as it was sent, a whole number, as if it held the cents (amount=1000 signed as ' +
      '1000 for an order of 10.00): the amount field itself is wrong, and signing its cents (100000) would make a ' +
      'valid request that charges a hundred times more.',
    fix:
      'Correct the amount field, not the signature: it holds the decimal amount of the order in the currency ' +
      '(10.00, not 1000); the formula then signs its cents. Never change the signed value to fit the field.',
    variantsFor: always({ cents: (a) => a }),
    searched: (amount) => amount !== undefined && WHOLE.test(amount),
    explainSent: (a) =>
      `The amount field was signed as it was sent (${a}), as if it held the cents of ` +
      `${(Number(a) / 100).toFixed(2)}; the amount field itself is wrong: as sent it charges ${a}.00, and signing ` +
      `its cents would make that charge valid.`,
    wrongValue: 'amount',
  }),
  mistake({
    id: 'float-cents',
    step: STEPS.amount,
    title: 'cents computed as amount × 100 in floating point',
    explanation: 'The cents were String(amount * 100) on a float: 0.29 × 100 gives 28.999999999999996 in JavaScript.',
    fix: 'Compute cents from the decimal string with integer arithmetic (or round: Math.round(amount * 100)).',
    variantsFor: always({ cents: floatText }),
    explainSent: (a, c) =>
      `The cents were String(amount * 100) on a float: ${a} × 100 gives ${floatText(a)} in JavaScript, ` +
      `where the cents are ${c}.`,
  }),
  mistake({
    id: 'truncated-cents',
    step: STEPS.amount,
    title: 'cents truncated from amount × 100 in floating point',
    explanation:
      'The cents were amount × 100 on a binary float, cut to an integer (Math.floor or Math.trunc in JavaScript, ' +
      '(int) in PHP, (long) in Java, to_i in Ruby): 0.29 × 100 is 28.999999999999996, so 28; 19.99 gives ' +
      '1998, 1.15 gives 114, 4.35 gives 434.',
    fix:
      'Compute cents from the decimal string with integer arithmetic, or round instead of truncating ' +
      '(Math.round(amount * 100), PHP round($amount * 100)).',
    variantsFor: always({ cents: ofDecimal((a) => String(Math.trunc(Number(a) * 100))) }),
    seenIn: [
      'payneteasy/php-library-payneteasy-api, source/PaynetEasy/PaynetEasyApi/PaymentData/Payment.php ' +
        '(getAmountInCents: (int) ($this->getAmount() * 100))',
      'payneteasy/ruby-integration-examples, lib/paynet_easy/paynet_easy_api/payment_data/payment.rb ' +
        '(amount_in_cents: (amount * 100).to_i)',
      'Pathologic/commerce-payment-payneteasy, assets/plugins/commerce/src/Payments/PaynetEasyPayment.php ' +
        "((int)($data['amount'] * 100))",
    ],
    explainSent: (a, c) =>
      `The cents were amount × 100 on a binary float, cut to an integer (Math.floor or Math.trunc in JavaScript, ` +
      `(int) in PHP, (long) in Java, to_i in Ruby): ${a} × 100 is ${floatText(a)}, ` +
      `so ${Math.trunc(Number(a) * 100)}, where the cents are ${c}.`,
  }),
  mistake({
    id: 'cents-leading-zero',
    step: STEPS.amount,
    title: 'cents of an amount under 0.10 written with a leading zero',
    explanation:
      "The cents were the amount's text split at the dot, a zero integer part dropped and the two decimals kept " +
      'as written: 0.05 gives "05" (and 0.00 gives "00"), where the cents are 5.',
    fix: 'Compute cents as a number (integer part × 100 + decimals) and write it without leading zeros.',
    variantsFor: always({ cents: ofDecimal(splitAtTheDot) }),
    seenIn: [
      'payneteasy/php-library-payneteasy-api, source/OrderData/Order.php, an early version (getAmountInCents: ' +
        'explode(\'.\', (float) amount), empty($amount[0]) drops "0")',
    ],
    explainSent: (a, c) =>
      `The cents were the amount's text split at the dot, a zero integer part dropped and the two decimals kept ` +
      `as written: ${a} gives "${splitAtTheDot(a)}", where the cents are ${c}.`,
  }),
  mistake({
    id: 'values-form-encoded',
    step: STEPS.values,
    title: 'values signed form-encoded',
    explanation:
      'Each value went into the concatenation as it is written in the form body (jane%40example.com, a space as +) ' +
      'instead of the value itself.',
    fix: 'Concatenate the values themselves (decoded), not their form encoding.',
    variantsFor: always({ format: formEncoded }),
  }),
  mistake({
    id: 'fields-wrong-order',
    step: STEPS.fields,
    title: 'formula fields in the wrong order',
    explanation: 'The right values were concatenated in another order than the formula states.',
    fix: "Concatenate exactly in the formula's order (payconform catalogue shows it), key last.",
    variantsFor: (formula) =>
      permutations(formula.map((_, i) => i))
        .slice(1)
        .map((order) => ({ fields: reordered(order) })),
  }),
  mistake({
    id: 'missing-field',
    step: STEPS.fields,
    title: 'a formula field left out',
    explanation: 'One field of the formula was not part of the concatenation.',
    fix: 'Concatenate every field the formula names.',
    variantsFor: (formula) =>
      formula.map((_, skip) => ({ fields: reordered(formula.map((__, i) => i).filter((i) => i !== skip)) })),
  }),
  mistake({
    id: 'amount-in-formula',
    step: STEPS.fields,
    title: 'the amount put into a formula that has none',
    explanation:
      'The amount (as sent, or in cents) was concatenated into a formula that does not name it: the status and ' +
      'callback formulas have no amount.',
    fix:
      "Concatenate only the formula's fields (payconform catalogue, docs/callbacks.md), and compare the amount with " +
      'your own order separately.',
    // The amount at every place, as sent and in cents; first where it is most often put, just before the key.
    variantsFor: (formula, ctx) => {
      const amount = formula.some((f) => f.name === 'amount') ? undefined : sent(ctx, 'amount');
      if (amount === undefined) return [];
      const places = [formula.length, ...formula.map((_, at) => at)];
      return [false, true].flatMap((inCents) =>
        places.map((at) => ({
          fields: (f: readonly ControlField[], c: ControlContext): Item[] => {
            const items = formulaItems(f, c);
            return [...items.slice(0, at), { raw: amount, cents: inCents }, ...items.slice(at)];
          },
        })),
      );
    },
  }),
  mistake({
    id: 'client-order-id-spelling',
    step: STEPS.fields,
    title: 'client_orderid and client-order-id confused',
    explanation:
      'The order id was taken from (or sent under) the other spelling: the 3-D Secure uploads use client-order-id, ' +
      'the rest client_orderid.',
    fix: "Use the spelling of the endpoint's formula, in the formula and in the form body.",
    variantsFor: always({
      fields: (formula, ctx) =>
        formula.map((f) => {
          const other = OTHER_SPELLING.get(f.name);
          const theirs = other === undefined ? undefined : raw(f, ctx, other);
          return { raw: theirs ?? raw(f, ctx), cents: f.cents };
        }),
    }),
  }),
  mistake({
    id: 'login-endpointid-confusion',
    step: STEPS.fields,
    title: 'login and endpointId confused',
    explanation:
      'The formula got the merchant login where the endpointId belongs, or the endpointId where the login belongs.',
    fix: 'Formulas of sale, preauth and account verification start with the endpointId; the others with the login.',
    variantsFor: always({
      fields: (formula, ctx) =>
        formula.map((f) => {
          if (f.from === 'url') return { raw: ctx.login, cents: false };
          if (f.from === 'credentials') return { raw: ctx.endpointId, cents: false };
          return { raw: raw(f, ctx), cents: f.cents };
        }),
    }),
  }),
  ...SEPARATORS.map(([id, separator, name]) =>
    mistake({
      id,
      step: STEPS.separator,
      title: `fields joined with ${name}`,
      explanation:
        `The values and the key were joined with ${name}; the formula concatenates them with nothing ` + 'between.',
      fix: "Concatenate the values and the key with no separator (join(''), not join(',')).",
      variantsFor: always({ separator }),
    }),
  ),
  mistake({
    id: 'key-not-last',
    step: STEPS.keyPlace,
    title: 'control key first instead of last',
    explanation: 'The merchant control key was put at the start of the concatenation; it goes last.',
    fix: "Append the control key after the formula's fields.",
    variantsFor: always({ keyFirst: true }),
  }),
  mistake({
    id: 'key-trailing-newline',
    step: STEPS.keyForm,
    title: 'control key with a trailing newline',
    explanation: 'The control key was read from a file or an environment variable with its line break kept.',
    fix: 'Trim the control key where it is read (trim(), rtrim, strip).',
    variantsFor: always({ key: (k) => `${k}\n` }),
  }),
  mistake({
    id: 'sha256-digest',
    step: STEPS.digest,
    title: 'SHA-256 instead of SHA-1',
    explanation: 'The concatenation was hashed with SHA-256; control is SHA-1.',
    fix: "Hash the concatenation with SHA-1 (createHash('sha1'), sha1()).",
    variantsFor: always({ digest: 'sha256' }),
  }),
  mistake({
    id: 'md5-digest',
    step: STEPS.digest,
    title: 'MD5 instead of SHA-1',
    explanation: 'The concatenation was hashed with MD5; control is SHA-1.',
    fix: "Hash the concatenation with SHA-1 (createHash('sha1'), sha1()).",
    variantsFor: always({ digest: 'md5' }),
  }),
  mistake({
    id: 'uppercase-hex',
    step: STEPS.encoding,
    title: 'digest in uppercase hex',
    explanation: 'The SHA-1 digest was written in uppercase hex; control is lowercase hex.',
    fix: 'Write the digest as 40 lowercase hex digits.',
    variantsFor: always({ encoding: 'HEX' }),
  }),
  mistake({
    id: 'base64-digest',
    step: STEPS.encoding,
    title: 'digest in Base64',
    explanation: 'The SHA-1 digest was Base64-encoded; control is lowercase hex.',
    fix: 'Write the digest as hex (digest("hex")).',
    variantsFor: always({ encoding: 'base64' }),
  }),
];

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
  const amount = amountSent(formula, ctx);
  if (amount === undefined) return undefined;
  const exact = cents(amount);
  return exact === undefined ? undefined : m.explainSent(amount, exact);
}
