/**
 * The request field tables, one per request schema the catalogue names (issue 43): filled from the
 * family's public pages; src/schemas/requests.ts, the OpenAPI document, the Postman collection and the
 * generated docs/fields.md read them.
 *
 * A field's grammar (kind, pattern, length, example) is one entry of GRAMMAR, whatever the operation: the
 * pages give one meaning to a name, and the mock remembers a field's last valid value across operations.
 * The lengths are payconform's tolerant bounds, not each page's (the pages give `order_desc` 64k on sale and
 * 125 on preauth, and "Acquirer can redefine the necessity of some fields"): A-36. Each table row says how
 * its operation needs the field and which page says so; a row whose field the page read does not show rests
 * on A-25, one whose operation has no public page on A-36 (the page cited is the closest one).
 */
import { TEST_CARDS } from '../test-cards.ts';
import { ENDPOINTS } from '../endpoints.ts';
import type { FieldRow, FieldSource, FieldTable, Necessity } from './types.ts';

const COM = 'https://doc.payneteasy.com/integration/API_commands/';
const DOC2 = 'https://doc2.payneteasy.com/integration/API_commands/';
const EU = 'https://doc.payneteasy.eu/integration/API_commands/';

/** The public pages read for these tables (search tool, pages corpus), one per operation. */
export const PAGES = {
  sale: `${DOC2}api_v2_sale.html`,
  saleForm: `${DOC2}api_v2_sale-form.html`,
  preauth: `${DOC2}api_v2_preauth.html`,
  preauthForm: `${COM}api_v2_preauth-form.html`,
  accountVerification: `${EU}api_v2_account-verification.html`,
  accountVerificationForm: `${EU}api_v2_account-verification-form.html`,
  capture: `${EU}api_v2_capture.html`,
  return: `${DOC2}api_v2_return.html`,
  void: `${COM}api_v2_void.html`,
  status: `${COM}api_v2_status.html`,
  createCardRef: `${COM}api_v2_create-card-ref.html`,
  getCardInfo: `${EU}api_v2_get-card-info.html`,
  makeRebill: `${COM}api_v2_make-rebill-sale.html`,
  payoutForm: `${EU}api_v2_payout_form.html`,
  payoutV4: `${COM}api_v4_payout.html`,
  payoutPay: `${COM}api_v4_payout-pay.html`,
  createCardRefV4: `${COM}api_v4_create-card-ref.html`,
  createRecurringPayment: `${EU}api_v4_create-recurring-payment.html`,
  processRecurringPayment: `${DOC2}api_v4_process-recurring-payment.html`,
  uploadCres: `${COM}upload-cres-result.html`,
  uploadPares: `${DOC2}upload-pares-result.html`,
  panEligibility: `${COM}api_v2_pan-eligibility.html`,
  transfer: `${COM}api_v4_transfer.html`,
} as const;

type Grammar = Pick<FieldRow, 'kind' | 'maxLength' | 'pattern' | 'allowed' | 'description' | 'example'>;

const text = (description: string, example: string, maxLength = 128): Grammar => ({
  kind: 'text',
  maxLength,
  description,
  example,
});
const ID = '^[0-9]{1,20}$';
const URL_TEXT = 'an absolute http:// or https:// URL (rule merchant-urls, A-33)';

