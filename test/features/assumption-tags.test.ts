// The audit of the @assumption tags (issue 42; docs/assumptions.md, "Audit of the @assumption tags", 2026-11-28).
// Each scenario whose premise rests on an assumption is listed here by hand, with the clause of the spec it
// stands in for, quoted from docs/spec/api-spec.md, and why that clause does not decide it. The table must be
// the scenarios the features tag, as cucumber reads the tags (Feature and Examples tags included): a new
// @assumption tag without an audited entry fails, and so does an entry whose scenario lost its tag. A scenario
// whose rule the spec states outright is not here: it was retagged as the spec's (Accept: */*, the replayed nonces).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadSources } from '@cucumber/cucumber/api';
import { ASSUMPTION_IDS, type AssumptionId } from '../../src/rules/assumption-ids.ts';
import { RULE_BY_ID } from '../../src/rules/book.ts';
import { ACCEPT_SCENARIOS } from '../../src/suite/profile.ts';

const root = new URL('../../', import.meta.url).pathname;

/** The scenarios (as prove keys them: `uri: name`) that cucumber selects with a tag expression. */
async function selected(tagExpression: string): Promise<Set<string>> {
  const { plan, errors } = await loadSources(
    { defaultDialect: 'en', paths: ['features/**/*.feature'], names: [], tagExpression, order: 'defined' },
    { cwd: root },
  );
  assert.deepEqual(errors, []);
  return new Set(plan.map((p) => `${p.uri}: ${p.name}`));
}

interface Clause {
  readonly ids: readonly AssumptionId[];
  /** Words of docs/spec/api-spec.md, verbatim: the clause the assumption stands in for. */
  readonly spec: string;
  /** Why that clause leaves the scenario's premise open. */
  readonly why: string;
}

/** The clauses the audit found the assumption-tagged scenarios resting on. */
const CLAUSES = {
  digestEncoding: {
    ids: ['A-1'],
    spec: 'Output encoding of the digest (hex or other): not shown.',
    why: 'refusing uppercase hex or Base64 as malformed rests on our lowercase hex',
  },
  groupIds: {
    ids: ['A-3'],
    spec: 'Endpoint identifier; on some operations an endpoint group identifier is also accepted',
    why: "which operations, and the …/group/{id} URL form, are the public pages', not the spec's",
  },
  publicFormula: {
    ids: ['A-12'],
    spec: 'Control formula of get-card-info, payment-form and payout-form: not shown',
    why: "get-card-info's control formula, so its refusals, come from the family's public page",
  },
  serverError: {
    ids: ['A-21'],
    spec: '| 500 | ServerErrorResponse (`application/vnd.pay+json`), labelled "Server error" | every listed endpoint |',
    why: 'the spec names the 500 but not what provokes one: the mock answers it to its own MOCK-SERVER-ERROR order id',
  },
  timestampWindow: {
    ids: ['A-22'],
    spec: 'Timestamp tolerance and nonce replay rules: not shown.',
    why: 'a timestamp 900 s old is refused only under a window shorter than that (ours: 300 s)',
  },
  orderStates: {
    ids: ['A-23'],
    spec: 'States of an order, card reference, recurring payment or payout: not shown.',
    why: 'how orders move (capture up to the authorised amount, void, returns, test cards, 3-D Secure) is ours',
  },
  wholeReturn: {
    ids: ['A-23', 'A-36'],
    spec: 'States of an order, card reference, recurring payment or payout: not shown.',
    why: "a return without amount reversing the whole order is the family's return page's; how the order moves is ours",
  },
  fieldLists: {
    ids: ['A-25'],
    spec:
      'Field lists of these request schemas (required flags, types, lengths, allowed values): ' +
      'not shown beyond the identifiers above.',
    why: "which fields are mandatory is the family's public pages', so is the refusal of one left out",
  },
  oauthInBody: {
    ids: ['A-26'],
    spec:
      'In the HMAC-SHA1 example the oauth_* parameters are also repeated in the body. The operation descriptions ' +
      'state that oauth_* parameters go in the Authorization header and not in the form body.',
    why: 'the spec says both: accepting a body that repeats the header is our reading',
  },
  references: {
    ids: ['A-27'],
    spec: 'States of an order, card reference, recurring payment or payout: not shown.',
    why: 'what a card reference, a recurring payment or a payout-check makes, and what refers to it, is ours',
  },
  callbacks: {
    ids: ['A-31'],
    spec: 'Events, callbacks, notifications and their payloads: not shown.',
    why: "the callback, its control and its retries are the family's Merchant Callbacks page",
  },
  hostedPages: {
    ids: ['A-23', 'A-31'],
    spec: 'An AsyncCheckoutFormRedirect response is returned by every "-form" endpoint, which starts a hosted checkout.',
    why: "the checkout's pages, the order's end and the customer's return are the mock's and the public pages'",
  },
  transactionType: {
    ids: ['A-40'],
    spec: 'Field lists of these response schemas: not shown.',
    why: "a status answer's transaction-type, which shop plugins book an order by, is the vendor plugin's",
  },
  hostedCardRef: {
    ids: ['A-27', 'A-43'],
    spec: 'States of an order, card reference, recurring payment or payout: not shown.',
    why: "that a hosted payment keeps its card for a card reference is the create-card-ref page's reading, ours",
  },
} as const satisfies Record<string, Clause>;

