# Generated from the endpoint catalogue by `npm run features`; edit scripts or flows, not this file.
@area:cards
Feature: REBILL — POST /api/v2/make-rebill/{endpointId}
  The REBILL endpoint takes a RebillRequest form body, signed with a control field (SHA-1 of the formula fields, amounts in cents, merchant control key last),
  and answers AsyncResponse as application/vnd.pay+json.
  It acts on the cardrefid of a CARDREF, which each scenario creates first.

  @endpoint:REBILL @scheme:control @positive @spec:endpoints @money
  Scenario: a signed REBILL request is accepted and its order reaches a final status
    When I send a signed "REBILL" request
    Then the gateway accepts it
    And the order reaches a final status

  @endpoint:REBILL @scheme:control @negative:accept-missing @spec:common-headers
  Scenario: REBILL without the Accept header is refused
    When I send a signed "REBILL" request without the Accept header
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:REBILL @scheme:control @negative:accept-wrong @spec:common-headers
  Scenario: REBILL with Accept: application/json is refused
    When I send a signed "REBILL" request with the Accept header "application/json"
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:REBILL @scheme:control @negative:signature-missing @spec:authentication
  Scenario: REBILL without its control field is refused
    When I send an unsigned "REBILL" request
    Then the gateway refuses it
    And the error code is "CONTROL_MISSING"

  @endpoint:REBILL @scheme:control @negative:signature-wrong @spec:authentication
  Scenario: REBILL with a wrong control value (a formula field changed after signing) is refused
    When I send a "REBILL" request whose signature is corrupted
    Then the gateway refuses it
    And the error code is "CONTROL_INVALID"

  @endpoint:REBILL @scheme:control @negative:field-missing @spec:named-schemas @assumption @A-25
  Scenario: REBILL without its mandatory "login" field is refused
    When I send a signed "REBILL" request without the "login" field
    Then the gateway refuses it
    And the error names the field "login"