/** Every request field's grammar, in the order a request's fields are judged (the first malformed one is named). */
const GRAMMAR = {
  login: text('Connecting Party login name.', 'payconform-test-merchant'),
  client_orderid: text('Unique order identifier assigned by Connecting Party.', 'ORD-1'),
  'client-order-id': text('Merchant order identifier (the v4 and 3-D Secure spelling).', 'ORD-1'),
  orderid: { kind: 'digits', pattern: ID, description: 'Order id assigned by the gateway.', example: '100000000' },
  cardrefid: {
    kind: 'digits',
    pattern: ID,
    description: 'Card reference ID from create-card-ref.',
    example: '100000000',
  },
  'recurring-payment-id': {
    kind: 'digits',
    pattern: ID,
    description: 'Recurring payment ID from create-recurring-payment.',
    example: '100000000',
  },
  // The signer's grammar: what the control formula can put in cents, the schema accepts.
  amount: { kind: 'amount', description: 'Amount in the highest units with . delimiter (10.5 USD).', example: '10.00' },
  currency: { kind: 'currency', pattern: '^[A-Z]{3}$', description: 'Three-letter currency code.', example: 'EUR' },
  order_desc: text('Brief order description.', 'Order #42', 512),
  email: {
    kind: 'email',
    pattern: '^[^@\\s]{1,64}@[^@\\s]{1,190}$',
    description: "Payer's e-mail address.",
    example: 'jane.doe@example.com',
  },
  ipaddress: { kind: 'ip', description: "Payer's IP address (IPv4 or IPv6).", example: '192.0.2.10' },
  address1: text("Payer's address line 1.", '1 Test Street'),
  city: text("Payer's city.", 'Testville'),
  zip_code: text("Payer's ZIP code.", '10115', 16),
  country: { kind: 'text', pattern: '^[A-Z]{2}$', description: "Payer's country (two letters).", example: 'DE' },
  phone: {
    kind: 'text',
    pattern: '^\\+?[0-9 ()-]{5,20}$',
    description: "Payer's full international phone number.",
    example: '+49 30 1234567',
  },
  // A mandatory redirect_url must not be blank; a blank callback URL is none.
  redirect_url: { kind: 'url', pattern: '\\S', description: URL_TEXT, example: 'https://merchant.example/return' },
  server_callback_url: { kind: 'url', description: URL_TEXT, example: 'https://merchant.example/callback' },
  notify_url: { kind: 'url', description: URL_TEXT, example: 'https://merchant.example/notify' },
  card_printed_name: text('Card holder name as printed on the card.', 'JANE DOE'),
  credit_card_number: {
    kind: 'card',
    pattern: '^[0-9]{12,19}$',
    description: 'Card number.',
    example: TEST_CARDS.approved,
  },
  'destination-card-no': {
    kind: 'card',
    pattern: '^[0-9]{12,19}$',
    description: "Receiver's card number.",
    example: TEST_CARDS.approved,
  },
  expire_month: {
    kind: 'digits',
    pattern: '^(0[1-9]|1[0-2])$',
    description: 'Card expiry month, 01-12.',
    example: '12',
  },
  // The public library wants two digits; four are common too.
  expire_year: {
    kind: 'digits',
    pattern: '^([0-9]{2}|[0-9]{4})$',
    description: 'Card expiry year, YY or YYYY.',
    example: '30',
  },
  cvv2: {
    kind: 'digits',
    pattern: '^[0-9]{3,4}$',
    description: 'Card verification value, 3-4 digits.',
    example: '123',
  },
  cres: text('The ACS CRes message (3-D Secure 2).', 'eyJ0cmFuc1N0YXR1cyI6IlkifQ', 8192),
  pares: text('The ACS PaRes message (3-D Secure 1).', 'eJzLSM3JyVcozy/KSQEAGgQEXQ', 8192),
  comment: text('A brief description of the reason.', 'customer request', 512),
  first_name: text("Payer's first name.", 'Jane'),
  last_name: text("Payer's last name.", 'Doe'),
  state: text("Payer's state (USA, Canada, Australia).", 'CA', 3),
  purpose: text('Payout purpose.', 'salary'),
  'by-request-sn': text('Serial number of one request of the order, for its stage.', '1234'),
  recurrent_scenario: {
    kind: 'enum',
    allowed: ['REGULAR', 'IRREGULAR'],
    description: 'Type of the rebill.',
    example: 'REGULAR',
  },
} satisfies Record<string, Grammar>;

export type RequestFieldName = keyof typeof GRAMMAR;

/** Every field name of GRAMMAR, in its order: the order fields are judged in. */
export const REQUEST_FIELD_ORDER = Object.keys(GRAMMAR) as readonly RequestFieldName[];

/** A row before its operation's formula says whether it is signed. */
type Entry = Omit<FieldRow, 'inControl' | keyof Grammar> & { readonly name: RequestFieldName };

interface More {
  readonly condition?: string;
  readonly requiredWith?: RequestFieldName;
  readonly spec?: string;
  readonly disagreement?: string;
  readonly assumption?: string;
}

