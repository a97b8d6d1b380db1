/**
 * The `control` field, api-spec.md Scheme A: SHA-1 of the plain concatenation, in the stated order,
 * of the values the endpoint's formula names, with the merchant control key last; amounts in
 * integer cents. The spec leaves the digest's output encoding open; we use lowercase hex and the
 * concatenation's UTF-8 bytes (docs/assumptions.md A-1, A-2).
 */
import * as crypto from 'node:crypto';
import type { ControlField } from '../catalogue/index.ts';
import { fieldError } from '../errors.ts';
import { toCents } from './cents.ts';
import type { Pair } from './form-body.ts';

/** How the key is shown wherever a concatenation is printed. */
export const CONTROL_KEY_PLACEHOLDER = '<merchant_control_key>';

/** What a control looks like: the SHA-1 digest as 40 lowercase hex digits (A-1). */
export const CONTROL_PATTERN = '^[0-9a-f]{40}$';
const CONTROL_SHAPE = new RegExp(CONTROL_PATTERN);

/** Whether a sent control has the shape of one (A-1); uppercase hex is malformed. */
export const isControlShaped = (sent: string): boolean => CONTROL_SHAPE.test(sent);

export interface ControlContext {
  readonly operation: string;
  /** From the URL path (or configuration): the endpointId or endpoint group id. */
  readonly endpointId: string;
  /** The merchant login from the credentials; a `login` form field is used when absent. */
  readonly login?: string | undefined;
  readonly params: readonly Pair[];
  /** The amount field in cents where the caller has it already (the rules' request value): not converted again. */
  readonly amountCents?: string | undefined;
}

export interface ControlFieldValue {
  readonly name: string;
  readonly from: ControlField['from'];
  /** The value as sent. */
  readonly raw: string;
  /** The value as it enters the concatenation (cents where the formula says so). */
  readonly value: string;
  readonly cents: boolean;
}

export interface ControlComputation {
  readonly fields: ControlFieldValue[];
  /** The concatenation with the key shown as `<merchant_control_key>`: safe to print. */
  readonly controlInput: string;
  /** SHA-1 of the concatenation with the real key, lowercase hex. */
  readonly control: string;
}

export function formulaText(formula: readonly ControlField[]): string {
  const names = [...formula.map((f) => f.name), 'merchant_control_key'].join(' + ');
  const cents = formula.filter((f) => f.cents).map((f) => f.name);
  return `SHA-1(${names})${cents.length ? `, ${cents.join(', ')} in cents` : ''}`;
}

export function controlFieldValues(formula: readonly ControlField[], ctx: ControlContext): ControlFieldValue[] {
  return formula.map((field) => {
    const raw = rawValue(field, ctx, formula);
    return { name: field.name, from: field.from, raw, value: enteredValue(field, raw, ctx), cents: field.cents };
  });
}

/**
 * The formula's values concatenated, the key left out: what verifying a control needs, without the record of each
 * field that an explanation reads (the mock verifies every request's).
 */
export function controlConcatenation(formula: readonly ControlField[], ctx: ControlContext): string {
  let text = '';
  for (const field of formula) text += enteredValue(field, rawValue(field, ctx, formula), ctx);
  return text;
}

/**
 * A field's value as it enters the concatenation: in cents where the formula says so. A field the formula takes only
 * when sent (`whenSent`) enters nothing when absent or blank: "amount (in minor units, if sent)".
 */
const enteredValue = (field: ControlField, raw: string, ctx: ControlContext): string =>
  field.whenSent === true && raw.trim() === '' ? '' : field.cents ? centsOf(field.name, raw, ctx) : raw;

/** A cents field's value: the amount in cents where the caller has it already, else converted here. */
function centsOf(name: string, raw: string, ctx: ControlContext): string {
  return name === 'amount' && ctx.amountCents !== undefined ? ctx.amountCents : toCents(raw, name);
}

function rawValue(field: ControlField, ctx: ControlContext, formula: readonly ControlField[]): string {
  if (field.from === 'url') return ctx.endpointId;
  if (field.from === 'credentials' && ctx.login !== undefined) return ctx.login;
  // Counted in one pass, no array: the mock reads every formula field of every request.
  let value: string | undefined;
  let count = 0;
  for (const [name, v] of ctx.params) if (name === field.name && count++ === 0) value = v;
  // One match sets value, so it is a string here; the type checker cannot see that through count.
  if (count === 1) return value as string;
  if (count === 0 && field.whenSent === true) return '';
  const needs = `the ${ctx.operation} control formula is ${formulaText(formula)}`;
  if (count === 0) {
    const hint = field.from === 'credentials' ? ' (give --login or PAYCONFORM_LOGIN)' : '';
    throw fieldError('ERR_MISSING_FIELD', field.name, `is missing${hint}; ${needs}`);
  }
  throw fieldError('ERR_MISSING_FIELD', field.name, `appears ${count} times; ${needs}, so it must appear once`);
}

/**
 * SHA-1 of a text's UTF-8 bytes in lowercase hex: with node's one-shot `hash` where it has one (Node 20.12+), which
 * costs a third of a Hash object's, the mock's every signed request; with createHash on older Node 20.
 */
export function sha1HexWith(oneShot: typeof crypto.hash | undefined): (text: string) => string {
  if (oneShot !== undefined) return (text) => oneShot('sha1', text, 'hex');
  return (text) => crypto.createHash('sha1').update(text).digest('hex');
}
const sha1Hex = sha1HexWith((crypto as { hash?: typeof crypto.hash }).hash);

/** The control of a concatenation: SHA-1 of it with the control key last, lowercase hex. */
export const controlOf = (concatenation: string, controlKey: string): string => sha1Hex(concatenation + controlKey);

export function computeControl(
  formula: readonly ControlField[],
  ctx: ControlContext,
  controlKey: string,
): ControlComputation {
  const fields = controlFieldValues(formula, ctx);
  const prefix = fields.map((f) => f.value).join('');
  return {
    fields,
    controlInput: prefix + CONTROL_KEY_PLACEHOLDER,
    control: controlOf(prefix, controlKey),
  };
}
