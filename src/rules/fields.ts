/**
 * The request's own fields: the mandatory fields of its request schema, each well-formed (A-25: the
 * operation's field table, read off its public page), and the amount in the grammar the control formula's
 * cents conversion reads. The form is read as the pages say (A-36, schemas/request-check.ts): an
 * optional field sent blank is not sent, an unsigned value loses its outer whitespace, an unlisted field
 * is ignored; a blank amount is none, so a return without one reverses the whole order.
 */
import { checkRequestFields, requestSchemaOf } from '../schemas/index.ts';
import { requestRule } from './request-rule.ts';
import { fail, PASS, skip } from './rule.ts';

/**
 * The control field is the signature's, judged by the control rules, not the request schema. oauth_* need no
 * exception here: no request schema names one, and checkRequestFields lets them repeat (schemas/request-check.ts).
 */
const isControl = (name: string): boolean => name === 'control';

export const requiredFields = requestRule({
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
    // Every row has one: the spec's, or ours where the spec shows none.
    const problem = checkRequestFields(requestSchemaOf(req.match.endpoint), req.params, isControl);
    return problem === undefined ? PASS : fail(problem.message, { field: problem.field, code: problem.code });
  },
});

export const amountFormat = requestRule({
  id: 'amount-format',
  title: 'amount format',
  clause: 'Identifiers: amount "number", in formulas integer cents; A-7',
  basis: 'assumption',
  assumptions: ['A-7'],
  refusals: [{ status: 400, code: 'FIELD_INVALID' }],
  hint: 'Write amounts as a plain decimal with at most two decimals, e.g. 10.00 (no sign, exponent or separators).',
  needs: ['form'],
  check(req) {
    // The request derives the cents once; the signer's formula and the mock's order read the same grammar.
    const amount = req.amount;
    if (amount === undefined) return skip('no amount in this request');
    return amount.problem === undefined ? PASS : fail(amount.problem, { field: 'amount' });
  },
});