function row(name: RequestFieldName, necessity: Necessity, page: string, more: More = {}): Entry {
  const { condition, requiredWith, ...source } = more;
  return {
    name,
    necessity,
    ...(condition === undefined ? {} : { condition }),
    ...(requiredWith === undefined ? {} : { requiredWith }),
    source: { page, ...source } satisfies FieldSource,
  };
}
const must = (page: string, more?: More) => (name: RequestFieldName) => row(name, 'mandatory', page, more);
const may = (page: string, more?: More) => (name: RequestFieldName) => row(name, 'optional', page, more);
/** A field the page's parameter table, as read, does not show: the row rests on A-25. */
const UNSEEN: More = { assumption: 'A-25' };

const ORDER_FIELDS = ['client_orderid', 'amount', 'currency'] as const;
const CUSTOMER = [
  'order_desc',
  'address1',
  'city',
  'zip_code',
  'country',
  'phone',
  'ipaddress',
  'email',
  'redirect_url',
] as const;
const CARD = ['card_printed_name', 'credit_card_number', 'expire_month', 'expire_year', 'cvv2'] as const;
const PAYOUT_CARD = ['card_printed_name', 'credit_card_number', 'expire_month', 'expire_year'] as const;
const CALLBACKS = ['server_callback_url', 'notify_url'] as const;

const NAME_BY_CHANNEL = 'Parameter necessity depends on the Acquiring channel';
/** The payer fields every payment page lists: names by acquiring channel, the state for three countries. */
const payer = (page: string, names: 'by channel' | 'optional' = 'by channel'): Entry[] => [
  ...(['first_name', 'last_name'] as const).map((name) =>
    names === 'optional' ? row(name, 'optional', page) : row(name, 'conditional', page, { condition: NAME_BY_CHANNEL }),
  ),
  row('state', 'conditional', page, { condition: 'Required for USA, Canada and Australia' }),
];

/** Sale, preauth, account verification: the customer, the card typed into the shop, the callbacks. */
function cardPayment(page: string, withAmount: boolean, unseen: readonly RequestFieldName[]): Entry[] {
  return [
    ...(withAmount ? ORDER_FIELDS : ['client_orderid' as const]).map(must(page)),
    ...CUSTOMER.map((name) => row(name, 'mandatory', page, unseen.includes(name) ? UNSEEN : {})),
    ...CARD.map(must(page, UNSEEN)),
    ...payer(page),
    ...CALLBACKS.map(may(page, UNSEEN)),
  ];
}

/** The hosted forms: the same customer, no card (the payer types it on the gateway's page). */
function hostedForm(page: string, withAmount: boolean, more: More = {}, names?: 'optional'): Entry[] {
  return [
    ...(withAmount ? ORDER_FIELDS : ['client_orderid' as const]).map(must(page, more)),
    ...CUSTOMER.map((name) => row(name, 'mandatory', page, name === 'redirect_url' ? { ...UNSEEN, ...more } : more)),
    ...payer(page, names),
    ...CALLBACKS.map(may(page, { ...UNSEEN, ...more })),
  ];
}

const NO_PAGE: More = { assumption: 'A-36' };
const SPEC_AMOUNT = 'amount: "number; in the control formula it is in cents … on capture, rebill, return …"';
const V4_SPELLING = {
  spec: 'the signing examples spell the v4 order id client-order-id',
  disagreement: 'the v4 pages spell client_orderid',
};

