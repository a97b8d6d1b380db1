# Generated from the endpoint catalogue by `npm run features`; edit scripts or flows, not this file.
@area:forms
Feature: SALEFORM — POST /api/v2/sale-form/{endpointId}
  The SALEFORM endpoint takes a SaleFormRequest form body, signed with a control field (SHA-1 of the formula fields, amounts in cents, merchant control key last),
  and answers AsyncCheckoutFormRedirect as application/vnd.pay+json.

  @endpoint:SALEFORM @scheme:control @positive @spec:endpoints @money
  Scenario: a signed SALEFORM request is accepted
    When I send a signed "SALEFORM" request
    Then the gateway accepts it
    And the answer carries a "redirect-url"

  @endpoint:SALEFORM @scheme:control @negative:accept-missing @spec:common-headers
  Scenario: SALEFORM without the Accept header is refused
    When I send a signed "SALEFORM" request without the Accept header
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:SALEFORM @scheme:control @negative:accept-wrong @spec:common-headers
  Scenario: SALEFORM with Accept: application/json is refused
    When I send a signed "SALEFORM" request with the Accept header "application/json"
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:SALEFORM @scheme:control @negative:signature-missing @spec:authentication
  Scenario: SALEFORM without its control field is refused
    When I send an unsigned "SALEFORM" request
    Then the gateway refuses it
    And the error code is "CONTROL_MISSING"

  @endpoint:SALEFORM @scheme:control @negative:signature-wrong @spec:authentication
  Scenario: SALEFORM with a wrong control value (a formula field changed after signing) is refused
    When I send a "SALEFORM" request whose signature is corrupted
    Then the gateway refuses it
    And the error code is "CONTROL_INVALID"

  @endpoint:SALEFORM @scheme:control @negative:field-missing @spec:named-schemas @assumption @A-25
  Scenario: SALEFORM without its mandatory "currency" field is refused
    When I send a signed "SALEFORM" request without the "currency" field
    Then the gateway refuses it
    And the error names the field "currency"
