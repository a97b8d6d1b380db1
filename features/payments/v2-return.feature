# Generated from the endpoint catalogue by `npm run features`; edit scripts or flows, not this file.
@area:payments
Feature: RETURN — POST /api/v2/return/{endpointId}
  The RETURN endpoint takes a ReturnRequest form body, signed with a control field (SHA-1 of the formula fields, amounts in cents, merchant control key last),
  and answers AsyncResponse as application/vnd.pay+json.
  It acts on the orderid of a SALE, which each scenario creates first.

  @endpoint:RETURN @scheme:control @positive @spec:endpoints @money
  Scenario: a signed RETURN request is accepted and its order reaches a final status
    When I send a signed "RETURN" request
    Then the gateway accepts it
    And the order reaches a final status

  @endpoint:RETURN @scheme:control @negative:accept-missing @spec:common-headers
  Scenario: RETURN without the Accept header is refused
    When I send a signed "RETURN" request without the Accept header
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:RETURN @scheme:control @negative:accept-wrong @spec:common-headers
  Scenario: RETURN with Accept: application/json is refused
    When I send a signed "RETURN" request with the Accept header "application/json"
    Then the gateway refuses it
    And the error code is "NOT_ACCEPTABLE"

  @endpoint:RETURN @scheme:control @negative:signature-missing @spec:authentication
  Scenario: RETURN without its control field is refused
    When I send an unsigned "RETURN" request
    Then the gateway refuses it
    And the error code is "CONTROL_MISSING"

  @endpoint:RETURN @scheme:control @negative:signature-wrong @spec:authentication
  Scenario: RETURN with a wrong control value (a formula field changed after signing) is refused
    When I send a "RETURN" request whose signature is corrupted
    Then the gateway refuses it
    And the error code is "CONTROL_INVALID"

  @endpoint:RETURN @scheme:control @negative:field-missing @spec:named-schemas @assumption @A-25
  Scenario: RETURN without its mandatory "login" field is refused
    When I send a signed "RETURN" request without the "login" field
    Then the gateway refuses it
    And the error names the field "login"
