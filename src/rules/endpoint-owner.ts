/** The endpoint id must name an endpoint of a merchant: it decides whose data a request reaches. */
import { requestRule } from './request-rule.ts';
import { PASS } from './rule.ts';

export const endpointOwner = requestRule({
  id: 'endpoint-owner',
  title: 'endpoint id of the merchant',
  clause:
    'Identifiers: endpointId "endpoint identifier; on some operations an endpoint group identifier is also ' +
    'accepted"; A-3, A-24',
  basis: 'assumption',
  assumptions: ['A-3', 'A-24'],
  refusals: [
    { status: 400, code: 'ENDPOINT_UNKNOWN' },
    { status: 400, code: 'ENDPOINT_GROUP_NOT_ALLOWED' },
  ],
  hint: 'Use the endpointId your gateway account was given (a group id only on the operations that accept one).',
  fixedIn: 'configuration',
  needs: ['endpoint'],
  check(req) {
    const { owner } = req;
    return 'login' in owner ? PASS : owner;
  },
});
