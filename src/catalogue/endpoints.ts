/**
 * The endpoint catalogue: every endpoint of api-spec.md, the 25 rows of its endpoint table plus the
 * endpoints named only in its signing examples. Signer, client, mock and features read this table;
 * nothing else lists endpoints.
 */
import type { AuthScheme, ControlField, EndpointFacts, EndpointGroup, EndpointUse, VersionSegment } from './types.ts';

const endpointId: ControlField = { name: 'endpointId', from: 'url', cents: false };
const login: ControlField = { name: 'login', from: 'credentials', cents: false };
const param = (name: string): ControlField => ({ name, from: 'params', cents: false });
const cents = (name: string): ControlField => ({ name, from: 'params', cents: true });
/** A formula field the page puts in the control "if sent" only. */
const ifSent = (field: ControlField): ControlField => ({ ...field, whenSent: true });

const control = (...fields: ControlField[]): AuthScheme => ({ kind: 'control', fields });
const hmac: AuthScheme = { kind: 'oauth-hmac-sha1' };
const rsa: AuthScheme = { kind: 'oauth-rsa-sha256' };
const unstated: AuthScheme = { kind: 'unstated' };

// The spec's formulas, in the spec's order; the merchant control key is always appended last.
const byEndpointEmail = control(endpointId, param('client_orderid'), param('email'));
const byEndpointAmountEmail = control(endpointId, param('client_orderid'), cents('amount'), param('email'));
const byLoginOrder = control(login, param('client_orderid'), param('orderid'));
// The status page: orderid Conditional, "can be requested with only client_orderid" when no orderid came back;
// absent, it enters nothing. https://doc.payneteasy.com/integration/API_commands/api_v2_status.html
const byLoginOrderIfSent = control(login, param('client_orderid'), ifSent(param('orderid')));
const byLoginOrderAmount = control(
  login,
  param('client_orderid'),
  param('orderid'),
  cents('amount'),
  param('currency'),
);
// The return page: "amount (in minor units, if sent)", "currency (if sent)"; with both sent, the capture's formula.
// https://doc2.payneteasy.com/integration/API_commands/api_v2_return.html
const byLoginOrderAmountIfSent = control(
  login,
  param('client_orderid'),
  param('orderid'),
  ifSent(cents('amount')),
  ifSent(param('currency')),
);
const byLoginCardRefAmount = control(
  login,
  param('client_orderid'),
  param('cardrefid'),
  cents('amount'),
  param('currency'),
);
const threeDsUpload = control(login, param('client-order-id'), param('orderid'));
// "none stated" in the spec; the family's public page states the formula: login + cardrefid.
// Its `login` is a request parameter there, the same login the other formulas take.
const byLoginCardRef: AuthScheme = {
  kind: 'control',
  fields: [login, param('cardrefid')],
  fromPublicPage: 'https://doc.payneteasy.eu/integration/API_commands/api_v2_get-card-info.html',
};

// A-3, row by row from the family's public page of each operation (its "API URLs" table).
const COM = 'https://doc.payneteasy.com/integration/API_commands/';
const DOC2 = 'https://doc2.payneteasy.com/integration/API_commands/';
const EU = 'https://doc.payneteasy.eu/integration/API_commands/';
/** The page lists the operation at `…/group/ENDPOINTGROUPID` too: a group id is accepted. */
const groupUrl = (page: string): EndpointGroup => ({ accepted: true, page });
/** The page lists `…/ENDPOINTID` only, or (page null) the family publishes no page: no group id. */
const noGroupUrl = (page: string | null): EndpointGroup => ({ accepted: false, page });

/** A request schema the spec does not show, named by us (docs/assumptions.md A-25). */
interface Assumed {
  readonly assumed: string;
}
const assumed = (name: string): Assumed => ({ assumed: name });

/** How the mock, the request check and the feature generator use a row: stated for every row. */
type Use = Omit<EndpointUse, 'checkedRequestSchema'>;

