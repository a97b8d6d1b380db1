/**
 * Scheme A, the control field (api-spec.md "Authentication", Scheme A): present once, 40 lowercase
 * hex digits, and the SHA-1 of the endpoint's formula with amounts in cents and the merchant
 * control key last. Rules of the other schemes do not apply to a control endpoint, and these do not
 * apply to the others.
 */
import { isControlShaped } from '../signing/control.ts';
import { requestRule, type Applicability } from './request-rule.ts';
import { fail, PASS, skip, type Outcome } from './rule.ts';
import { signatureOutcome } from './signature-evidence.ts';

/** Scheme A's rules judge the endpoints signed with a control field only. */
const CONTROL_ENDPOINTS: Applicability = {
  to: (endpoint) => endpoint.auth.kind === 'control',
  otherwise: 'the endpoint is not signed with a control field',
};

export const controlPresent = requestRule({
  id: 'control-present',
  title: 'control field sent',
  clause: 'Scheme A rule 1: "The request carries a control field in the form body"',
  basis: 'spec',
  assumptions: [],
  refusals: [{ status: 400, code: 'CONTROL_MISSING' }],
  hint: 'Send the control field in the form body of every request of a control endpoint.',
  needs: ['endpoint', 'form'],
  only: CONTROL_ENDPOINTS,
  check(req) {
    return req.controls.length > 0 ? PASS : fail('control: missing', { field: 'control' });
  },
});

export const controlFormat = requestRule({
  id: 'control-format',
  title: 'control is one SHA-1 in lowercase hex',
  clause: 'Scheme A rules 2 and 5; A-1 (40 lowercase hex digits)',
  basis: 'assumption',
  assumptions: ['A-1'],
  refusals: [{ status: 400, code: 'CONTROL_MALFORMED' }],
  hint: 'Send control once, as the 40 lowercase hex digits of the SHA-1 digest.',
  needs: ['endpoint', 'form'],
  only: CONTROL_ENDPOINTS,
  check(req) {
    const { controls } = req;
    const value = controls[0];
    if (value === undefined) return skip('no control field');
    if (controls.length === 1 && isControlShaped(value)) return PASS;
    return fail('control: must appear once, as 40 lowercase hex digits (SHA-1)', {
      field: 'control',
      expected: '40 lowercase hex digits, once',
      actual: controls.length > 1 ? `${controls.length} control fields` : `${value.length} characters`,
    });
  },
});

export const controlSignature = requestRule({
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
  only: CONTROL_ENDPOINTS,
  check(req): Outcome {
    const { endpoint } = req.match;
    const value = req.controls[0];
    if (value === undefined || req.controls.length > 1) return skip('no single control field');
    return signatureOutcome(
      req,
      { control: value },
      'control',
      `control: does not match ${endpoint.operation}'s formula`,
    );
  },
});
