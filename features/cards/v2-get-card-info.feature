# Generated from the endpoint catalogue by `npm run features`; edit scripts or flows, not this file.
@area:cards
Feature: CARDINFO — POST /api/v2/get-card-info/{endpointId}
  The CARDINFO endpoint takes a GetCardInfoRequest form body, signed with a control field (SHA-1 of the formula fields, amounts in cents, merchant control key last); the spec states none, the formula is the family's public page's (docs/assumptions.md A-12),
  and answers CardInfoAsyncResponse as application/vnd.pay+json.
  It acts on the cardrefid of a CARDREF, which each scenario creates first.

  @endpoint:CARDINFO @scheme:control @positive @spec:endpoints
  Scenario: a signed CARDINFO request is accepted
    When I send a signed "CARDINFO" request
    Then the gateway accepts it
    And the answer carries a "last-four-digits"

  @endpoint:CARDINFO @scheme:control @negative:accept-missing @spec:common-headers
  Scenario: CARDINFO without the Accept header is refused
    When I send a signed "CARDINFO" request without the Accept header
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:CARDINFO @scheme:control @negative:accept-wrong @spec:common-headers
  Scenario: CARDINFO with Accept: application/json is refused
    When I send a signed "CARDINFO" request with the Accept header "application/json"
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:CARDINFO @scheme:control @negative:signature-missing @spec:authentication @assumption @A-12
  Scenario: CARDINFO without its control field is refused
    When I send an unsigned "CARDINFO" request
    Then the gateway refuses it
    And the error code is "CONTROL_MISSING"

  @endpoint:CARDINFO @scheme:control @negative:signature-wrong @spec:authentication @assumption @A-12
  Scenario: CARDINFO with a wrong control value (a formula field changed after signing) is refused
    When I send a "CARDINFO" request whose signature is corrupted
    Then the gateway refuses it
    And the error code is "CONTROL_INVALID"

  @endpoint:CARDINFO @scheme:control @negative:field-missing @spec:named-schemas @assumption @A-25
  Scenario: CARDINFO without its mandatory "login" field is refused
    When I send a signed "CARDINFO" request without the "login" field
    Then the gateway refuses it
    And the error names the field "login"
