/**
 * The endpoint catalogue: every endpoint of api-spec.md, the 25 rows of its endpoint table plus the
 * endpoints named only in its signing examples. Signer, client, mock and features read this table;
 * nothing else lists endpoints.
 */
import type { AuthScheme, ControlField, Endpoint, EndpointFacts, EndpointUse, VersionSegment } from './types.ts';

const endpointId: ControlField = { name: 'endpointId', from: 'url', cents: false };
const login: ControlField = { name: 'login', from: 'credentials', cents: false };
const param = (name: string): ControlField => ({ name, from: 'params', cents: false });
const cents = (name: string): ControlField => ({ name, from: 'params', cents: true });

const control = (...fields: ControlField[]): AuthScheme => ({ kind: 'control', fields });
const hmac: AuthScheme = { kind: 'oauth-hmac-sha1' };
const rsa: AuthScheme = { kind: 'oauth-rsa-sha256' };
const unstated: AuthScheme = { kind: 'unstated' };

// The spec's formulas, in the spec's order; the merchant control key is always appended last.
const byEndpointEmail = control(endpointId, param('client_orderid'), param('email'));
const byEndpointAmountEmail = control(endpointId, param('client_orderid'), cents('amount'), param('email'));
const byLoginOrder = control(login, param('client_orderid'), param('orderid'));
const byLoginOrderAmount = control(login, param('client_orderid'), param('orderid'), cents('amount'), param('currency'));
const byLoginCardRefAmount = control(login, param('client_orderid'), param('cardrefid'), cents('amount'), param('currency'));
const threeDsUpload = control(login, param('client-order-id'), param('orderid'));

/** A request schema the spec does not show, named by us (docs/assumptions.md A-25). */
interface Assumed { readonly assumed: string }
const assumed = (name: string): Assumed => ({ assumed: name });

/** How the mock, the request check and the feature generator use a row: stated for every row. */
type Use = Omit<EndpointUse, 'checkedRequestSchema'>;

function row<const O extends string>(
  operation: O,
  path: string,
  requestSchema: string | Assumed,
  responseSchema: string | null,
  auth: AuthScheme,
  use: Use,
  source: EndpointFacts['source'] = 'table',
): EndpointFacts & EndpointUse & { readonly operation: O } {
  const version = path.split('/')[2] === '3ds' ? '3ds/v1' : (path.split('/')[2] as VersionSegment);
  // a group id stands in for the endpoint id exactly where the formula is keyed by endpointId.
  const acceptsEndpointGroup = auth.kind === 'control' && auth.fields[0] === endpointId;
  const [shown, checked] = typeof requestSchema === 'string' ? [requestSchema, requestSchema] : [null, requestSchema.assumed];
  return {
    operation, path: `${path}/{endpointId}`, version, requestSchema: shown, responseSchema, auth, acceptsEndpointGroup, source,
    checkedRequestSchema: checked, mockBehaviour: use.mockBehaviour, featureArea: use.featureArea, movesMoney: use.movesMoney,
  };
}

