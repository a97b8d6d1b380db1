/**
 * Scheme A, the control field (api-spec.md "Authentication", Scheme A): present once, 40 lowercase
 * hex digits, and the SHA-1 of the endpoint's formula with amounts in cents and the merchant
 * control key last. Rules of the other schemes do not apply to a control endpoint, and these do not
 * apply to the others.
 */
import type { RequestUnderTest } from './request.ts';
import { fail, PASS, skip, type Outcome, type Rule } from './rule.ts';
import { signatureOutcome } from './signature-evidence.ts';

type ControlRule<Id extends string, C extends string> = Rule<RequestUnderTest, Id, C>;

const NOT_CONTROL = 'the endpoint is not signed with a control field';

function controlValues(req: RequestUnderTest): string[] {
  return req.params!.filter(([n]) => n === 'control').map(([, v]) => v);
}

export const controlPresent: ControlRule<'control-present', 'CONTROL_MISSING'> = {
  id: 'control-present',
  title: 'control field sent',
  clause: 'Scheme A rule 1: "The request carries a control field in the form body"',
  basis: 'spec',
  assumptions: [],
  refusals: [{ status: 400, code: 'CONTROL_MISSING' }],
  hint: 'Send the control field in the form body of every request of a control endpoint.',
  needs: ['endpoint', 'form'],
  check(req) {
    if (req.match!.endpoint.auth.kind !== 'control') return skip(NOT_CONTROL);
    return controlValues(req).length > 0 ? PASS : fail('control: missing', { field: 'control' });
  },
};

export const controlFormat: ControlRule<'control-format', 'CONTROL_MALFORMED'> = {
  id: 'control-format',
  title: 'control is one SHA-1 in lowercase hex',
  clause: 'Scheme A rules 2 and 5; A-1 (40 lowercase hex digits)',
  basis: 'assumption',
  assumptions: ['A-1'],
  refusals: [{ status: 400, code: 'CONTROL_MALFORMED' }],
  hint: 'Send control once, as the 40 lowercase hex digits of the SHA-1 digest.',
  needs: ['endpoint', 'form'],
  check(req) {
    if (req.match!.endpoint.auth.kind !== 'control') return skip(NOT_CONTROL);
    const values = controlValues(req);
    if (values.length === 0) return skip('no control field');
    if (values.length === 1 && /^[0-9a-f]{40}$/.test(values[0])) return PASS;
    return fail('control: must appear once, as 40 lowercase hex digits (SHA-1)', {
      field: 'control',
      expected: '40 lowercase hex digits, once',
      actual: values.length > 1 ? `${values.length} control fields` : `${values[0].length} characters`,
    });
  },
};

export const controlSignature: ControlRule<'control-signature', 'CONTROL_INVALID' | 'FIELD_MISSING' | 'FIELD_INVALID'> =
  {
    id: 'control-signature',
    title: 'control signature',
    clause: "Scheme A rules 2–4: SHA-1 of the formula's values in order, amounts in cents, the control key last",
    basis: 'spec',
    assumptions: ['A-1'],
    refusals: [
      { status: 400, code: 'CONTROL_INVALID' },
      { status: 400, code: 'FIELD_MISSING' },
      { status: 400, code: 'FIELD_INVALID' },
    ],
    hint: 'See the diagnosis and the step-by-step explanation; fix the named canonicalisation step.',
    needs: ['endpoint', 'form', 'merchant'],
    check(req): Outcome {
      const { endpoint } = req.match!;
      if (endpoint.auth.kind !== 'control') return skip(NOT_CONTROL);
      const values = controlValues(req);
      if (values.length !== 1) return skip('no single control field');
      return signatureOutcome(
        req,
        { control: values[0] },
        'control',
        `control: does not match ${endpoint.operation}'s formula`,
      );
    },
  };