type ClauseName = keyof typeof CLAUSES;

/** Every assumption-tagged scenario and the clause it rests on. */
const AUDIT: Record<string, ClauseName> = {
  'features/auth/control.feature: a SALE signed with the uppercase-hex mistake is refused': 'digestEncoding',
  'features/auth/control.feature: a SALE signed with the base64-digest mistake is refused': 'digestEncoding',
  "features/auth/endpoint-group.feature: a SALE to the endpoint group, its id in the endpointId's place, is accepted":
    'groupIds',
  "features/auth/endpoint-group.feature: a SALE to the endpoint group's own URL, …/sale/group/{groupId}, is accepted":
    'groupIds',
  "features/auth/endpoint-group.feature: a SALE made through the group's own URL is followed by status and returned through it":
    'groupIds',
  "features/auth/endpoint-group.feature: a PREAUTH made through the group's own URL is captured through it": 'groupIds',
  'features/auth/oauth-hmac-sha1.feature: an oauth_timestamp 15 minutes old is refused': 'timestampWindow',
  "features/auth/oauth-hmac-sha1.feature: oauth_* parameters repeated in the body, as in the spec's example, are accepted":
    'oauthInBody',
  'features/auth/oauth-rsa-sha256.feature: an oauth_timestamp 15 minutes in the past is refused': 'timestampWindow',
  'features/cards/flows.feature: sale, card reference, rebill': 'references',
  'features/cards/flows.feature: a v4 card reference, then its card info shows the masked card only': 'references',
  'features/cards/flows.feature: a rebill with an unknown card reference is refused': 'references',
  'features/cards/v2-create-card-ref.feature: CARDREF without its mandatory "login" field is refused': 'fieldLists',
  'features/cards/v2-get-card-info.feature: CARDINFO without its control field is refused': 'publicFormula',
  'features/cards/v2-get-card-info.feature: CARDINFO with a wrong control value (a formula field changed after signing) is refused':
    'publicFormula',
  'features/cards/v2-get-card-info.feature: CARDINFO without its mandatory "login" field is refused': 'fieldLists',
  'features/cards/v2-make-rebill.feature: REBILL without its mandatory "login" field is refused': 'fieldLists',
  'features/cards/v4-create-card-ref.feature: CARDREF_V4 without its mandatory "client-order-id" field is refused':
    'fieldLists',
  'features/forms/flows.feature: SALEFORM through its hosted page to approved': 'hostedPages',
  'features/forms/flows.feature: PREAUTHFORM through its hosted page to approved': 'hostedPages',
  'features/forms/flows.feature: PAYMENTFORM through its hosted page to declined': 'hostedPages',
  'features/forms/flows.feature: PAYOUTFORM through its hosted page to approved': 'hostedPages',
  'features/forms/flows.feature: ACCOUNT_VERIFICATION_FORM through its hosted page to approved': 'hostedPages',
  'features/forms/v2-account-verification-form.feature: ACCOUNT_VERIFICATION_FORM without its mandatory "order_desc" field is refused':
    'fieldLists',
  'features/forms/v2-payment-form.feature: PAYMENTFORM without its mandatory "client_orderid" field is refused':
    'fieldLists',
  'features/forms/v2-payout-form.feature: PAYOUTFORM without its mandatory "client_orderid" field is refused':
    'fieldLists',
  'features/forms/v2-preauth-form.feature: PREAUTHFORM without its mandatory "currency" field is refused': 'fieldLists',
  'features/forms/v2-sale-form.feature: SALEFORM without its mandatory "currency" field is refused': 'fieldLists',
  "features/payments/callbacks.feature: an approved SALE is called back, signed, with the order's ids and amount":
    'callbacks',
  'features/payments/callbacks.feature: a handler that answers 503 is called again': 'callbacks',
  'features/payments/callbacks.feature: a SALEFORM paid on the hosted page returns the customer signed and is called back':
    'callbacks',
  'features/payments/flows.feature: preauth, partial capture, partial return, return of the rest, then nothing more':
    'orderStates',
  'features/payments/flows.feature: a capture above the authorised amount is refused': 'orderStates',
  'features/payments/flows.feature: a refund above the sale amount is refused': 'orderStates',
  'features/payments/flows.feature: a return without amount reverses the whole sale, and leaves nothing to return':
    'wholeReturn',
  'features/payments/flows.feature: sale then void; a second void and a return after it are refused': 'orderStates',
  'features/payments/flows.feature: a capture after void is refused': 'orderStates',
  'features/payments/flows.feature: a declined preauth cannot be captured': 'orderStates',
  'features/payments/flows.feature: a sale with the approved test card ends approved': 'orderStates',
  'features/payments/flows.feature: a sale with the declined test card ends declined': 'orderStates',
  'features/payments/flows.feature: a sale with the gateway error test card ends error': 'orderStates',
  'features/payments/flows.feature: a ServerErrorResponse (500) is recognised as one': 'serverError',
  "features/payments/flows.feature: a paid sale's status names its transaction type, which shop plugins book the order by":
    'transactionType',
  "features/forms/flows.feature: an order paid on SALEFORM's hosted page gives a card reference, which a rebill charges":
    'hostedCardRef',
  "features/forms/flows.feature: an order paid on PREAUTHFORM's hosted page gives a card reference, which a rebill charges":
    'hostedCardRef',
  'features/payments/v2-account-verification.feature: ACCOUNT_VERIFICATION without its mandatory "order_desc" field is refused':
    'fieldLists',
  'features/payments/v2-capture.feature: CAPTURE without its mandatory "login" field is refused': 'fieldLists',
  'features/payments/v2-preauth.feature: PREAUTH without its mandatory "currency" field is refused': 'fieldLists',
  'features/payments/v2-return.feature: RETURN without its mandatory "login" field is refused': 'fieldLists',
  'features/payments/v2-sale.feature: SALE without its mandatory "currency" field is refused': 'fieldLists',
  'features/payments/v2-void.feature: VOID without its mandatory "login" field is refused': 'fieldLists',
  'features/payouts/flows.feature: payout-check then payout-pay; a second pay is refused': 'references',
  'features/payouts/v2-payout.feature: PAYOUT without its mandatory "client_orderid" field is refused': 'fieldLists',
  'features/payouts/v4-payout-check.feature: PAYOUT_V4_CHECK without its mandatory "client-order-id" field is refused':
    'fieldLists',
  'features/payouts/v4-payout-pay.feature: PAYOUT_V4_PAY without its mandatory "client-order-id" field is refused':
    'fieldLists',
  'features/payouts/v4-payout.feature: PAYOUT_V4 without its mandatory "client-order-id" field is refused':
    'fieldLists',
  'features/recurring/flows.feature: create a recurring payment, then process a charge': 'references',
  'features/recurring/flows.feature: processing an unknown recurring payment is refused': 'references',
  'features/recurring/v4-create-recurring-payment.feature: CREATE_RP_V4 without its mandatory "client-order-id" field is refused':
    'fieldLists',
  'features/recurring/v4-process-recurring-payment.feature: PROCESS_RP_V4 without its mandatory "client-order-id" field is refused':
    'fieldLists',
  'features/status/v2-status.feature: STATUS without its mandatory "login" field is refused': 'fieldLists',
  'features/threeds/3ds-upload-cres-result.feature: TDS_UPLOAD_CRES_RESULT without its mandatory "cres" field is refused':
    'fieldLists',
  'features/threeds/3ds-upload-method-url-result.feature: TDS_UPLOAD_METHOD_URL_RESULT without its mandatory "client-order-id" field is refused':
    'fieldLists',
  'features/threeds/3ds-upload-pares-result.feature: TDS_UPLOAD_PARES_RESULT without its mandatory "pares" field is refused':
    'fieldLists',
  'features/threeds/flows.feature: 3-D Secure through TDS_UPLOAD_CRES_RESULT': 'orderStates',
  'features/threeds/flows.feature: 3-D Secure through TDS_UPLOAD_METHOD_URL_RESULT': 'orderStates',
  'features/threeds/flows.feature: 3-D Secure through TDS_UPLOAD_PARES_RESULT': 'orderStates',
  'features/threeds/flows.feature: a failed authentication declines the order': 'references',
  'features/threeds/flows.feature: an upload for an order that waits for no 3-D Secure step is refused': 'orderStates',
  'features/transfers/v2-pan-eligibility-send.feature: PAN_ELIGIBILITY_SEND without its mandatory "client_orderid" field is refused':
    'fieldLists',
  'features/transfers/v4-transfer-by-ref.feature: TRANSFER_BY_REF_V4 without its mandatory "client-order-id" field is refused':
    'fieldLists',
  'features/transfers/v4-transfer.feature: TRANSFER_V4 without its mandatory "client-order-id" field is refused':
    'fieldLists',
};

