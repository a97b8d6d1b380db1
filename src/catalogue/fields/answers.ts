/**
 * The answer field tables, one per response schema the catalogue names (issue 43): filled from the
 * family's public pages; src/schemas/responses.ts and the generated docs/fields.md read them.
 * The spec names the schemas and nothing inside them ("Field lists of these response schemas: not
 * shown"), so every row is a page's; what a page leaves open is an assumption (docs/assumptions.md).
 * Answers carry no control, so no row enters one.
 */
import type { FieldKind, FieldRow, FieldSource, FieldTable, Necessity } from './types.ts';

/** The pages the rows cite, each read in the family's public documentation. */
export const ANSWER_PAGES = {
  /** The async-response of a direct operation: type, paynet-order-id, merchant-order-id, serial-number, errors. */
  capture: 'https://doc.payneteasy.eu/integration/API_commands/api_v2_capture.html',
  saleForm: 'https://doc2.payneteasy.com/integration/API_commands/api_v2_sale-form.html',
  /** The sale-form use case: the gateway answers "Redirect-url, orderId", the payer's browser goes there. */
  saleFormUseCase: 'https://doc.payneteasy.com/integration/_sources/api_use_cases/sale_form.rst.txt',
  createCardRef: 'https://doc2.payneteasy.com/integration/API_commands/api_v2_create-card-ref.html',
  createCardRefV4: 'https://doc.payneteasy.com/integration/API_commands/api_v4_create-card-ref.html',
  getCardInfo: 'https://doc.payneteasy.eu/integration/API_commands/api_v2_get-card-info.html',
  status: 'https://doc.payneteasy.eu/integration/API_commands/api_v2_status.html',
  createRecurring:
    'https://doc.payneteasy.com/integration/_sources/API_commands/api_v4_create-recurring-payment.rst.txt',
} as const;

/** The statuses of an order, as the status page's Status List and the public libraries give them. */
export const ORDER_STATUSES = ['processing', 'approved', 'declined', 'filtered', 'error', 'unknown'] as const;

const UPPER_SNAKE = '^[A-Z][A-Z0-9_]*$';

interface RowOptions {
  readonly pattern?: string;
  readonly allowed?: readonly string[];
  readonly maxLength?: number;
  readonly condition?: string;
}

function row(
  name: string,
  necessity: Necessity,
  kind: FieldKind,
  description: string,
  example: string,
  source: FieldSource,
  options: RowOptions = {},
): FieldRow {
  return { name, necessity, kind, description, example, source, inControl: false, ...options };
}

/** The `type` row: the value (or, where pages disagree, the values) this answer's `type` has. */
function typeRow(
  values: string | readonly string[],
  page: string,
  spec: string,
  more: Omit<FieldSource, 'page' | 'spec'> = {},
): FieldRow {
  const allowed = typeof values === 'string' ? [values] : values;
  const [example = ''] = allowed;
  const description = `The type of answer: ${allowed.join(' or ')}.`;
  return row('type', 'mandatory', 'enum', description, example, { page, spec, ...more }, { allowed });
}

const serialNumber = (page: string): FieldRow =>
  row(
    'serial-number',
    'mandatory',
    'text',
    'Unique number the gateway assigned to this request.',
    '00000000-0000-0000-0000-0000043b64d7',
    { page },
  );

/** The order an answer is about; `assumption` where the operation's page does not list it. */
function orderRows(page: string, necessity: Necessity, assumption?: 'A-41'): FieldRow[] {
  const source = assumption === undefined ? { page } : { page, assumption };
  return [
    row('paynet-order-id', necessity, 'digits', 'Order id the gateway assigned.', '1969105', source, {
      pattern: '^[0-9]+$',
    }),
    row('merchant-order-id', necessity, 'text', "The merchant's client_orderid, echoed.", '902B4FF56', source),
  ];
}