/** Each table, rows in the order mandatory fields are reported missing. */
const TABLES: Record<string, readonly Entry[]> = {
  SaleRequest: cardPayment(PAGES.sale, true, ['redirect_url']),
  AuthRequest: cardPayment(PAGES.preauth, true, ['redirect_url']),
  SaleFormRequest: hostedForm(PAGES.saleForm, true),
  AuthFormRequest: hostedForm(PAGES.preauthForm, true),
  // No public page: read as the sale-form page it shares its answer with.
  PaymentFormRequest: hostedForm(PAGES.saleForm, true, NO_PAGE),
  AccountVerificationRequest: cardPayment(PAGES.accountVerification, false, ['phone', 'redirect_url']),
  // Its page: first_name, last_name "Necessity: Optional".
  AccountVerificationFormRequest: hostedForm(PAGES.accountVerificationForm, false, {}, 'optional'),
  CaptureRequest: [
    ...(['login', 'client_orderid', 'orderid'] as const).map(must(PAGES.capture)),
    ...(['amount', 'currency'] as const).map(
      must(PAGES.capture, {
        spec: SPEC_AMOUNT,
        disagreement: 'the page: "This parameter may or may not be sent"; the spec\'s capture formula has it',
      }),
    ),
  ],
  ReturnRequest: [
    ...(['login', 'client_orderid', 'orderid'] as const).map(must(PAGES.return)),
    row('amount', 'optional', PAGES.return, { spec: SPEC_AMOUNT }),
    row('currency', 'conditional', PAGES.return, {
      condition: 'Currency MUST be specified if amount is specified',
      requiredWith: 'amount',
    }),
  ],
  VoidRequest: [
    ...(['login', 'client_orderid', 'orderid'] as const).map(must(PAGES.void)),
    ...(['amount', 'currency', 'comment'] as const).map(
      may(PAGES.void, {
        assumption: 'A-36',
        disagreement:
          'the page marks amount ("This optional parameter") and comment Mandatory, currency Conditional; ' +
          "the spec's void formula names none of them",
      }),
    ),
  ],
  StatusRequest: [
    ...(['login', 'client_orderid'] as const).map(must(PAGES.status)),
    row('orderid', 'conditional', PAGES.status, {
      condition: 'when the merchant has it; a status "can be requested with only client_orderid" (A-61)',
      spec: 'status formula: login + client_orderid + orderid (in the control only when sent)',
      assumption: 'A-61',
    }),
    row('by-request-sn', 'optional', PAGES.status),
  ],
  CreateCardRefRequest: (['login', 'client_orderid', 'orderid'] as const).map(must(PAGES.createCardRef)),
  GetCardInfoRequest: (['login', 'cardrefid'] as const).map(must(PAGES.getCardInfo)),
  RebillRequest: [
    ...(['login', 'client_orderid', 'cardrefid', 'amount', 'currency'] as const).map(must(PAGES.makeRebill)),
    row('recurrent_scenario', 'optional', PAGES.makeRebill),
    ...CALLBACKS.map(may(PAGES.makeRebill, UNSEEN)),
  ],
  PayoutFormRequest: [
    ...ORDER_FIELDS.map(must(PAGES.payoutForm)),
    row('order_desc', 'mandatory', PAGES.payoutForm, {
      disagreement: `${PAGES.payoutForm} marks it Required, ${COM}api_v2_payout_form.html Conditional`,
    }),
    row('redirect_url', 'mandatory', PAGES.payoutForm, UNSEEN),
    row('ipaddress', 'conditional', PAGES.payoutForm, { condition: 'Ask Support Manager' }),
    row('purpose', 'conditional', PAGES.payoutForm, { condition: 'Ask Support Manager' }),
    ...CALLBACKS.map(may(PAGES.payoutForm)),
  ],
  // No public page for the v2 payout: the v4 payout page is the closest.
  PayoutRequest: [
    ...ORDER_FIELDS.map(must(PAGES.payoutV4, NO_PAGE)),
    ...PAYOUT_CARD.map(must(PAGES.payoutV4, NO_PAGE)),
    ...CALLBACKS.map(may(PAGES.payoutV4, NO_PAGE)),
  ],
  PayoutV4Request: payoutV4(PAGES.payoutV4, {}),
  // No public page for payout-check: read as the v4 payout it checks.
  PayoutCheckRequest: payoutV4(PAGES.payoutV4, NO_PAGE),
  PayoutPayRequest: [
    row('client-order-id', 'mandatory', PAGES.payoutPay, V4_SPELLING),
    row('orderid', 'mandatory', PAGES.payoutPay),
  ],
  CreateCardRefV4Request: [
    row('client-order-id', 'mandatory', PAGES.createCardRefV4, {
      ...V4_SPELLING,
      assumption: 'A-27',
      disagreement: 'the page lists login, client_orderid and orderid of a first payment, no card fields',
    }),
    ...PAYOUT_CARD.map(must(PAGES.createCardRefV4, { assumption: 'A-27' })),
  ],
  RecurringPaymentForCreation: [
    ...(['client-order-id', 'cardrefid', 'amount', 'currency'] as const).map(
      must(PAGES.createRecurringPayment, {
        assumption: 'A-27',
        disagreement: 'the page lists rp_card_type, client-orderid, the card and the payer, no cardrefid',
      }),
    ),
  ],
  ProcessRecurringPaymentRequest: [
    row('client-order-id', 'mandatory', PAGES.processRecurringPayment, {
      disagreement: 'the page spells client-orderid',
    }),
    row('recurring-payment-id', 'mandatory', PAGES.processRecurringPayment),
    row('amount', 'conditional', PAGES.processRecurringPayment, {
      condition: 'Required if amount-from and amount-to or amount-sequence are not used',
    }),
  ],
  TdsCResResultRequest: [
    ...(['client-order-id', 'orderid'] as const).map(must(PAGES.uploadCres)),
    row('cres', 'mandatory', PAGES.uploadCres, { disagreement: 'the table writes cRes, its example cres=' }),
  ],
  // The page of upload-method-url-result was not read: its sibling's fields, the same formula.
  TdsMethodUrlResultRequest: (['client-order-id', 'orderid'] as const).map(must(PAGES.uploadCres, UNSEEN)),
  TdsPaResResultRequest: [
    ...(['client-order-id', 'orderid'] as const).map(must(PAGES.uploadPares)),
    row('pares', 'mandatory', PAGES.uploadPares, { disagreement: 'the table writes paRes' }),
  ],
  PanEligibilityRequest: [
    row('client_orderid', 'mandatory', PAGES.panEligibility),
    row('credit_card_number', 'mandatory', PAGES.panEligibility, {
      spec: 'the signing example sends client-order-id and sending-card-ref-id',
      disagreement: 'the page names it sending-card-number, "if sending-card-ref-id is not specified"',
      assumption: 'A-25',
    }),
  ],
  TransferV4Request: [
    row('client-order-id', 'mandatory', PAGES.transfer, UNSEEN),
    ...(['amount', 'currency'] as const).map(must(PAGES.transfer, UNSEEN)),
    ...CARD.map(must(PAGES.transfer)),
    row('destination-card-no', 'mandatory', PAGES.transfer, UNSEEN),
  ],
  // The transfer page covers the deposit by reference too (its "RPI" cases).
  TransferByRefV4Request: (['client-order-id', 'amount', 'currency', 'cardrefid', 'destination-card-no'] as const).map(
    must(PAGES.transfer, UNSEEN),
  ),
};