function row<const O extends string>(
  operation: O,
  path: string,
  requestSchema: string | Assumed,
  responseSchema: string | null,
  auth: AuthScheme,
  endpointGroup: EndpointGroup,
  use: Use,
  source: EndpointFacts['source'] = 'table',
): EndpointFacts & EndpointUse & { readonly operation: O } {
  const version = path.split('/')[2] === '3ds' ? '3ds/v1' : (path.split('/')[2] as VersionSegment);
  const [shown, checked] =
    typeof requestSchema === 'string' ? [requestSchema, requestSchema] : [null, requestSchema.assumed];
  return {
    operation,
    path: `${path}/{endpointId}`,
    version,
    requestSchema: shown,
    responseSchema,
    auth,
    endpointGroup,
    source,
    checkedRequestSchema: checked,
    mockBehaviour: use.mockBehaviour,
    featureArea: use.featureArea,
    movesMoney: use.movesMoney,
  };
}

// Each row: operation, path, request and response schema, authentication, whether the public docs
// show an endpoint-group URL for it (A-3, with the page), then how it is used:
// the mock's behaviour, the features/ folder, and whether it moves funds (@money on a live run).
const ROWS = [
  row(
    'TDS_UPLOAD_CRES_RESULT',
    '/api/3ds/v1/upload-cres-result',
    'TdsCResResultRequest',
    'AsyncResponse',
    threeDsUpload,
    groupUrl(`${COM}upload-cres-result.html`),
    { mockBehaviour: 'move', featureArea: 'threeds', movesMoney: false },
  ),
  row(
    'TDS_UPLOAD_METHOD_URL_RESULT',
    '/api/3ds/v1/upload-method-url-result',
    'TdsMethodUrlResultRequest',
    'AsyncResponse',
    threeDsUpload,
    groupUrl(`${DOC2}upload-method-url-result.html`),
    { mockBehaviour: 'move', featureArea: 'threeds', movesMoney: false },
  ),
  row(
    'TDS_UPLOAD_PARES_RESULT',
    '/api/3ds/v1/upload-pares-result',
    'TdsPaResResultRequest',
    'AsyncResponse',
    threeDsUpload,
    groupUrl(`${DOC2}upload-pares-result.html`),
    { mockBehaviour: 'move', featureArea: 'threeds', movesMoney: false },
  ),
  row(
    'ACCOUNT_VERIFICATION_FORM',
    '/api/v2/account-verification-form',
    'AccountVerificationFormRequest',
    'AsyncCheckoutFormRedirect',
    byEndpointEmail,
    groupUrl(`${EU}api_v2_account-verification-form.html`),
    { mockBehaviour: 'form', featureArea: 'forms', movesMoney: false },
  ),
  row(
    'ACCOUNT_VERIFICATION',
    '/api/v2/account-verification',
    'AccountVerificationRequest',
    'AsyncResponse',
    byEndpointEmail,
    groupUrl(`${EU}api_v2_account-verification.html`),
    { mockBehaviour: 'payment', featureArea: 'payments', movesMoney: false },
  ),
  row(
    'CAPTURE',
    '/api/v2/capture',
    'CaptureRequest',
    'AsyncResponse',
    byLoginOrderAmount,
    groupUrl(`${EU}api_v2_capture.html`),
    { mockBehaviour: 'move', featureArea: 'payments', movesMoney: true },
  ),
  row(
    'CARDREF',
    '/api/v2/create-card-ref',
    'CreateCardRefRequest',
    'CardRefAsyncResponse',
    byLoginOrder,
    groupUrl(`${COM}api_v2_create-card-ref.html`),
    { mockBehaviour: 'card-ref-of-order', featureArea: 'cards', movesMoney: false },
  ),
  row(
    'CARDINFO',
    '/api/v2/get-card-info',
    'GetCardInfoRequest',
    'CardInfoAsyncResponse',
    byLoginCardRef,
    groupUrl(`${EU}api_v2_get-card-info.html`),
    { mockBehaviour: 'card-info', featureArea: 'cards', movesMoney: false },
  ),
  row(
    'REBILL',
    '/api/v2/make-rebill',
    'RebillRequest',
    'AsyncResponse',
    byLoginCardRefAmount,
    groupUrl(`${COM}api_v2_make-rebill-sale.html`),
    { mockBehaviour: 'by-card-ref', featureArea: 'cards', movesMoney: true },
  ),
  row(
    'PAYMENTFORM',
    '/api/v2/payment-form',
    'PaymentFormRequest',
    'AsyncCheckoutFormRedirect',
    unstated,
    noGroupUrl(null),
    { mockBehaviour: 'form', featureArea: 'forms', movesMoney: true },
  ),
  row(
    'PAYOUTFORM',
    '/api/v2/payout-form',
    'PayoutFormRequest',
    'AsyncCheckoutFormRedirect',
    unstated,
    groupUrl(`${EU}api_v2_payout_form.html`),
    { mockBehaviour: 'form', featureArea: 'forms', movesMoney: true },
  ),
  row('PAYOUT', '/api/v2/payout', 'PayoutRequest', 'AsyncResponse', hmac, noGroupUrl(null), {
    mockBehaviour: 'payment',
    featureArea: 'payouts',
    movesMoney: true,
  }),
  row(
    'PREAUTHFORM',
    '/api/v2/preauth-form',
    'AuthFormRequest',
    'AsyncCheckoutFormRedirect',
    byEndpointAmountEmail,
    groupUrl(`${COM}api_v2_preauth-form.html`),
    { mockBehaviour: 'form', featureArea: 'forms', movesMoney: true },
  ),
  row(
    'PREAUTH',
    '/api/v2/preauth',
    'AuthRequest',
    'AsyncResponse',
    byEndpointAmountEmail,
    groupUrl(`${DOC2}api_v2_preauth.html`),
    { mockBehaviour: 'payment', featureArea: 'payments', movesMoney: true },
  ),
  row(
    'RETURN',
    '/api/v2/return',
    'ReturnRequest',
    'AsyncResponse',
    byLoginOrderAmountIfSent,
    groupUrl(`${DOC2}api_v2_return.html`),
    { mockBehaviour: 'move', featureArea: 'payments', movesMoney: true },
  ),
  row(
    'SALEFORM',
    '/api/v2/sale-form',
    'SaleFormRequest',
    'AsyncCheckoutFormRedirect',
    byEndpointAmountEmail,
    groupUrl(`${DOC2}api_v2_sale-form.html`),
    { mockBehaviour: 'form', featureArea: 'forms', movesMoney: true },
  ),
  row(
    'SALE',
    '/api/v2/sale',
    'SaleRequest',
    'AsyncResponse',
    byEndpointAmountEmail,
    groupUrl(`${DOC2}api_v2_sale.html`),
    { mockBehaviour: 'payment', featureArea: 'payments', movesMoney: true },
  ),
  row(
    'STATUS',
    '/api/v2/status',
    'StatusRequest',
    'StatusResponse',
    byLoginOrderIfSent,
    groupUrl(`${COM}api_v2_status.html`),
    { mockBehaviour: 'status', featureArea: 'status', movesMoney: false },
  ),
  row('VOID', '/api/v2/void', 'VoidRequest', 'AsyncResponse', byLoginOrder, groupUrl(`${COM}api_v2_void.html`), {
    mockBehaviour: 'move',
    featureArea: 'payments',
    movesMoney: false,
  }),
  row(
    'CARDREF_V4',
    '/api/v4/create-card-ref',
    'CreateCardRefV4Request',
    'CardRefV4AsyncResponse',
    rsa,
    groupUrl(`${COM}api_v4_create-card-ref.html`),
    { mockBehaviour: 'card-ref-of-card', featureArea: 'cards', movesMoney: false },
  ),
  row(
    'CREATE_RP_V4',
    '/api/v4/create-recurring-payment',
    'RecurringPaymentForCreation',
    'CreateRecurringPaymentResponse',
    rsa,
    noGroupUrl(`${DOC2}api_v4_create-recurring-payment.html`),
    { mockBehaviour: 'recurring-create', featureArea: 'recurring', movesMoney: false },
  ),
  row('PAYOUT_V4_CHECK', '/api/v4/payout-check', 'PayoutCheckRequest', 'AsyncResponse', rsa, noGroupUrl(null), {
    mockBehaviour: 'payment',
    featureArea: 'payouts',
    movesMoney: false,
  }),
  row(
    'PAYOUT_V4_PAY',
    '/api/v4/payout-pay',
    'PayoutPayRequest',
    'AsyncResponse',
    rsa,
    groupUrl(`${COM}api_v4_payout-pay.html`),
    { mockBehaviour: 'move', featureArea: 'payouts', movesMoney: true },
  ),
  row('PAYOUT_V4', '/api/v4/payout', 'PayoutV4Request', 'AsyncResponse', rsa, groupUrl(`${COM}api_v4_payout.html`), {
    mockBehaviour: 'payment',
    featureArea: 'payouts',
    movesMoney: true,
  }),
  row(
    'PROCESS_RP_V4',
    '/api/v4/process-recurring-payment',
    assumed('ProcessRecurringPaymentRequest'),
    null,
    rsa,
    noGroupUrl(`${DOC2}api_v4_process-recurring-payment.html`),
    { mockBehaviour: 'recurring-process', featureArea: 'recurring', movesMoney: true },
  ),
  // Named only in the spec's signing examples. Operation names are ours (docs/assumptions.md A-4).
  row(
    'PAN_ELIGIBILITY_SEND',
    '/api/v2/pan-eligibility/send',
    assumed('PanEligibilityRequest'),
    null,
    hmac,
    noGroupUrl(`${COM}api_v2_pan-eligibility.html`),
    { mockBehaviour: 'payment', featureArea: 'transfers', movesMoney: false },
    'signing-example',
  ),
  row(
    'TRANSFER_V4',
    '/api/v4/transfer',
    assumed('TransferV4Request'),
    null,
    rsa,
    groupUrl(`${COM}api_v4_transfer.html`),
    { mockBehaviour: 'payment', featureArea: 'transfers', movesMoney: true },
    'signing-example',
  ),
  // The spec names no scheme for transfer-by-ref; "all /api/v4/ endpoints" use RSA-SHA256.
  row(
    'TRANSFER_BY_REF_V4',
    '/api/v4/transfer-by-ref',
    assumed('TransferByRefV4Request'),
    null,
    rsa,
    groupUrl(`${COM}api_v4_deposit_transfer.html`),
    { mockBehaviour: 'by-card-ref', featureArea: 'transfers', movesMoney: true },
    'signing-example',
  ),
];

/** An operation name of the catalogue: the compiler knows every one, so a typo does not compile. */
export type Operation = (typeof ROWS)[number]['operation'];

/** A catalogue row. Here, not in types.ts, as it needs Operation, which the rows define. */
export interface Endpoint extends EndpointFacts, EndpointUse {
  /** Operation name as in the spec's table (SALE, PREAUTHFORM, PAYOUT_V4 …). */
  readonly operation: Operation;
}

/** A catalogue row, or the stand-in for a generic RFC 5849 request whose URL is no catalogue endpoint. */
export interface SigningEndpoint extends EndpointFacts {
  readonly operation: Operation | 'RFC5849';
}

export const ENDPOINTS: readonly Endpoint[] = Object.freeze(ROWS);

/**
 * Every operation by name (`OP.SALE === 'SALE'`): code outside the catalogue names an operation
 * through this object, never by a string literal, so a renamed or removed row breaks the build.
 */
export const OP = Object.freeze(Object.fromEntries(ROWS.map((e) => [e.operation, e.operation]))) as {
  readonly [K in Operation]: K;
};
