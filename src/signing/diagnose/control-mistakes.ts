/**
 * The control recipe (api-spec.md Scheme A) as steps, and the operators a partner's code applies at each: how
 * the amount and the other values are written, which fields go in and in what order, the separator, the key's
 * place and form, the digest and its encoding. Values are looked up the way the reference does (control.ts).
 */
import { createHash } from 'node:crypto';
import type { ControlField } from '../../catalogue/index.ts';
import { CARD_NUMBER_FIELDS, CVV_FIELDS } from '../../catalogue/test-cards.ts';
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
  /** The fields a variant left out of the formula or added to it, for the diagnosis to name (none by default). */
  readonly named?: readonly string[];
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
  /** The explanation and fix in this request's values, for the fields a variant left out or added (its `named`). */
  readonly explainFields?: (named: readonly string[], formula: readonly ControlField[], ctx: ControlContext) => string;
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

/** A request's formula values, looked up once per request and formula: the search reads them thousands of times. */
const ITEMS = new WeakMap<ControlContext, WeakMap<readonly ControlField[], Item[]>>();
function formulaItems(formula: readonly ControlField[], ctx: ControlContext): Item[] {
  let byFormula = ITEMS.get(ctx);
  if (byFormula === undefined) ITEMS.set(ctx, (byFormula = new WeakMap()));
  let items = byFormula.get(formula);
  if (items === undefined) byFormula.set(formula, (items = formula.map((f) => ({ raw: raw(f, ctx), cents: f.cents }))));
  return items;
}

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

const SHAPES = new Map<string, RegExp>();

/** Whether a value has the shape a recipe's digest and encoding give (length, hex case, base64 padding). */
export function shapeFits(recipe: Pick<ControlRecipe, 'digest' | 'encoding'>, value: string): boolean {
  const name = `${recipe.digest}/${recipe.encoding}`;
  let shape = SHAPES.get(name);
  if (shape === undefined) SHAPES.set(name, (shape = digestPattern(DIGEST_BYTES[recipe.digest], recipe.encoding)));
  return shape.test(value);
}

const DIGESTS = Object.keys(DIGEST_BYTES) as Digest[];
const ENCODINGS: readonly Encoding[] = ['hex', 'HEX', 'base64'];

/**
 * Whether a variant could be part of a recipe giving a value of this shape: false for a digest or encoding that no
 * encoding or digest makes fit (SHA-256 for a 40-digit value), so the search never builds recipes around it.
 */
export const shapeCanFit = (variant: Partial<ControlRecipe>, value: string): boolean =>
  DIGESTS.some((digest) =>
    ENCODINGS.some((encoding) =>
      shapeFits({ digest: variant.digest ?? digest, encoding: variant.encoding ?? encoding }, value),
    ),
  );

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
  readonly explainFields?: ControlMistake['explainFields'];
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

/** Every subset of `size` of the items, each in the items' order. */
function subsets<T>(items: readonly T[], size: number, from = 0): T[][] {
  if (size === 0) return [[]];
  return items.slice(from).flatMap((item, i) => subsets(items, size - 1, from + i + 1).map((rest) => [item, ...rest]));
}

/** The formula with the fields at `skipped` (indexes) left out, naming them. */
function leftOut(formula: readonly ControlField[], skipped: readonly number[]): Partial<ControlRecipe> {
  return {
    fields: reordered(formula.map((_, i) => i).filter((i) => !skipped.includes(i))),
    named: skipped.map((i) => (formula[i] as ControlField).name),
  };
}

/**
 * The fields a partner could add: each sent once, none named by the formula (under either spelling of the order id),
 * never the control itself nor card data (a card number or CVV in a diagnosis would be shown); amount alone is
 * amount-in-formula's to name.
 */
function addable(formula: readonly ControlField[], ctx: ControlContext): Array<readonly [string, string]> {
  const named = new Set(formula.flatMap((f) => [f.name, OTHER_SPELLING.get(f.name) ?? f.name]));
  const names = [...new Set(ctx.params.map(([n]) => n))].filter(
    (n) => !named.has(n) && n !== 'control' && !CARD_NUMBER_FIELDS.has(n) && !CVV_FIELDS.has(n),
  );
  return names.flatMap((n) => {
    const value = sent(ctx, n);
    return value === undefined ? [] : [[n, value] as const];
  });
}

