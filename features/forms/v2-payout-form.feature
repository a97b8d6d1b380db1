# Generated from the endpoint catalogue by `npm run features`; edit scripts or flows, not this file.
@area:forms
Feature: PAYOUTFORM — POST /api/v2/payout-form/{endpointId}
  The PAYOUTFORM endpoint takes a PayoutFormRequest form body, signed with nothing: the spec states no authentication for it (docs/assumptions.md A-12, A-24),
  and answers AsyncCheckoutFormRedirect as application/vnd.pay+json.

  @endpoint:PAYOUTFORM @scheme:unstated @positive @spec:endpoints @money
  Scenario: an unsigned PAYOUTFORM request is accepted
    When I send an unsigned "PAYOUTFORM" request
    Then the gateway accepts it
    And the answer carries a "redirect-url"

  @endpoint:PAYOUTFORM @scheme:unstated @negative:accept-missing @spec:common-headers
  Scenario: PAYOUTFORM without the Accept header is refused
    When I send a signed "PAYOUTFORM" request without the Accept header
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:PAYOUTFORM @scheme:unstated @negative:accept-wrong @spec:common-headers
  Scenario: PAYOUTFORM with Accept: application/json is refused
    When I send a signed "PAYOUTFORM" request with the Accept header "application/json"
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:PAYOUTFORM @scheme:unstated @negative:field-missing @spec:named-schemas @assumption @A-25
  Scenario: PAYOUTFORM without its mandatory "client_orderid" field is refused
    When I send a signed "PAYOUTFORM" request without the "client_orderid" field
    Then the gateway refuses it
    And the error names the field "client_orderid"