/** `status` on an answer that starts an order: the pages list none there, the mock sends `processing`. */
const startedStatus = (page: string): FieldRow =>
  row(
    'status',
    'optional',
    'enum',
    'Where the new order stands; status gives the outcome.',
    'processing',
    { page, assumption: 'A-41' },
    {
      allowed: ORDER_STATUSES,
    },
  );

const STARTED_SPEC = 'Responses named AsyncResponse … "indicate asynchronous processing"; their fields "not shown"';

const asyncResponse: FieldTable = {
  schema: 'AsyncResponse',
  page: ANSWER_PAGES.capture,
  fields: [
    typeRow('async-response', ANSWER_PAGES.capture, STARTED_SPEC),
    startedStatus(ANSWER_PAGES.capture),
    ...orderRows(ANSWER_PAGES.capture, 'mandatory'),
    serialNumber(ANSWER_PAGES.capture),
  ],
};

const checkoutRedirect: FieldTable = {
  schema: 'AsyncCheckoutFormRedirect',
  page: ANSWER_PAGES.saleForm,
  fields: [
    typeRow(
      'async-form-response',
      ANSWER_PAGES.saleForm,
      'An AsyncCheckoutFormRedirect "is returned by every -form endpoint, which starts a hosted checkout"',
      { assumption: 'A-17' },
    ),
    startedStatus(ANSWER_PAGES.saleForm),
    ...orderRows(ANSWER_PAGES.saleFormUseCase, 'mandatory'),
    serialNumber(ANSWER_PAGES.saleForm),
    row(
      'redirect-url',
      'mandatory',
      'url',
      "The hosted payment page the payer's browser is sent to.",
      'https://sandbox.payneteasy.eu/paynet/form/init/1969105',
      { page: ANSWER_PAGES.saleFormUseCase },
      { pattern: '^https?://' },
    ),
  ],
};

const cardRefId = (page: string): FieldRow =>
  row('card-ref-id', 'mandatory', 'text', 'Card reference id, for later rebills and card info.', '7715', { page });

const cardRefAsync: FieldTable = {
  schema: 'CardRefAsyncResponse',
  page: ANSWER_PAGES.createCardRef,
  fields: [
    typeRow('async-response', ANSWER_PAGES.createCardRef, STARTED_SPEC),
    startedStatus(ANSWER_PAGES.createCardRef),
    ...orderRows(ANSWER_PAGES.createCardRef, 'optional', 'A-41'),
    serialNumber(ANSWER_PAGES.createCardRef),
    cardRefId(ANSWER_PAGES.createCardRef),
  ],
};

const cardRefV4Async: FieldTable = {
  schema: 'CardRefV4AsyncResponse',
  page: ANSWER_PAGES.createCardRefV4,
  fields: [
    typeRow(['async-response', 'create-card-ref-response'], ANSWER_PAGES.createCardRefV4, STARTED_SPEC, {
      disagreement:
        'the v4 page names the type create-card-ref-response; the spec calls the schema an async variant and ' +
        'the v2 page answers async-response: either is taken, the mock sends async-response',
      assumption: 'A-42',
    }),
    startedStatus(ANSWER_PAGES.createCardRefV4),
    ...orderRows(ANSWER_PAGES.createCardRefV4, 'optional', 'A-41'),
    serialNumber(ANSWER_PAGES.createCardRefV4),
    cardRefId(ANSWER_PAGES.createCardRefV4),
    row('unq-card-ref-id', 'optional', 'text', 'Card reference id unique to the PAN.', '3902982', {
      page: ANSWER_PAGES.createCardRefV4,
    }),
    row('recurring-payment-id', 'optional', 'text', "Payer's tokenized cardholder data.", '4511', {
      page: ANSWER_PAGES.createCardRefV4,
    }),
  ],
};