/** The formula's items with `added` (name, value) put in at item index `at`. */
const withAdded =
  (added: ReadonlyArray<readonly [string, string]>, at: number): ControlRecipe['fields'] =>
  (formula, ctx) => {
    const items = formulaItems(formula, ctx);
    const extra = added.map(([, value]): Item => ({ raw: value, cents: false }));
    return [...items.slice(0, at), ...extra, ...items.slice(at)];
  };

/** Up to three fields: the most a partner's code is searched for leaving out or adding (issue 43). */
export const MAX_FIELDS = 3;
/** Two or three added fields are taken from the first six the request sends: 35 subsets at most. */
export const MAX_ADDED_SEARCHED = 6;

/** A field as the request gives it: the name and the value signed (a cents field's cents with the amount sent). */
function valued(field: ControlField, ctx: ControlContext): string {
  const value = raw(field, ctx);
  if (value === undefined) return `${field.name} (not sent)`;
  const c = field.cents ? cents(value) : undefined;
  return c === undefined ? `${field.name}=${value}` : `${field.name}=${c} (${value} in cents)`;
}

const listed = (items: readonly string[]): string =>
  items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/** The fix in the request's values: every formula field in order, then the key. */
const inOrder = (formula: readonly ControlField[], ctx: ControlContext): string =>
  `Concatenate ${formula.map((f) => valued(f, ctx)).join(', ')}, in this order, then the control key.`;

function leftOutExplained(named: readonly string[], formula: readonly ControlField[], ctx: ControlContext): string {
  const fields = formula.filter((f) => named.includes(f.name)).map((f) => valued(f, ctx));
  const which =
    fields.length === 1 ? `The formula's field ${fields.join('')} was` : `The formula's fields ${listed(fields)} were`;
  return `${which} left out of the concatenation. ${inOrder(formula, ctx)}`;
}

function addedExplained(named: readonly string[], formula: readonly ControlField[], ctx: ControlContext): string {
  const fields = named.map((n) => `${n}=${sent(ctx, n) ?? ''}`);
  const which = fields.length === 1 ? `The field ${fields.join('')} was` : `The fields ${listed(fields)} were`;
  const them = fields.length === 1 ? 'it' : 'them';
  return `${which} concatenated in, though the formula does not name ${them}. ${inOrder(formula, ctx)}`;
}

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
    variantsFor: (formula) => formula.map((_, skip) => leftOut(formula, [skip])),
    explainFields: leftOutExplained,
  }),
  mistake({
    id: 'missing-fields',
    step: STEPS.fields,
    title: 'two or three formula fields left out',
    explanation: 'Two or three fields of the formula were not part of the concatenation (the rest in order).',
    fix: 'Concatenate every field the formula names, in its order.',
    variantsFor: (formula) =>
      [2, MAX_FIELDS].flatMap((size) =>
        subsets(
          formula.map((_, i) => i),
          size,
        ).map((skipped) => leftOut(formula, skipped)),
      ),
    explainFields: leftOutExplained,
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
    id: 'added-fields',
    step: STEPS.fields,
    title: 'up to three fields the formula does not name concatenated in',
    explanation:
      'Up to three fields the request sends but the formula does not name were concatenated in: one field ' +
      'at any place, two or three together, in the order sent, just before the key.',
    fix: "Concatenate only the formula's fields (payconform catalogue shows them), in its order, key last.",
    // One field at each place, first where it is most often put (just before the key); amount alone is
    // amount-in-formula's. Two or three only before the key: every place for each would be thousands of digests.
    variantsFor: (formula, ctx) => {
      const fields = addable(formula, ctx);
      const places = [formula.length, ...formula.map((_, at) => at)];
      const one = fields
        .filter(([n]) => n !== 'amount')
        .flatMap((field) => places.map((at) => ({ fields: withAdded([field], at), named: [field[0]] })));
      const more = [2, MAX_FIELDS].flatMap((size) =>
        subsets(fields.slice(0, MAX_ADDED_SEARCHED), size).map((added) => ({
          fields: withAdded(added, formula.length),
          named: added.map(([n]) => n),
        })),
      );
      return [...one, ...more];
    },
    explainFields: addedExplained,
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
