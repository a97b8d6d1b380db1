# Generated from the endpoint catalogue by `npm run features`; edit scripts or flows, not this file.
@area:forms
Feature: PAYMENTFORM — POST /api/v2/payment-form/{endpointId}
  The PAYMENTFORM endpoint takes a PaymentFormRequest form body, signed with nothing: the spec states no authentication for it (docs/assumptions.md A-12, A-24),
  and answers AsyncCheckoutFormRedirect as application/vnd.pay+json.

  @endpoint:PAYMENTFORM @scheme:unstated @positive @spec:endpoints @money
  Scenario: an unsigned PAYMENTFORM request is accepted
    When I send an unsigned "PAYMENTFORM" request
    Then the gateway accepts it
    And the answer carries a "redirect-url"

  @endpoint:PAYMENTFORM @scheme:unstated @negative:accept-missing @spec:common-headers
  Scenario: PAYMENTFORM without the Accept header is refused
    When I send a signed "PAYMENTFORM" request without the Accept header
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:PAYMENTFORM @scheme:unstated @negative:accept-wrong @spec:common-headers
  Scenario: PAYMENTFORM with Accept: application/json is refused
    When I send a signed "PAYMENTFORM" request with the Accept header "application/json"
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:PAYMENTFORM @scheme:unstated @negative:field-missing @spec:named-schemas @assumption @A-25
  Scenario: PAYMENTFORM without its mandatory "client_orderid" field is refused
    When I send a signed "PAYMENTFORM" request without the "client_orderid" field
    Then the gateway refuses it
    And the error names the field "client_orderid"