function payoutV4(page: string, more: More): Entry[] {
  return [
    row('client-order-id', 'mandatory', page, { ...V4_SPELLING, ...more }),
    ...(['amount', 'currency'] as const).map(must(page, more)),
    row('order_desc', 'mandatory', page, { ...more, assumption: 'A-25', disagreement: 'the page marks it Optional' }),
    ...PAYOUT_CARD.map(must(page, { ...more, ...UNSEEN })),
    row('ipaddress', 'conditional', page, { ...more, condition: 'Ask Support Manager' }),
    ...CALLBACKS.map(may(page, more)),
  ];
}

/** The fields a control formula names, by the request schema its operations check (login included). */
function signedBySchema(): Map<string, Set<string>> {
  const signed = new Map<string, Set<string>>();
  for (const endpoint of ENDPOINTS) {
    const names = signed.get(endpoint.checkedRequestSchema) ?? new Set<string>();
    if (endpoint.auth.kind === 'control') for (const f of endpoint.auth.fields) names.add(f.name);
    signed.set(endpoint.checkedRequestSchema, names);
  }
  return signed;
}

/** The page of each table: the operation's own page, the first row's. */
function tableOf(schema: string, entries: readonly Entry[], signed: ReadonlySet<string>): FieldTable {
  const first = entries[0];
  if (first === undefined) throw new Error(`internal: the field table of ${schema} is empty`);
  return {
    schema,
    page: first.source.page,
    fields: entries.map((entry) => ({ ...GRAMMAR[entry.name], ...entry, inControl: signed.has(entry.name) })),
  };
}

const SIGNED = signedBySchema();
export const REQUEST_FIELD_TABLES: readonly FieldTable[] = Object.entries(TABLES).map(([schema, entries]) =>
  tableOf(schema, entries, SIGNED.get(schema) ?? new Set()),
);