// Each row: operation, path, request and response schema, authentication, then how it is used:
// the mock's behaviour, the features/ folder, and whether it moves funds (@money on a live run).
const ROWS = [
  row('TDS_UPLOAD_CRES_RESULT', '/api/3ds/v1/upload-cres-result', 'TdsCResResultRequest', 'AsyncResponse', threeDsUpload,
    { mockBehaviour: 'move', featureArea: 'threeds', movesMoney: false }),
  row('TDS_UPLOAD_METHOD_URL_RESULT', '/api/3ds/v1/upload-method-url-result', 'TdsMethodUrlResultRequest', 'AsyncResponse', threeDsUpload,
    { mockBehaviour: 'move', featureArea: 'threeds', movesMoney: false }),
  row('TDS_UPLOAD_PARES_RESULT', '/api/3ds/v1/upload-pares-result', 'TdsPaResResultRequest', 'AsyncResponse', threeDsUpload,
    { mockBehaviour: 'move', featureArea: 'threeds', movesMoney: false }),
  row('ACCOUNT_VERIFICATION_FORM', '/api/v2/account-verification-form', 'AccountVerificationFormRequest', 'AsyncCheckoutFormRedirect', byEndpointEmail,
    { mockBehaviour: 'form', featureArea: 'forms', movesMoney: false }),
  row('ACCOUNT_VERIFICATION', '/api/v2/account-verification', 'AccountVerificationRequest', 'AsyncResponse', byEndpointEmail,
    { mockBehaviour: 'payment', featureArea: 'payments', movesMoney: false }),
  row('CAPTURE', '/api/v2/capture', 'CaptureRequest', 'AsyncResponse', byLoginOrderAmount,
    { mockBehaviour: 'move', featureArea: 'payments', movesMoney: true }),
  row('CARDREF', '/api/v2/create-card-ref', 'CreateCardRefRequest', 'CardRefAsyncResponse', byLoginOrder,
    { mockBehaviour: 'card-ref-of-order', featureArea: 'cards', movesMoney: false }),
  row('CARDINFO', '/api/v2/get-card-info', 'GetCardInfoRequest', 'CardInfoAsyncResponse', unstated,
    { mockBehaviour: 'card-info', featureArea: 'cards', movesMoney: false }),
  row('REBILL', '/api/v2/make-rebill', 'RebillRequest', 'AsyncResponse', byLoginCardRefAmount,
    { mockBehaviour: 'by-card-ref', featureArea: 'cards', movesMoney: true }),
  row('PAYMENTFORM', '/api/v2/payment-form', 'PaymentFormRequest', 'AsyncCheckoutFormRedirect', unstated,
    { mockBehaviour: 'form', featureArea: 'forms', movesMoney: true }),
  row('PAYOUTFORM', '/api/v2/payout-form', 'PayoutFormRequest', 'AsyncCheckoutFormRedirect', unstated,
    { mockBehaviour: 'form', featureArea: 'forms', movesMoney: true }),
  row('PAYOUT', '/api/v2/payout', 'PayoutRequest', 'AsyncResponse', hmac,
    { mockBehaviour: 'payment', featureArea: 'payouts', movesMoney: true }),
  row('PREAUTHFORM', '/api/v2/preauth-form', 'AuthFormRequest', 'AsyncCheckoutFormRedirect', byEndpointAmountEmail,
    { mockBehaviour: 'form', featureArea: 'forms', movesMoney: true }),
  row('PREAUTH', '/api/v2/preauth', 'AuthRequest', 'AsyncResponse', byEndpointAmountEmail,
    { mockBehaviour: 'payment', featureArea: 'payments', movesMoney: true }),
  row('RETURN', '/api/v2/return', 'ReturnRequest', 'AsyncResponse', byLoginOrderAmount,
    { mockBehaviour: 'move', featureArea: 'payments', movesMoney: true }),
  row('SALEFORM', '/api/v2/sale-form', 'SaleFormRequest', 'AsyncCheckoutFormRedirect', byEndpointAmountEmail,
    { mockBehaviour: 'form', featureArea: 'forms', movesMoney: true }),
  row('SALE', '/api/v2/sale', 'SaleRequest', 'AsyncResponse', byEndpointAmountEmail,
    { mockBehaviour: 'payment', featureArea: 'payments', movesMoney: true }),
  row('STATUS', '/api/v2/status', 'StatusRequest', 'StatusResponse', byLoginOrder,
    { mockBehaviour: 'status', featureArea: 'status', movesMoney: false }),
  row('VOID', '/api/v2/void', 'VoidRequest', 'AsyncResponse', byLoginOrder,
    { mockBehaviour: 'move', featureArea: 'payments', movesMoney: false }),
  row('CARDREF_V4', '/api/v4/create-card-ref', 'CreateCardRefV4Request', 'CardRefV4AsyncResponse', rsa,
    { mockBehaviour: 'card-ref-of-card', featureArea: 'cards', movesMoney: false }),
  row('CREATE_RP_V4', '/api/v4/create-recurring-payment', 'RecurringPaymentForCreation', 'CreateRecurringPaymentResponse', rsa,
    { mockBehaviour: 'recurring-create', featureArea: 'recurring', movesMoney: false }),
  row('PAYOUT_V4_CHECK', '/api/v4/payout-check', 'PayoutCheckRequest', 'AsyncResponse', rsa,
    { mockBehaviour: 'payment', featureArea: 'payouts', movesMoney: false }),
  row('PAYOUT_V4_PAY', '/api/v4/payout-pay', 'PayoutPayRequest', 'AsyncResponse', rsa,
    { mockBehaviour: 'move', featureArea: 'payouts', movesMoney: true }),
  row('PAYOUT_V4', '/api/v4/payout', 'PayoutV4Request', 'AsyncResponse', rsa,
    { mockBehaviour: 'payment', featureArea: 'payouts', movesMoney: true }),
  row('PROCESS_RP_V4', '/api/v4/process-recurring-payment', assumed('ProcessRecurringPaymentRequest'), null, rsa,
    { mockBehaviour: 'recurring-process', featureArea: 'recurring', movesMoney: true }),
  // Named only in the spec's signing examples. Operation names are ours (docs/assumptions.md A-4).
  row('PAN_ELIGIBILITY_SEND', '/api/v2/pan-eligibility/send', assumed('PanEligibilityRequest'), null, hmac,
    { mockBehaviour: 'payment', featureArea: 'transfers', movesMoney: false }, 'signing-example'),
  row('TRANSFER_V4', '/api/v4/transfer', assumed('TransferV4Request'), null, rsa,
    { mockBehaviour: 'payment', featureArea: 'transfers', movesMoney: true }, 'signing-example'),
  // The spec names no scheme for transfer-by-ref; "all /api/v4/ endpoints" use RSA-SHA256.
  row('TRANSFER_BY_REF_V4', '/api/v4/transfer-by-ref', assumed('TransferByRefV4Request'), null, rsa,
    { mockBehaviour: 'by-card-ref', featureArea: 'transfers', movesMoney: true }, 'signing-example'),
];

/** An operation name of the catalogue: the compiler knows every one, so a typo does not compile. */
export type Operation = (typeof ROWS)[number]['operation'];

export const ENDPOINTS: readonly Endpoint[] = Object.freeze(ROWS);

/**
 * Every operation by name (`OP.SALE === 'SALE'`): code outside the catalogue names an operation
 * through this object, never by a string literal, so a renamed or removed row breaks the build.
 */
export const OP = Object.freeze(Object.fromEntries(ROWS.map((e) => [e.operation, e.operation]))) as { readonly [K in Operation]: K };
