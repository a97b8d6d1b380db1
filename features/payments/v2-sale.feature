# Generated from the endpoint catalogue by `npm run features`; edit scripts or flows, not this file.
@area:payments
Feature: SALE — POST /api/v2/sale/{endpointId}
  The SALE endpoint takes a SaleRequest form body, signed with a control field (SHA-1 of the formula fields, amounts in cents, merchant control key last),
  and answers AsyncResponse as application/vnd.pay+json.

  @endpoint:SALE @scheme:control @positive @spec:endpoints @money
  Scenario: a signed SALE request is accepted and its order reaches a final status
    When I send a signed "SALE" request
    Then the gateway accepts it
    And the order reaches a final status

  @endpoint:SALE @scheme:control @negative:accept-missing @spec:common-headers
  Scenario: SALE without the Accept header is refused
    When I send a signed "SALE" request without the Accept header
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:SALE @scheme:control @negative:accept-wrong @spec:common-headers
  Scenario: SALE with Accept: application/json is refused
    When I send a signed "SALE" request with the Accept header "application/json"
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:SALE @scheme:control @negative:signature-missing @spec:authentication
  Scenario: SALE without its control field is refused
    When I send an unsigned "SALE" request
    Then the gateway refuses it
    And the error code is "CONTROL_MISSING"

  @endpoint:SALE @scheme:control @negative:signature-wrong @spec:authentication
  Scenario: SALE with a wrong control value (a formula field changed after signing) is refused
    When I send a "SALE" request whose signature is corrupted
    Then the gateway refuses it
    And the error code is "CONTROL_INVALID"

  @endpoint:SALE @scheme:control @negative:field-missing @spec:named-schemas @assumption @A-25
  Scenario: SALE without its mandatory "currency" field is refused
    When I send a signed "SALE" request without the "currency" field
    Then the gateway refuses it
    And the error names the field "currency"
