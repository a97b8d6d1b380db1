# Generated from the endpoint catalogue by `npm run features`; edit scripts or flows, not this file.
@area:cards
Feature: CARDREF — POST /api/v2/create-card-ref/{endpointId}
  The CARDREF endpoint takes a CreateCardRefRequest form body, signed with a control field (SHA-1 of the formula fields, amounts in cents, merchant control key last),
  and answers CardRefAsyncResponse as application/vnd.pay+json.
  It acts on the orderid of a SALE, which each scenario creates first.

  @endpoint:CARDREF @scheme:control @positive @spec:endpoints
  Scenario: a signed CARDREF request is accepted and its order reaches a final status
    When I send a signed "CARDREF" request
    Then the gateway accepts it
    And the order reaches a final status

  @endpoint:CARDREF @scheme:control @negative:accept-missing @spec:common-headers
  Scenario: CARDREF without the Accept header is refused
    When I send a signed "CARDREF" request without the Accept header
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:CARDREF @scheme:control @negative:accept-wrong @spec:common-headers
  Scenario: CARDREF with Accept: application/json is refused
    When I send a signed "CARDREF" request with the Accept header "application/json"
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:CARDREF @scheme:control @negative:signature-missing @spec:authentication
  Scenario: CARDREF without its control field is refused
    When I send an unsigned "CARDREF" request
    Then the gateway refuses it
    And the error code is "CONTROL_MISSING"

  @endpoint:CARDREF @scheme:control @negative:signature-wrong @spec:authentication
  Scenario: CARDREF with a wrong control value (a formula field changed after signing) is refused
    When I send a "CARDREF" request whose signature is corrupted
    Then the gateway refuses it
    And the error code is "CONTROL_INVALID"

  @endpoint:CARDREF @scheme:control @negative:field-missing @spec:named-schemas @assumption @A-25
  Scenario: CARDREF without its mandatory "login" field is refused
    When I send a signed "CARDREF" request without the "login" field
    Then the gateway refuses it
    And the error names the field "login"
