/**
 * The request's own fields: the mandatory fields of its request schema, each well-formed,
 * and the amount in the grammar the control formula's cents conversion reads.
 */
import { checkRequestFields, requestSchemaOf } from '../schemas/index.ts';
import { toCents } from '../signing/cents.ts';
import type { RequestUnderTest } from './request.ts';
import { fail, PASS, skip, type Rule } from './rule.ts';

export const requiredFields: Rule<
  RequestUnderTest,
  'required-fields',
  'FIELD_MISSING' | 'FIELD_INVALID' | 'FIELD_DUPLICATE'
> = {
  id: 'required-fields',
  title: 'required fields, well-formed',
  clause: 'Named schemas (field lists "not shown": A-25)',
  basis: 'assumption',
  assumptions: ['A-25'],
  refusals: [
    { status: 400, code: 'FIELD_MISSING' },
    { status: 400, code: 'FIELD_INVALID' },
    { status: 400, code: 'FIELD_DUPLICATE' },
  ],
  hint: 'Send every mandatory field of the request schema once, in the documented format.',
  needs: ['endpoint', 'form'],
  check(req) {
    const schema = requestSchemaOf(req.match!.endpoint);
    if (schema === undefined) return skip('the spec shows no request schema for this endpoint');
    // The signature's own fields are judged by the scheme's rules.
    const problem = checkRequestFields(
      schema,
      req.params!.filter(([n]) => n !== 'control' && !n.startsWith('oauth_')),
    );
    return problem === undefined ? PASS : fail(problem.message, { field: problem.field, code: problem.code });
  },
};

export const amountFormat: Rule<RequestUnderTest, 'amount-format', 'FIELD_INVALID'> = {
  id: 'amount-format',
  title: 'amount format',
  clause: 'Identifiers: amount "number", in formulas integer cents; A-7',
  basis: 'assumption',
  assumptions: ['A-7'],
  refusals: [{ status: 400, code: 'FIELD_INVALID' }],
  hint: 'Write amounts as a plain decimal with at most two decimals, e.g. 10.00 (no sign, exponent or separators).',
  needs: ['form'],
  check(req) {
    const amount = req.field('amount');
    if (amount === undefined) return skip('no amount in this request');
    try {
      toCents(amount);
      return PASS;
    } catch (err) {
      return fail((err as Error).message, { field: 'amount' });
    }
  },
};
