/**
 * JSON Schemas (draft-07) of the request bodies. The spec names the request schemas but shows no
 * fields; the names and mandatory lists follow the API family's public documentation
 * (docs/assumptions.md A-25). Every form value is a string. Fields not listed are allowed (merchants
 * send optional extras such as server_callback_url) but a listed field must be well-formed.
 *
 * Each field carries one `examples` value: `sampleRequest()` builds a valid request from them, so
 * tests, the conformance suite and the benchmarks all send what these schemas accept.
 */
import { TEST_CARDS } from '../catalogue/test-cards.ts';
import { DECIMAL_AMOUNT_PATTERN } from '../signing/cents.ts';

const str = (example: string, maxLength = 128): object => ({
  type: 'string',
  minLength: 1,
  maxLength,
  examples: [example],
});
const pattern = (regex: string, example: string): object => ({ type: 'string', pattern: regex, examples: [example] });
const merchantUrlField = (example: string, mandatory = false): object => ({
  type: 'string',
  // Blank is no URL: where one is mandatory, a blank one is refused as an empty field would be.
  ...(mandatory ? { pattern: '\\S' } : {}),
  description: 'an absolute http:// or https:// URL (rule merchant-urls, A-33)',
  examples: [example],
});

/** Every field any request schema names, with its rule. */
export const FIELDS: Readonly<Record<string, object>> = {
  login: str('payconform-test-merchant'),
  client_orderid: str('ORD-1'),
  'client-order-id': str('ORD-1'),
  orderid: pattern('^[0-9]{1,20}$', '100000000'),
  cardrefid: pattern('^[0-9]{1,20}$', '100000000'),
  'recurring-payment-id': pattern('^[0-9]{1,20}$', '100000000'),
  // The signer's grammar: what the control formula can put in cents, the schema accepts.
  amount: pattern(DECIMAL_AMOUNT_PATTERN, '10.00'),
  currency: pattern('^[A-Z]{3}$', 'EUR'),
  order_desc: str('Order #42', 512),
  email: pattern('^[^@\\s]{1,64}@[^@\\s]{1,190}$', 'jane.doe@example.com'),
  ipaddress: {
    type: 'string',
    anyOf: [
      { type: 'string', format: 'ipv4' },
      { type: 'string', format: 'ipv6' },
    ],
    examples: ['192.0.2.10'],
  },
  address1: str('1 Test Street'),
  city: str('Testville'),
  zip_code: str('10115', 16),
  country: pattern('^[A-Z]{2}$', 'DE'),
  phone: pattern('^\\+?[0-9 ()-]{5,20}$', '+49 30 1234567'),
  // The merchant's URLs: their grammar is the rule merchant-urls' (A-33), one reading for the mock and its callbacks.
  // A mandatory redirect_url must not be blank; a blank callback URL is none.
  redirect_url: merchantUrlField('https://merchant.example/return', true),
  server_callback_url: merchantUrlField('https://merchant.example/callback'),
  notify_url: merchantUrlField('https://merchant.example/notify'),
  card_printed_name: str('JANE DOE'),
  credit_card_number: pattern('^[0-9]{12,19}$', TEST_CARDS.approved),
  'destination-card-no': pattern('^[0-9]{12,19}$', TEST_CARDS.approved),
  expire_month: pattern('^(0[1-9]|1[0-2])$', '12'),
  // The public library wants two digits; four are common too.
  expire_year: pattern('^([0-9]{2}|[0-9]{4})$', '30'),
  cvv2: pattern('^[0-9]{3,4}$', '123'),
  cres: str('eyJ0cmFuc1N0YXR1cyI6IlkifQ', 8192),
  pares: str('eJzLSM3JyVcozy/KSQEAGgQEXQ', 8192),
  comment: str('customer request', 512),
};

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
];
const CARD = ['card_printed_name', 'credit_card_number', 'expire_month', 'expire_year', 'cvv2'];
const PAYOUT_CARD = ['card_printed_name', 'credit_card_number', 'expire_month', 'expire_year'];
const ORDER_MOVE = ['login', 'client_orderid', 'orderid'];
const THREE_DS = ['client-order-id', 'orderid'];

/** Mandatory fields per request schema; the three not named by the spec carry our names. */
export const REQUIRED_FIELDS: Readonly<Record<string, readonly string[]>> = {
  SaleRequest: ['client_orderid', 'amount', 'currency', ...CUSTOMER, ...CARD],
  AuthRequest: ['client_orderid', 'amount', 'currency', ...CUSTOMER, ...CARD],
  SaleFormRequest: ['client_orderid', 'amount', 'currency', ...CUSTOMER],
  AuthFormRequest: ['client_orderid', 'amount', 'currency', ...CUSTOMER],
  PaymentFormRequest: ['client_orderid', 'amount', 'currency', ...CUSTOMER],
  AccountVerificationRequest: ['client_orderid', ...CUSTOMER, ...CARD],
  AccountVerificationFormRequest: ['client_orderid', ...CUSTOMER],
  CaptureRequest: [...ORDER_MOVE, 'amount', 'currency'],
  ReturnRequest: [...ORDER_MOVE, 'amount', 'currency'],
  VoidRequest: ORDER_MOVE,
  StatusRequest: ORDER_MOVE,
  CreateCardRefRequest: ORDER_MOVE,
  GetCardInfoRequest: ['login', 'cardrefid'],
  RebillRequest: ['login', 'client_orderid', 'cardrefid', 'amount', 'currency'],
  PayoutFormRequest: ['client_orderid', 'amount', 'currency', 'order_desc', 'redirect_url'],
  PayoutRequest: ['client_orderid', 'amount', 'currency', ...PAYOUT_CARD],
  PayoutV4Request: ['client-order-id', 'amount', 'currency', 'order_desc', ...PAYOUT_CARD],
  PayoutCheckRequest: ['client-order-id', 'amount', 'currency', 'order_desc', ...PAYOUT_CARD],
  PayoutPayRequest: ['client-order-id', 'orderid'],
  CreateCardRefV4Request: ['client-order-id', ...PAYOUT_CARD],
  RecurringPaymentForCreation: ['client-order-id', 'cardrefid', 'amount', 'currency'],
  ProcessRecurringPaymentRequest: ['client-order-id', 'recurring-payment-id'],
  TdsCResResultRequest: [...THREE_DS, 'cres'],
  TdsMethodUrlResultRequest: THREE_DS,
  TdsPaResResultRequest: [...THREE_DS, 'pares'],
  PanEligibilityRequest: ['client_orderid', 'credit_card_number'],
  TransferV4Request: ['client-order-id', 'amount', 'currency', ...CARD, 'destination-card-no'],
  TransferByRefV4Request: ['client-order-id', 'amount', 'currency', 'cardrefid', 'destination-card-no'],
};

export const REQUEST_SCHEMAS: Readonly<Record<string, object>> = Object.fromEntries(
  Object.entries(REQUIRED_FIELDS).map(([name, required]) => [name, { type: 'object', required, properties: FIELDS }]),
);
