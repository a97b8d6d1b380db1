# Generated from the endpoint catalogue by `npm run features`; edit scripts or flows, not this file.
@area:payments
Feature: VOID — POST /api/v2/void/{endpointId}
  The VOID endpoint takes a VoidRequest form body, signed with a control field (SHA-1 of the formula fields, amounts in cents, merchant control key last),
  and answers AsyncResponse as application/vnd.pay+json.
  It acts on the orderid of a SALE, which each scenario creates first.

  @endpoint:VOID @scheme:control @positive @spec:endpoints
  Scenario: a signed VOID request is accepted and its order reaches a final status
    When I send a signed "VOID" request
    Then the gateway accepts it
    And the order reaches a final status

  @endpoint:VOID @scheme:control @negative:accept-missing @spec:common-headers
  Scenario: VOID without the Accept header is refused
    When I send a signed "VOID" request without the Accept header
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:VOID @scheme:control @negative:accept-wrong @spec:common-headers
  Scenario: VOID with Accept: application/json is refused
    When I send a signed "VOID" request with the Accept header "application/json"
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:VOID @scheme:control @negative:signature-missing @spec:authentication
  Scenario: VOID without its control field is refused
    When I send an unsigned "VOID" request
    Then the gateway refuses it
    And the error code is "CONTROL_MISSING"

  @endpoint:VOID @scheme:control @negative:signature-wrong @spec:authentication
  Scenario: VOID with a wrong control value (a formula field changed after signing) is refused
    When I send a "VOID" request whose signature is corrupted
    Then the gateway refuses it
    And the error code is "CONTROL_INVALID"

  @endpoint:VOID @scheme:control @negative:field-missing @spec:named-schemas @assumption @A-25
  Scenario: VOID without its mandatory "login" field is refused
    When I send a signed "VOID" request without the "login" field
    Then the gateway refuses it
    And the error names the field "login"
