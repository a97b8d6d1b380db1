# Generated from the endpoint catalogue by `npm run features`; edit scripts or flows, not this file.
@area:payments
Feature: PREAUTH — POST /api/v2/preauth/{endpointId}
  The PREAUTH endpoint takes a AuthRequest form body, signed with a control field (SHA-1 of the formula fields, amounts in cents, merchant control key last),
  and answers AsyncResponse as application/vnd.pay+json.

  @endpoint:PREAUTH @scheme:control @positive @spec:endpoints @money
  Scenario: a signed PREAUTH request is accepted and its order reaches a final status
    When I send a signed "PREAUTH" request
    Then the gateway accepts it
    And the order reaches a final status

  @endpoint:PREAUTH @scheme:control @negative:accept-missing @spec:common-headers
  Scenario: PREAUTH without the Accept header is refused
    When I send a signed "PREAUTH" request without the Accept header
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:PREAUTH @scheme:control @negative:accept-wrong @spec:common-headers
  Scenario: PREAUTH with Accept: application/json is refused
    When I send a signed "PREAUTH" request with the Accept header "application/json"
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:PREAUTH @scheme:control @negative:signature-missing @spec:authentication
  Scenario: PREAUTH without its control field is refused
    When I send an unsigned "PREAUTH" request
    Then the gateway refuses it
    And the error code is "CONTROL_MISSING"

  @endpoint:PREAUTH @scheme:control @negative:signature-wrong @spec:authentication
  Scenario: PREAUTH with a wrong control value (a formula field changed after signing) is refused
    When I send a "PREAUTH" request whose signature is corrupted
    Then the gateway refuses it
    And the error code is "CONTROL_INVALID"

  @endpoint:PREAUTH @scheme:control @negative:field-missing @spec:named-schemas @assumption @A-25
  Scenario: PREAUTH without its mandatory "currency" field is refused
    When I send a signed "PREAUTH" request without the "currency" field
    Then the gateway refuses it
    And the error names the field "currency"