/** Masked card fields as the get-card-info page names them: never the full number. */
const maskedCard = (page: string): FieldRow[] => [
  row('card-printed-name', 'optional', 'text', "Card holder's name.", 'JANE DOE', { page }),
  row(
    'bin',
    'optional',
    'digits',
    'Bank Identification Number: the first six digits.',
    '411111',
    { page },
    {
      pattern: '^[0-9]{6}$',
    },
  ),
  row(
    'last-four-digits',
    'optional',
    'digits',
    'The last four digits of the PAN.',
    '1111',
    { page },
    {
      pattern: '^[0-9]{4}$',
    },
  ),
];

const cardInfo: FieldTable = {
  schema: 'CardInfoAsyncResponse',
  page: ANSWER_PAGES.getCardInfo,
  fields: [
    typeRow(
      'get-card-info-response',
      ANSWER_PAGES.getCardInfo,
      'CardInfoAsyncResponse, one of "the card-reference/card-info async variants"; its fields "not shown"',
    ),
    serialNumber(ANSWER_PAGES.getCardInfo),
    ...maskedCard(ANSWER_PAGES.getCardInfo),
    row(
      'expire-year',
      'optional',
      'digits',
      'Card expiration year.',
      '2030',
      { page: ANSWER_PAGES.getCardInfo },
      {
        pattern: '^[0-9]{2,4}$',
      },
    ),
    row(
      'expire-month',
      'optional',
      'digits',
      'Card expiration month.',
      '12',
      { page: ANSWER_PAGES.getCardInfo },
      {
        pattern: '^(0?[1-9]|1[0-2])$',
      },
    ),
    row('result-3d', 'optional', 'text', '3-D Secure completion result.', 'AUTHENTICATED', {
      page: ANSWER_PAGES.getCardInfo,
    }),
  ],
};

const status = ANSWER_PAGES.status;
/** Status fields a family gateway's published answer carries beyond the rows read on the page. */
const statusExtra = (name: string, description: string, example: string, kind: FieldKind = 'text'): FieldRow =>
  row(name, 'optional', kind, description, example, { page: status, assumption: 'A-41' });

const statusResponse: FieldTable = {
  schema: 'StatusResponse',
  page: status,
  fields: [
    typeRow('status-response', status, 'StatusResponse: the 200 body of STATUS; its fields "not shown"'),
    row(
      'status',
      'mandatory',
      'enum',
      'Where the order stands (the Status List).',
      'approved',
      { page: status },
      {
        allowed: ORDER_STATUSES,
      },
    ),
    row(
      'amount',
      'optional',
      'amount',
      'Actual transaction amount; it can change during the transaction flow.',
      '10.42',
      { page: status, spec: 'amount: "number" (A-7: answered as the request gave it)' },
    ),
    row(
      'currency',
      'optional',
      'currency',
      'Currency the transaction is charged in.',
      'EUR',
      { page: status },
      {
        pattern: '^[A-Z]{3}$',
      },
    ),
    ...orderRows(status, 'mandatory'),
    serialNumber(status),
    row(
      'transaction-type',
      'optional',
      'text',
      "The order's latest transaction: sale, reversal, chargeback … (shop plugins book the order by it).",
      'sale',
      { page: status, assumption: 'A-40' },
    ),
    row('html', 'optional', 'text', 'A page that sends the payer to 3-D Secure authentication.', '<form …>', {
      page: status,
      assumption: 'A-41',
    }),
    statusExtra('redirect-url', 'Where the payer is sent to go on.', 'https://gate.example/form/1', 'url'),
    statusExtra('redirect-to', 'Where the payer is sent to go on.', 'https://gate.example/form/redirect/1', 'url'),
    statusExtra('card-ref-id', 'Card reference id of the order.', '7715'),
    row('error-message', 'optional', 'text', 'Reason of a decline, filter or error.', 'Insufficient funds', {
      page: status,
      assumption: 'A-41',
    }),
    row('error-code', 'optional', 'text', 'Code of a decline, filter or error.', '5', {
      page: status,
      assumption: 'A-41',
    }),
    ...maskedCard(status).map((r) => ({ ...r, source: { page: status, assumption: 'A-41' } })),
    statusExtra('card-type', 'Card brand.', 'VISA'),
    statusExtra('cardholder-name', "Card holder's name.", 'JANE DOE'),
    statusExtra('card-exp-month', 'Card expiration month.', '12', 'digits'),
    statusExtra('card-exp-year', 'Card expiration year.', '2030', 'digits'),
    statusExtra('card-hash-id', 'Id of the card number, the same for every order it pays.', '3902982'),
    statusExtra('card-country-alpha-three-code', "Card issuer's country.", 'JPN'),
    statusExtra('bank-name', "Card issuer's name.", 'UNKNOWN'),
    statusExtra('order-stage', 'Processing stage of the order.', 'sale_3d_validating'),
    statusExtra('original-gate-descriptor', 'Descriptor of the processing channel.', 'TEST EUR'),
    statusExtra('receipt-id', 'Receipt id of the transaction.', '158e97af-7ffe-3293-a3fe-ac523841a74f'),
    statusExtra('paynet-processing-date', 'When the gateway processed the order.', '2024-03-20 08:51:03 MSK'),
    statusExtra('initial-amount', 'Amount the order was started with.', '10.42', 'amount'),
    statusExtra('name', "Payer's name.", 'JANE DOE'),
    statusExtra('first-name', "Payer's first name.", 'JANE'),
    statusExtra('last-name', "Payer's last name.", 'DOE'),
    statusExtra('email', "Payer's e-mail address.", 'jane@example.com', 'email'),
    statusExtra('phone', "Payer's phone number.", '12063582043'),
    statusExtra('ips-src-payment-product-code', 'Card product code of the payment system.', 'F'),
    statusExtra('ips-src-payment-product-name', 'Card product name of the payment system.', 'Visa Classic'),
    statusExtra('ips-src-payment-type-code', 'Card type code of the payment system.', 'Credit'),
    statusExtra('ips-src-payment-type-name', 'Card type name of the payment system.', 'VISA Credit'),
  ],
};