const ANY_ID = ASSUMPTION_IDS.map((id) => `@${id}`).join(' or ');
const squeeze = (text: string): string => text.replace(/\s+/g, ' ');

describe('the audit of the @assumption tags', () => {
  it('lists exactly the scenarios the features tag @assumption', async () => {
    const tagged = await selected('@assumption');
    assert.deepEqual(
      [...tagged].filter((key) => !(key in AUDIT)),
      [],
      'tagged @assumption, not audited',
    );
    assert.deepEqual(
      Object.keys(AUDIT).filter((key) => !tagged.has(key)),
      [],
      'audited, no longer tagged @assumption',
    );
  });

  it("gives each scenario exactly its clause's assumption ids, and @assumption goes with an id", async () => {
    const used = [...new Set(Object.values(CLAUSES).flatMap((c): readonly string[] => c.ids))];
    for (const id of used) {
      const audited = Object.keys(AUDIT).filter((key) => (CLAUSES[AUDIT[key]!].ids as readonly string[]).includes(id));
      assert.deepEqual([...(await selected(`@${id}`))].sort(), audited.sort(), id);
    }
    const others = ASSUMPTION_IDS.filter((id) => !used.includes(id)).map((id) => `@${id}`);
    assert.deepEqual([...(await selected(others.join(' or ')))], [], 'an id no clause of the audit names');
    assert.deepEqual([...(await selected(`@assumption and not (${ANY_ID})`))], [], '@assumption without an id');
    assert.deepEqual([...(await selected(`(${ANY_ID}) and not @assumption`))], [], 'an id without @assumption');
  });

  it('quotes each clause from the spec, word for word', () => {
    const spec = squeeze(readFileSync(new URL('../../docs/spec/api-spec.md', import.meta.url), 'utf8'));
    for (const [name, clause] of Object.entries(CLAUSES) as [string, Clause][]) {
      assert.ok(spec.includes(squeeze(clause.spec)), `${name}: "${clause.spec}" is not in docs/spec/api-spec.md`);
      assert.ok(clause.why.length > 20 && clause.ids.length > 0, name);
    }
  });

  it("makes Accept: */* the spec's check, left out where a profile does not require Accept", async () => {
    const key =
      'features/auth/common-headers.feature: Accept: */* is refused (the spec requires application/vnd.pay+json)';
    // Identifiers: Accept "must equal `application/vnd.pay+json`"; Endpoints: "required".
    assert.equal(RULE_BY_ID.get('accept-header')?.basis, 'spec');
    assert.ok(!(await selected(`@assumption or ${ANY_ID}`)).has(key), 'still an assumption');
    assert.ok((await selected('@negative:accept-wrong')).has(key), 'not tagged as a wrong Accept');
    assert.ok(
      (await selected(ACCEPT_SCENARIOS)).has(key),
      'not among the scenarios request.acceptRequired: false leaves out',
    );
  });
});