const createRecurring: FieldTable = {
  schema: 'CreateRecurringPaymentResponse',
  page: ANSWER_PAGES.createRecurring,
  fields: [
    typeRow('async-response', ANSWER_PAGES.createRecurring, STARTED_SPEC, { assumption: 'A-41' }),
    startedStatus(ANSWER_PAGES.createRecurring),
    ...orderRows(ANSWER_PAGES.createRecurring, 'optional', 'A-41'),
    serialNumber(ANSWER_PAGES.createRecurring),
    row('recurring-payment-id', 'mandatory', 'text', 'The recurring payment profile the gateway created.', '4511', {
      page: ANSWER_PAGES.createRecurring,
    }),
  ],
};

/** The two refusals: the capture page's "error-message and error-code parameters contain error details". */
function refusal(schema: string, value: string, spec: string): FieldTable {
  const page = ANSWER_PAGES.capture;
  return {
    schema,
    page,
    fields: [
      typeRow(value, page, spec),
      row(
        'error-code',
        'mandatory',
        'text',
        'The error code of the rule the request broke.',
        'CONTROL_INVALID',
        {
          page,
          assumption: 'A-21',
        },
        { pattern: UPPER_SNAKE },
      ),
      row('error-message', 'mandatory', 'text', 'What was wrong, naming the field.', 'control: does not match', {
        page,
      }),
      serialNumber(page),
      row('field', 'optional', 'text', 'The request field the error is about.', 'control', {
        page,
        assumption: 'A-25',
      }),
    ],
  };
}

export const ANSWER_FIELD_TABLES: readonly FieldTable[] = [
  asyncResponse,
  checkoutRedirect,
  cardRefAsync,
  cardRefV4Async,
  cardInfo,
  statusResponse,
  createRecurring,
  refusal('ValidationErrorResponse', 'validation-error', 'Errors: 400 ValidationErrorResponse, "Validation error"'),
  refusal('ServerErrorResponse', 'error', 'Errors: 500 ServerErrorResponse, "Server error"'),
];
